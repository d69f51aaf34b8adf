#pragma once

// The terminals facet of a cloud provider whose terminals are WebSockets
// (WebSocketPtyChannel): the provider says how to reach one (the opener, which may make the
// service's PTY session first, and the hooks for its frames) and, where the service keeps
// terminals alive, how to list them; the facet does the rest.

#include "cloud/WebSocketPtyChannel.h"
#include "providers/Facets.h"

#include <QPointer>
#include <functional>

namespace sandbar {
class Provider;
}

namespace sandbar::cloud {

class WebSocketTerminals final : public TerminalFacet
{
public:
    // How to reach one terminal; typeFirst is written before anything the user types (a
    // service whose terminal always starts a shell runs another program by typing it).
    struct Connection {
        WebSocketPtyChannel::Opener opener;
        WebSocketPtyChannel::Hooks hooks;
        QByteArray typeFirst;
    };
    using Connect = std::function<Connection(const QString &sessionId, const PtyOptions &options)>;
    using List = std::function<void(const QString &sessionId, Callback<QList<PtyEntry>> done)>;

    // owner: the provider (named in errors); flags: PtyResize, and Reattach where list is set.
    WebSocketTerminals(Provider *owner, Capabilities flags, Connect connect, List list = {});

    Capabilities terminalFlags() const override;
    std::unique_ptr<PtyChannel> openPty(const QString &sessionId, const PtyOptions &options) override;
    void listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done) override;

private:
    QPointer<Provider> m_owner;
    Capabilities m_flags;
    Connect m_connect;
    List m_list;
};

} // namespace sandbar::cloud
