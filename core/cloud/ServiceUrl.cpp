#include "cloud/ServiceUrl.h"

#include "cloud/CloudTr.h"

#include <QCoreApplication>
#include <QFile>
#include <QHostAddress>

namespace sandbar::cloud {

bool isLoopbackHost(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    QHostAddress address;
    return address.setAddress(host) && address.isLoopback();
}

Result<QUrl> parseServiceUrl(const QString &text, const QString &what)
{
    const QString trimmed = text.trimmed();
    QUrl url(trimmed, QUrl::StrictMode);
    if (trimmed.isEmpty() || !url.isValid() || url.host().isEmpty())
        return makeError(ErrorCode::InvalidArgument,
                         tr("%1 \"%2\" is not a URL such as https://api.example.com").arg(what, trimmed));
    const QString scheme = url.scheme().toLower();
    if (scheme != QLatin1String("https") && scheme != QLatin1String("http"))
        return makeError(ErrorCode::InvalidArgument,
                         tr("%1 must start with https:// (it starts with %2://)").arg(what, url.scheme()));
    if (scheme == QLatin1String("http") && !isLoopbackHost(url.host()))
        return makeError(ErrorCode::InvalidArgument,
                         tr("%1 uses plain http:// to %2: keys and files would cross the network unencrypted. "
                            "Use https://; plain http is accepted for 127.0.0.1 and localhost only.")
                             .arg(what, url.host()));
    if (!url.userInfo().isEmpty())
        return makeError(ErrorCode::InvalidArgument,
                         tr("%1 must not carry a user name or password; the key is stored in the keychain").arg(what));
    if (url.hasQuery() || url.hasFragment())
        return makeError(ErrorCode::InvalidArgument, tr("%1 must not have a query or fragment").arg(what));
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path);
    url.setScheme(scheme);
    return url;
}

QUrl joinUrl(const QUrl &base, const QString &path)
{
    QUrl url = base;
    url.setPath(base.path() + path);
    return url;
}

Result<QList<QSslCertificate>> loadCaFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::InvalidArgument,
                         tr("The CA file %1 cannot be read: %2").arg(path, f.errorString()));
    if (f.size() > 4 * 1024 * 1024)
        return makeError(ErrorCode::InvalidArgument, tr("The CA file %1 is too large to be certificates").arg(path));
    const QList<QSslCertificate> certs = QSslCertificate::fromData(f.readAll(), QSsl::Pem);
    if (certs.isEmpty())
        return makeError(ErrorCode::InvalidArgument, tr("The CA file %1 holds no PEM certificate").arg(path));
    return certs;
}

} // namespace sandbar::cloud
