#pragma once

// A create that must happen once (a sandbox, a sprite): a click never makes two.

#include "cloud/CloudClient.h"
#include "cloud/CloudTr.h"

#include <QTimer>
#include <functional>
#include <memory>
#include <optional>

namespace sandbar::cloud {

// Sends call (made not idempotent here, so the client never resends it by itself) and hands
// over parse's reading of the reply. When the reply is lost (Unavailable or Timeout: a reset,
// a timeout, a 5xx) what was made may exist: find looks for it (by a token the request carries)
// and hands it over if it is there; only if it is not is the call sent again, after 300 ms per
// attempt so far, up to maxAttempts. A failing find, or the last attempt's, answers with the
// call's own error. Bound to context; stops once done's context is gone.
template <typename R>
void createOnce(CloudClient *client, ApiCall call, QObject *context,
                std::function<Result<R>(const QByteArray &body)> parse,
                std::function<void(Callback<std::optional<R>>)> find, Callback<R> done, int maxAttempts = 3)
{
    struct State {
        QPointer<CloudClient> client;
        ApiCall call;
        QPointer<QObject> context;
        std::function<Result<R>(const QByteArray &)> parse;
        std::function<void(Callback<std::optional<R>>)> find;
        Callback<R> done;
        int attempts = 0;
        int maxAttempts = 3;
        std::function<void(std::shared_ptr<State>)> attempt;
    };
    call.idempotent = false;
    auto s = std::make_shared<State>(State{
        client, std::move(call), context, std::move(parse), std::move(find), std::move(done), 0, maxAttempts, {}});
    s->attempt = [](std::shared_ptr<State> st) {
        if (st->done.expired() || !st->context)
            return;
        if (!st->client)
            return st->done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        ++st->attempts;
        st->client->call(st->call, Callback<ApiReply>(st->context, [st](Result<ApiReply> r) {
                             if (r)
                                 return st->done(st->parse(r->body));
                             const ErrorCode code = r.code();
                             if ((code != ErrorCode::Unavailable && code != ErrorCode::Timeout) ||
                                 st->attempts >= st->maxAttempts)
                                 return st->done(r.error());
                             const Error first = r.error();
                             st->find(Callback<std::optional<R>>(st->context, [st, first](Result<std::optional<R>> f) {
                                 if (!f)
                                     return st->done(first);
                                 if (f->has_value())
                                     return st->done(**f);
                                 QTimer::singleShot(300 * st->attempts, st->context, [st] { st->attempt(st); });
                             }));
                         }));
    };
    s->attempt(s);
}

} // namespace sandbar::cloud
