#include "net/SshAskpass.h"

#include <QDir>
#include <QLocalSocket>
#include <QMutex>

namespace sandbar::net {

namespace {
constexpr qint64 kMaxPrompt = 4096;

struct Installed {
    QMutex lock;
    QString helper, socket;
};
Installed &installed()
{
    static Installed i;
    return i;
}
} // namespace

std::optional<QProcessEnvironment> askpassEnvironment()
{
    Installed &i = installed();
    QMutexLocker locked(&i.lock);
    if (i.socket.isEmpty())
        return std::nullopt;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("SSH_ASKPASS"), i.helper);
    env.insert(QStringLiteral("SSH_ASKPASS_REQUIRE"), QStringLiteral("force"));
    env.insert(QStringLiteral("SANDBAR_ASKPASS_SOCKET"), i.socket);
    return env;
}

AskpassServer::AskpassServer(QString helperProgram, QObject *parent)
    : QObject(parent)
    , m_helper(std::move(helperProgram))
{
    m_server.setSocketOptions(QLocalServer::UserAccessOption);
    connect(&m_server, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket *s = m_server.nextPendingConnection()) {
            s->setParent(this);
            const quint64 id = m_next++;
            // The prompt is whole at its NUL; one that never ends is cut at the limit.
            connect(s, &QLocalSocket::readyRead, this, [this, s, id] {
                if (m_pending.contains(id))
                    return;
                const QByteArray seen = s->peek(kMaxPrompt);
                const qsizetype end = seen.indexOf('\0');
                if (end < 0 && seen.size() < kMaxPrompt)
                    return;
                const QByteArray prompt = seen.left(end < 0 ? seen.size() : end);
                s->readAll();
                m_pending.insert(id, s);
                Q_EMIT asked(id, QString::fromUtf8(prompt).trimmed());
            });
            connect(s, &QLocalSocket::disconnected, s, &QObject::deleteLater);
        }
    });
}

AskpassServer::~AskpassServer()
{
    Installed &i = installed();
    QMutexLocker locked(&i.lock);
    if (i.socket == m_server.fullServerName())
        i.socket.clear();
}

VoidResult AskpassServer::install(const QString &folder)
{
    const QString path =
        QDir(folder).filePath(QStringLiteral("askpass-%1.sock").arg(QCoreApplication::applicationPid()));
    QLocalServer::removeServer(path);
    if (!m_server.listen(path))
        return makeError(ErrorCode::Unavailable, tr("Cannot listen on %1: %2").arg(path, m_server.errorString()));
    Installed &i = installed();
    QMutexLocker locked(&i.lock);
    i.helper = m_helper;
    i.socket = m_server.fullServerName();
    return {};
}

void AskpassServer::answer(quint64 id, const std::optional<QString> &reply)
{
    const QPointer<QLocalSocket> s = m_pending.take(id);
    if (!s)
        return;
    QByteArray bytes = reply ? '1' + reply->toUtf8() : QByteArray("0");
    s->write(bytes);
    s->disconnectFromServer();
    bytes.fill('\0');
}

} // namespace sandbar::net
