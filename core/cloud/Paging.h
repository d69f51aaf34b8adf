#pragma once

// Lists a service hands out a page at a time, the next page named by a token from the last
// (Vercel's cursor, Sprites' continuation token).

#include "cloud/CloudClient.h"
#include "cloud/CloudTr.h"

#include <QList>
#include <QPointer>
#include <QString>
#include <functional>
#include <memory>

namespace sandbar::cloud {

template <typename T>
struct Page {
    QList<T> items;
    QString next; // empty: the last page
};

// Sends call, then again with cursorKey set to each page's next token, and hands over every
// item, or the first error. An empty page ends it too, and so does maxPages: a server that
// repeats a token must not keep us here forever.
template <typename T>
void collectPages(CloudClient *client, ApiCall call, QString cursorKey,
                  std::function<Result<Page<T>>(const QByteArray &body)> parse, QObject *context,
                  Callback<QList<T>> done, int maxPages = 200)
{
    struct State {
        QPointer<CloudClient> client;
        ApiCall call;
        QString cursorKey;
        std::function<Result<Page<T>>(const QByteArray &)> parse;
        QPointer<QObject> context;
        Callback<QList<T>> done;
        QList<T> items;
        int pages = 0;
        int maxPages = 200;
        std::function<void()> next;
    };
    auto s = std::make_shared<State>(State{client,
                                           std::move(call),
                                           std::move(cursorKey),
                                           std::move(parse),
                                           context,
                                           std::move(done),
                                           {},
                                           0,
                                           maxPages,
                                           {}});
    std::weak_ptr<State> weak = s;
    s->next = [weak] {
        auto st = weak.lock();
        if (!st || !st->context)
            return;
        if (!st->client)
            return st->done(makeError(ErrorCode::Cancelled, tr("The account was closed")));
        st->client->call(st->call, Callback<ApiReply>(st->context, [st](Result<ApiReply> r) {
                             if (!r)
                                 return st->done(r.error());
                             auto page = st->parse(r->body);
                             if (!page)
                                 return st->done(page.error());
                             st->items.append(page->items);
                             if (page->next.isEmpty() || page->items.isEmpty() || ++st->pages >= st->maxPages)
                                 return st->done(st->items);
                             st->call.query.removeAllQueryItems(st->cursorKey);
                             st->call.query.addQueryItem(st->cursorKey,
                                                         QString::fromLatin1(QUrl::toPercentEncoding(page->next)));
                             st->next();
                         }));
    };
    s->next();
}

} // namespace sandbar::cloud
