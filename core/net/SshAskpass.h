#pragma once

#include "common/Result.h"

#include <QHash>
#include <QLocalServer>
#include <QPointer>
#include <QProcessEnvironment>
#include <optional>

class QLocalSocket;

namespace sandbar::net {

// Passphrases and security keys' PINs that ssh asks for, answered by the person in the window:
// ssh runs the helper program (SSH_ASKPASS, forced), which hands the prompt to this server over
// a private socket and prints the answer for ssh. Nothing is kept: an answer goes to the helper
// and is dropped. Without a server installed (sandbarctl), ssh runs with BatchMode=yes.
class AskpassServer : public QObject
{
    Q_OBJECT
public:
    // helperProgram: sandbar-askpass.
    explicit AskpassServer(QString helperProgram, QObject *parent = nullptr);
    ~AskpassServer() override;

    // Listens on a socket in folder (one only the user can read) and makes every ssh Sandbar
    // runs from now on ask through it; the destructor undoes that.
    VoidResult install(const QString &folder);
    // The person's answer to asked(id, ...); nullopt: cancelled (ssh then gives up the key).
    void answer(quint64 id, const std::optional<QString> &reply);

Q_SIGNALS:
    void asked(quint64 id, const QString &prompt);

private:
    QString m_helper;
    QLocalServer m_server;
    QHash<quint64, QPointer<QLocalSocket>> m_pending;
    quint64 m_next = 1;
};

// The environment ssh runs in while a server is installed (SSH_ASKPASS and its socket), for
// SshLink and the stdio bridge; nullopt when none is: ssh is then to run with BatchMode=yes.
// Safe from any thread.
std::optional<QProcessEnvironment> askpassEnvironment();

} // namespace sandbar::net
