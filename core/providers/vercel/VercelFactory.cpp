#include "providers/vercel/VercelFactory.h"

#include "cloud/CloudFactory.h"
#include "providers/vercel/VercelProvider.h"
#include "providers/vercel/VercelTr.h"

namespace sandbar::vercel {

namespace {
// The account fields every cloud provider shares, in Vercel's words. The type is named
// unqualified, so that lupdate files these texts under this namespace, whose tr() they use.
using cloud::CloudAccountSpec;
CloudAccountSpec accountSpec()
{
    CloudAccountSpec s;
    s.service = QStringLiteral("Vercel Sandbox");
    s.defaultEndpoint = QStringLiteral("https://vercel.com/api");
    s.keyHelp = tr("A Vercel access token (Account Settings, Tokens); kept in the system keychain");
    s.endpointHelp = tr("Vercel's API");
    return s;
}

Result<std::unique_ptr<Provider>> makeVercelProvider(const ProviderDescriptor &descriptor, const AccountConfig &account,
                                                     const cloud::CloudAccount &common)
{
    // A deployment's OIDC token lasts minutes and is refreshed by Vercel's runtime, not here.
    if (isJwt(common.apiKey))
        return makeError(ErrorCode::Unauthorized,
                         tr("Account '%1' holds a short-lived OIDC token; create an access token in Vercel's Account "
                            "Settings, Tokens, and give that instead")
                             .arg(account.name));
    VercelProvider::Settings s;
    s.endpoint = common.endpoint;
    s.token = common.apiKey;
    s.caCertificates = common.caCertificates;
    s.team = account.settings.value(QStringLiteral("team")).toString().trimmed();
    s.project = account.settings.value(QStringLiteral("project")).toString().trimmed();
    if (s.team.isEmpty() || s.project.isEmpty())
        return makeError(ErrorCode::InvalidArgument,
                         tr("Account '%1' needs its Vercel team ID and project ID").arg(account.name));
    const qint64 cap = account.settings.value(QStringLiteral("max-ttl")).toLongLong();
    if (cap > 0)
        s.maxTimeoutSeconds = cap;
    return std::unique_ptr<Provider>(std::make_unique<VercelProvider>(descriptor, account.name, std::move(s)));
}
} // namespace

ProviderDescriptor makeVercelDescriptor()
{
    ProviderDescriptor d;
    d.id = QStringLiteral("vercel");
    d.displayName = tr("Vercel Sandbox");
    d.description = tr("Firecracker microVM sandboxes on Vercel, billed for active CPU and provisioned memory.");
    d.selfHosted = false;
    d.look.badgeRgb = 0x111111;
    d.look.catalogId = QStringLiteral("vercel-sandbox");
    d.look.docsUrl = QStringLiteral("https://vercel.com/docs/vercel-sandbox");
    const cloud::CloudAccountFields account = cloud::cloudAccountFields(accountSpec());
    auto team = makeField(QStringLiteral("team"), tr("Team ID"), tr("The Vercel team the sandboxes belong to (team_…)"),
                          FieldType::String);
    team.required = true;
    auto project = makeField(QStringLiteral("project"), tr("Project ID"),
                             tr("The Vercel project the sandboxes belong to (prj_…)"), FieldType::String);
    project.required = true;
    d.accountFields = {
        account.apiKey,
        team,
        project,
        account.endpoint,
        account.caFile,
        makeField(QStringLiteral("max-ttl"), tr("Plan's longest session"),
                  tr("What the team's plan allows: 45 minutes on Hobby, 5 hours on Pro and Enterprise; longer time "
                     "limits are shortened"),
                  FieldType::Duration, qint64(5 * 3600), qint64(60), qint64(24 * 3600)),
    };
    d.createOptions = {
        makeField(QStringLiteral("image"), tr("Image"),
                  tr("The image the sandbox starts from; empty: Vercel's default (Amazon Linux with Node and Python)"),
                  FieldType::String),
        makeField(QStringLiteral("runtime"), tr("Runtime"), tr("Instead of an image: node22, node24 or python3.13"),
                  FieldType::String),
        makeField(QStringLiteral("cpus"), tr("vCPUs"), tr("Virtual CPUs, each with 2 GB of memory"), FieldType::Number,
                  {}, 1, 8),
        makeField(QStringLiteral("source"), tr("Source"),
                  tr("What the sandbox starts with: a git URL, a .tar.gz URL or a snapshot ID (snap_…)"),
                  FieldType::String),
        makeField(QStringLiteral("persistent"), tr("Persistent"),
                  tr("Keep the files when the sandbox stops (a snapshot, billed as storage); Resume brings them back"),
                  FieldType::Boolean, true),
        makeField(QStringLiteral("env"), tr("Environment"), tr("KEY=VALUE, one a line"), FieldType::Env),
        labelsOption(2),
        makeField(QStringLiteral("network"), tr("Internet access"),
                  tr("Let the sandbox reach the internet (off: Vercel's deny-all network policy)"), FieldType::Boolean,
                  false),
        makeField(QStringLiteral("ttl"), tr("Time limit"),
                  tr("Vercel ends the sandbox after this long (capped by the plan). 0: Vercel's five minutes, "
                     "lengthened while a terminal is attached, as Vercel's CLI does"),
                  FieldType::Duration, qint64(0), qint64(0)),
    };
    d.capabilities = Capability::Pty | Capability::PtyResize | Capability::Exec | Capability::Files |
                     Capability::FileList | Capability::StatsCpu | Capability::StatsMemory | Capability::StatsDisk |
                     Capability::StatsNetwork | Capability::StatsStream | Capability::PauseResume |
                     Capability::SetTimeout | Capability::Snapshots | Capability::Fork | Capability::Background |
                     Capability::Network;
    return d;
}

std::unique_ptr<ProviderFactory> makeVercelFactory()
{
    return std::make_unique<cloud::CloudFactory>(makeVercelDescriptor(), accountSpec, makeVercelProvider);
}

} // namespace sandbar::vercel
