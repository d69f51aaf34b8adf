#include "cloud/CloudAccount.h"

#include "cloud/CloudTr.h"
#include "cloud/ServiceUrl.h"

#include <QCoreApplication>

namespace sandbar::cloud {

CloudAccountFields cloudAccountFields(const CloudAccountSpec &spec)
{
    CloudAccountFields f;
    f.apiKey = makeField(QStringLiteral("api-key"), tr("API key"), spec.keyHelp, FieldType::Secret);
    f.apiKey.secret = true;
    f.apiKey.required = true;
    f.endpoint =
        makeField(QStringLiteral("endpoint"), tr("API URL"), spec.endpointHelp, FieldType::Url, spec.defaultEndpoint);
    f.caFile = makeField(QStringLiteral("ca-file"), tr("CA file"),
                         spec.caFileHelp.isEmpty()
                             ? tr("PEM certificates of a self-hosted service's own certificate authority")
                             : spec.caFileHelp,
                         FieldType::Path);
    return f;
}

Result<CloudAccount> readCloudAccount(const AccountConfig &account, const CloudAccountSpec &spec)
{
    CloudAccount out;
    out.apiKey = account.secrets.value(QStringLiteral("api-key")).trimmed();
    if (out.apiKey.isEmpty())
        return makeError(ErrorCode::Unauthorized,
                         tr("The %1 account %2 has no API key in the keychain; edit the account to add one, or add "
                            "it again with --api-key-env")
                             .arg(spec.service, account.name));
    QString endpoint = account.settings.value(QStringLiteral("endpoint")).toString().trimmed();
    if (endpoint.isEmpty())
        endpoint = spec.defaultEndpoint;
    auto url = parseServiceUrl(endpoint, tr("The %1 API URL").arg(spec.service));
    if (!url)
        return url.error();
    out.endpoint = url.value();
    const QString caFile = account.settings.value(QStringLiteral("ca-file")).toString().trimmed();
    if (!caFile.isEmpty()) {
        auto cas = loadCaFile(caFile);
        if (!cas)
            return cas.error();
        out.caCertificates = cas.value();
    }
    return out;
}

} // namespace sandbar::cloud
