#pragma once

// Replies that are NDJSON streams (one JSON value a line, sent as things happen): progress of
// a long operation (a Sprites checkpoint, a kill), a command's output (Vercel).

#include "cloud/CloudClient.h"
#include "cloud/JsonValues.h"
#include "common/Callback.h"

#include <QByteArray>
#include <QList>
#include <functional>

namespace sandbar::net {
struct HttpRequest;
}

namespace sandbar::cloud {

// Sends request to target and hands each line of the reply to onLine as it arrives (a last
// line without '\n' too). done, once: ok at the reply's end; the server's refusal in its words
// (a status outside 2xx); the transport's failure; a line over 8 MiB; or the first error
// onLine returns, after which the exchange is dropped. Everything is bound to context.
using LineHandler = std::function<VoidResult(const QByteArray &line)>;
void streamLines(CloudClient *client, const HttpTarget &target, net::HttpRequest request, QObject *context,
                 LineHandler onLine, Callback<void> done);

} // namespace sandbar::cloud
