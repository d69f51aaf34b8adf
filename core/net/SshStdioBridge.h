#pragma once

#include "common/Result.h"
#include "net/SshTarget.h"

#include <QLocalServer>
#include <QString>

namespace sandbar::net {

// A private local socket whose every connection is one run of a command on the host over
// SSH, its standard input and output carrying the connection's bytes both ways: the engine's
// own `docker system dial-stdio` (or Podman's), for hosts that refuse stream forwarding or
// whose engine socket is not known. Each run is a channel of the host's master connection
// (ControlMaster=auto), so it costs no login, and a master that is gone is made again by the
// next run. A half-close from the client (an attach's end of input) closes the command's
// input; the command's end of output closes the client.
class SshStdioBridge : public QObject
{
    Q_OBJECT
public:
    SshStdioBridge(SshTarget target, SshOptions options, QString command, QObject *parent = nullptr);
    ~SshStdioBridge() override;

    // Listens on path (in a folder only the user can read), replacing a socket left there.
    VoidResult listen(const QString &path);
    QString path() const { return m_server.fullServerName(); }

private:
    void bridge(class QLocalSocket *client);

    SshTarget m_target;
    SshOptions m_options;
    QString m_command;
    QLocalServer m_server;
};

} // namespace sandbar::net
