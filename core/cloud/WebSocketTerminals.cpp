#include "cloud/WebSocketTerminals.h"

#include "cloud/CloudTr.h"
#include "providers/Provider.h"

namespace sandbar::cloud {

WebSocketTerminals::WebSocketTerminals(Provider *owner, Capabilities flags, Connect connect, List list)
    : m_owner(owner)
    , m_flags(flags)
    , m_connect(std::move(connect))
    , m_list(std::move(list))
{
    if (!m_list)
        m_flags &= ~Capabilities(Capability::Reattach);
}

Capabilities WebSocketTerminals::terminalFlags() const
{
    return m_flags;
}

std::unique_ptr<PtyChannel> WebSocketTerminals::openPty(const QString &sessionId, const PtyOptions &options)
{
    Connection c = m_connect(sessionId, options);
    auto channel = std::make_unique<WebSocketPtyChannel>(std::move(c.opener), std::move(c.hooks));
    if (!c.typeFirst.isEmpty())
        channel->write(c.typeFirst);
    return channel;
}

void WebSocketTerminals::listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done)
{
    if (m_list)
        return m_list(sessionId, std::move(done));
    done.post(m_owner ? unsupportedError(m_owner->descriptor(), Capability::Reattach)
                      : makeError(ErrorCode::Unsupported, tr("The account was closed")));
}

} // namespace sandbar::cloud
