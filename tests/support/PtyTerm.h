#pragma once

// A terminal channel under test: collects its output and its end (contract and provider tests).
#include "TestSupport.h"
#include "terminal/PtyChannel.h"

#include <QObject>
#include <memory>
#include <optional>

namespace sandbar::test {

struct PtyTerm {
    std::unique_ptr<PtyChannel> channel;
    QByteArray out;
    bool started = false;
    std::optional<int> exit;
    std::optional<Error> error;

    // Starts c; its signals are bound to context, which must outlive this.
    PtyTerm(std::unique_ptr<PtyChannel> c, QObject *context)
        : channel(std::move(c))
    {
        QObject::connect(channel.get(), &PtyChannel::started, context, [this] { started = true; });
        QObject::connect(channel.get(), &PtyChannel::dataReceived, context,
                         [this](const QByteArray &b) { out.append(b); });
        QObject::connect(channel.get(), &PtyChannel::finished, context, [this](int code) { exit = code; });
        QObject::connect(channel.get(), &PtyChannel::errorOccurred, context, [this](const Error &e) { error = e; });
        channel->start();
    }
    bool ended() const { return exit.has_value() || error.has_value(); }
    bool waitFor(const QByteArray &text, qsizetype from = 0, int ms = 15000)
    {
        return waitUntil([&] { return out.indexOf(text, from) >= 0 || ended(); }, ms) && out.indexOf(text, from) >= 0;
    }
};

} // namespace sandbar::test
