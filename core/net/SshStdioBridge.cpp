#include "net/SshStdioBridge.h"

#include "net/SshAskpass.h"

#include <QLocalSocket>
#include <QPointer>
#include <QProcess>

namespace sandbar::net {

namespace {
// Bytes taken from one side while the other has this much still to write: beyond it the
// reading stops and the socket's own buffer holds the sender back.
constexpr qint64 kHighWater = 4 * 1024 * 1024;
constexpr qint64 kReadBuffer = 1024 * 1024;

} // namespace

SshStdioBridge::SshStdioBridge(SshTarget target, SshOptions options, QString command, QObject *parent)
    : QObject(parent)
    , m_target(std::move(target))
    , m_options(std::move(options))
    , m_command(std::move(command))
{
    m_server.setSocketOptions(QLocalServer::UserAccessOption);
    connect(&m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *client = m_server.nextPendingConnection())
            bridge(client);
    });
}

SshStdioBridge::~SshStdioBridge()
{
    m_server.close();
}

VoidResult SshStdioBridge::listen(const QString &path)
{
    QLocalServer::removeServer(path);
    if (!m_server.listen(path))
        return makeError(ErrorCode::Unavailable, tr("Cannot listen on %1: %2").arg(path, m_server.errorString()));
    return {};
}

void SshStdioBridge::bridge(QLocalSocket *client)
{
    client->setParent(this);
    client->setReadBufferSize(kReadBuffer);
    auto *ssh = new QProcess(client);
    ssh->setProgram(QStringLiteral("ssh"));
    ssh->setArguments(sshCommandArguments(m_target, m_options, m_command));
    ssh->setStandardErrorFile(QProcess::nullDevice());
    if (const auto env = askpassEnvironment())
        ssh->setProcessEnvironment(*env);
    const auto toSsh = [client, ssh] {
        if (ssh->state() == QProcess::Running && ssh->bytesToWrite() < kHighWater && client->bytesAvailable() > 0)
            ssh->write(client->readAll());
    };
    const auto toClient = [client, ssh] {
        if (client->state() == QLocalSocket::ConnectedState && client->bytesToWrite() < kHighWater)
            client->write(ssh->readAllStandardOutput());
    };
    connect(client, &QLocalSocket::readyRead, ssh, toSsh);
    connect(ssh, &QProcess::started, ssh, toSsh);
    connect(ssh, &QProcess::bytesWritten, ssh, toSsh);
    connect(ssh, &QProcess::readyReadStandardOutput, client, toClient);
    connect(client, &QLocalSocket::bytesWritten, client, toClient);
    // The client's end of input (a half-close) is the command's.
    connect(client, &QLocalSocket::readChannelFinished, ssh, [client, ssh] {
        if (client->bytesAvailable() > 0 && ssh->state() == QProcess::Running)
            ssh->write(client->readAll());
        ssh->closeWriteChannel();
    });
    connect(client, &QLocalSocket::disconnected, client, [client, ssh] {
        ssh->closeWriteChannel();
        ssh->terminate();
        client->deleteLater();
    });
    connect(ssh, &QProcess::finished, client, [client, ssh] {
        if (client->state() == QLocalSocket::ConnectedState) {
            client->write(ssh->readAllStandardOutput());
            client->disconnectFromServer();
        }
    });
    connect(ssh, &QProcess::errorOccurred, client, [client](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            client->abort();
    });
    ssh->start();
}

} // namespace sandbar::net
