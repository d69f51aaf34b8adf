#include "net/Endpoint.h"

#include "net/NetTr.h"

#include <QCoreApplication>
#include <QUrl>

namespace sandbar::net {

namespace {

Error bad(const QString &url, const QString &why)
{
    return makeError(ErrorCode::InvalidArgument, tr("Invalid engine address \"%1\": %2").arg(url, why));
}

} // namespace

QString Endpoint::tr(const char *text)
{
    return QCoreApplication::translate("sandbar::net::Endpoint", text);
}

Result<Endpoint> Endpoint::parse(const QString &input)
{
    const QString url = input.trimmed();
    if (url.isEmpty())
        return bad(url, tr("the address is empty"));

    const qsizetype sep = url.indexOf(QLatin1String("://"));
    if (sep <= 0)
        return bad(url, tr("expected a scheme such as unix://, npipe://, tcp:// or https://"));
    const QString scheme = url.left(sep).toLower();
    const QString rest = url.mid(sep + 3);

    Endpoint ep;
    if (scheme == QLatin1String("unix")) {
        if (rest.isEmpty())
            return bad(url, tr("the socket path is missing"));
        ep.kind = Kind::Unix;
        ep.path = rest;
        return ep;
    }
    if (scheme == QLatin1String("npipe")) {
        // npipe:////./pipe/docker_engine: the part after "//./pipe/" is the pipe name.
        QString p = rest;
        p.replace(QLatin1Char('\\'), QLatin1Char('/'));
        const QString local = QStringLiteral("//./pipe/");
        if (!p.startsWith(local, Qt::CaseInsensitive) || p.size() == local.size())
            return bad(url, tr("only local pipes of the form npipe:////./pipe/<name> are supported"));
        ep.kind = Kind::NamedPipe;
        ep.path = p.mid(local.size());
        return ep;
    }
    if (scheme == QLatin1String("ssh"))
        return makeError(ErrorCode::Unsupported,
                         tr("Engine address \"%1\" is reached through SSH, not as a socket: give it as a "
                            "Docker or Podman account's endpoint")
                             .arg(url));
    if (scheme != QLatin1String("tcp") && scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        return bad(url, tr("unsupported scheme \"%1\"").arg(scheme));

    const QUrl parsed(QStringLiteral("http://") + rest, QUrl::StrictMode);
    if (!parsed.isValid() || parsed.host().isEmpty())
        return bad(url, tr("expected host:port"));
    if (!parsed.path().isEmpty() && parsed.path() != QLatin1String("/"))
        return bad(url, tr("a path after host:port is not supported"));
    if (!parsed.userInfo().isEmpty() || parsed.hasQuery() || parsed.hasFragment())
        return bad(url, tr("user names, queries and fragments are not supported"));
    ep.kind = Kind::Tcp;
    ep.host = parsed.host();
    ep.tls = scheme == QLatin1String("https");
    const int defaultPort = scheme == QLatin1String("tcp") ? 2375 : (ep.tls ? 443 : 80);
    const int port = parsed.port(defaultPort);
    if (port <= 0 || port > 65535)
        return bad(url, tr("invalid port"));
    ep.port = quint16(port);
    return ep;
}

QString Endpoint::toUrl() const
{
    switch (kind) {
    case Kind::Unix: return QStringLiteral("unix://") + path;
    case Kind::NamedPipe: return QStringLiteral("npipe:////./pipe/") + path;
    case Kind::Tcp: break;
    }
    const QString h = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return (tls ? QStringLiteral("https://") : QStringLiteral("tcp://")) + h + QLatin1Char(':') + QString::number(port);
}

} // namespace sandbar::net
