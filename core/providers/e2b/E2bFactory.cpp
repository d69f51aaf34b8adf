#include "providers/e2b/E2bFactory.h"

#include "cloud/CloudFactory.h"
#include "cloud/ServiceUrl.h"
#include "providers/e2b/E2bProvider.h"
#include "providers/e2b/E2bTr.h"

#include <QCoreApplication>

namespace sandbar::e2b {

namespace {
// The account fields every cloud provider shares, in E2B's words. The type is named
// unqualified, so that lupdate files these texts under this namespace, whose tr() they use.
using cloud::CloudAccountSpec;
CloudAccountSpec accountSpec()
{
    CloudAccountSpec s;
    s.service = QStringLiteral("E2B");
    s.defaultEndpoint = QStringLiteral("https://api.e2b.app");
    s.keyHelp = tr("The team's API key (e2b_…), kept in the keychain");
    s.endpointHelp = tr("E2B's control plane; change it for a self-hosted E2B");
    return s;
}

// E2B's own account fields on top of the kit's: the sandbox URL, the plan's cap and the user.
Result<std::unique_ptr<Provider>> makeE2bProvider(const ProviderDescriptor &descriptor, const AccountConfig &account,
                                                  const cloud::CloudAccount &common)
{
    E2bSettings settings;
    settings.apiUrl = common.endpoint;
    const QString sandboxUrl = account.settings.value(QStringLiteral("sandbox-endpoint")).toString();
    if (!sandboxUrl.isEmpty()) {
        auto u = cloud::parseServiceUrl(sandboxUrl, tr("The E2B sandbox URL"));
        if (!u.ok())
            return u.error();
        settings.sandboxUrl = u.value();
    }
    const QString user = account.settings.value(QStringLiteral("user")).toString();
    if (!user.isEmpty())
        settings.user = user;
    const qint64 cap = account.settings.value(QStringLiteral("max-ttl")).toLongLong();
    if (cap > 0)
        settings.maxTimeoutSeconds = cap;
    cloud::CloudClient::Options client;
    client.service = QStringLiteral("E2B");
    client.baseUrl = settings.apiUrl;
    client.authHeaders = {{QByteArray("X-API-Key"), common.apiKey.toUtf8()}};
    client.extraCaCertificates = common.caCertificates;
    return std::unique_ptr<Provider>(
        std::make_unique<E2bProvider>(descriptor, account.name, std::move(settings), std::move(client)));
}
} // namespace

ProviderDescriptor makeE2bDescriptor()
{
    ProviderDescriptor d;
    d.id = QStringLiteral("e2b");
    d.displayName = tr("E2B");
    d.description = tr("Firecracker microVM sandboxes on E2B's cloud or a self-hosted E2B.");
    d.selfHosted = false;
    d.look.badgeRgb = 0xff8800;
    d.look.docsUrl = QStringLiteral("https://e2b.dev/docs");
    const cloud::CloudAccountFields account = cloud::cloudAccountFields(accountSpec());
    d.accountFields = {
        account.apiKey,
        account.endpoint,
        makeField(
            QStringLiteral("sandbox-endpoint"), tr("Sandbox URL"),
            tr("One URL for every sandbox's daemon (a self-hosted sandbox proxy); empty: E2B's per-sandbox hosts"),
            FieldType::Url),
        account.caFile,
        makeField(QStringLiteral("max-ttl"), tr("Plan's longest session"),
                  tr("What the team's plan allows: 1 hour on Hobby, 24 hours on Pro; longer time limits are shortened"),
                  FieldType::Duration, qint64(3600), qint64(60), qint64(30 * 86400)),
        makeField(QStringLiteral("user"), tr("User"), tr("The sandbox user that terminals and files run as"),
                  FieldType::String, QStringLiteral("user")),
    };
    auto tmpl =
        makeField(QStringLiteral("image"), tr("Template"), tr("The E2B template (ID or alias) the sandbox starts from"),
                  FieldType::String, QStringLiteral("base"));
    d.createOptions = {
        tmpl,
        makeField(QStringLiteral("ttl"), tr("Time limit"),
                  tr("E2B ends the sandbox after this long (capped by the plan); it cannot run without a limit"),
                  FieldType::Duration, qint64(3600), qint64(60)),
        makeField(
            QStringLiteral("autoPause"), tr("Pause at the time limit"),
            tr("Pause instead of ending when the time limit is reached (a paused sandbox is not billed for compute)"),
            FieldType::Boolean, false),
        makeField(QStringLiteral("env"), tr("Environment"), tr("KEY=VALUE, one a line"), FieldType::Env),
        labelsOption(),
        makeField(QStringLiteral("network"), tr("Internet access"),
                  tr("Let the sandbox reach the internet (off: no outbound traffic)"), FieldType::Boolean, false),
    };
    d.capabilities = Capability::Pty | Capability::PtyResize | Capability::Exec | Capability::Files |
                     Capability::FileList | Capability::StatsCpu | Capability::StatsMemory | Capability::StatsDisk |
                     Capability::PauseResume | Capability::SetTimeout | Capability::Reattach | Capability::Kill |
                     Capability::Network | Capability::Logs | Capability::StatsNetwork | Capability::StatsStream;
    return d;
}

std::unique_ptr<ProviderFactory> makeE2bFactory()
{
    return std::make_unique<cloud::CloudFactory>(makeE2bDescriptor(), accountSpec, makeE2bProvider);
}

} // namespace sandbar::e2b
