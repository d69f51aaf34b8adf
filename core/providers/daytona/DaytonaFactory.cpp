#include "providers/daytona/DaytonaFactory.h"

#include "cloud/CloudFactory.h"
#include "providers/daytona/DaytonaProvider.h"
#include "providers/daytona/DaytonaTr.h"

#include <QCoreApplication>

namespace sandbar::daytona {

namespace {
// The account fields every cloud provider shares, in Daytona's words. The type is named
// unqualified, so that lupdate files these texts under this namespace, whose tr() they use.
using cloud::CloudAccountSpec;
CloudAccountSpec accountSpec()
{
    CloudAccountSpec s;
    s.service = QStringLiteral("Daytona");
    s.defaultEndpoint = QStringLiteral("https://app.daytona.io/api");
    s.keyHelp = tr("A Daytona API key (dtn_...); kept in the system keychain");
    s.endpointHelp = tr("Daytona's API; change it for a self-hosted Daytona");
    s.caFileHelp = tr("PEM certificates of a self-hosted Daytona's own certificate authority");
    return s;
}
} // namespace

ProviderDescriptor makeDaytonaDescriptor()
{
    ProviderDescriptor d;
    d.id = QStringLiteral("daytona");
    d.displayName = tr("Daytona");
    d.description = tr("Cloud sandboxes on Daytona, billed by the service per second of use.");
    d.selfHosted = false;
    d.look.badgeRgb = 0x222222;
    d.look.docsUrl = QStringLiteral("https://www.daytona.io/docs/");
    const cloud::CloudAccountFields account = cloud::cloudAccountFields(accountSpec());
    d.accountFields = {
        account.apiKey,
        account.endpoint,
        makeField(QStringLiteral("organization"), tr("Organization"),
                  tr("Organization ID, when the key belongs to several"), FieldType::String),
        makeField(QStringLiteral("target"), tr("Region"),
                  tr("Where new sandboxes run (us, eu, ...); empty: the organization's default"), FieldType::String),
        account.caFile,
    };
    d.createOptions = {
        makeField(QStringLiteral("image"), tr("Image"),
                  tr("The snapshot (image) the sandbox starts from; empty: Daytona's default"), FieldType::String),
        makeField(QStringLiteral("snapshot"), tr("Snapshot"), tr("Alias of image: a Daytona snapshot name"),
                  FieldType::String),
        makeField(QStringLiteral("cpus"), tr("CPUs"), tr("Whole CPU cores (fractions are rounded up)"),
                  FieldType::Number, {}, 1, 64),
        makeField(QStringLiteral("memory"), tr("Memory"), tr("Memory, in whole GB (rounded up)"), FieldType::Bytes, {},
                  qint64(1) << 30),
        makeField(QStringLiteral("disk"), tr("Disk"), tr("Disk size, in whole GB (rounded up)"), FieldType::Bytes, {},
                  qint64(1) << 30),
        makeField(QStringLiteral("gpus"), tr("GPUs"), tr("How many GPUs (GPU sandboxes must be ephemeral on Daytona)"),
                  FieldType::Gpus, QStringLiteral("none")),
        makeField(QStringLiteral("env"), tr("Environment"), tr("KEY=VALUE, one a line"), FieldType::Env),
        labelsOption(),
        makeField(QStringLiteral("network"), tr("Network"),
                  tr("Let the sandbox reach the network (off: all traffic is blocked)"), FieldType::Boolean, false),
        makeField(QStringLiteral("autoStop"), tr("Stop when idle for"),
                  tr("Daytona stops the sandbox after this long without activity (a terminal, a command, a file "
                     "transfer); 0 = never. This is not a time limit"),
                  FieldType::Duration, qint64(15 * 60), 0),
        makeField(QStringLiteral("ttl"), tr("Time limit"),
                  tr("Sandbar stops the sandbox after this long, while Sandbar runs (Daytona has no wall-clock "
                     "limit of its own); 0 = none"),
                  FieldType::Duration, 0, 0),
    };
    d.capabilities = Capability::Pty | Capability::PtyResize | Capability::Exec | Capability::Files |
                     Capability::FileList | Capability::StatsCpu | Capability::StatsMemory | Capability::StatsDisk |
                     Capability::StatsNetwork | Capability::StatsStream | Capability::Reattach | Capability::Kill |
                     Capability::SetTimeout | Capability::Labels | Capability::Network | Capability::PauseResume |
                     Capability::Archive;
    return d;
}

std::unique_ptr<ProviderFactory> makeDaytonaFactory()
{
    return std::make_unique<cloud::CloudFactory>(
        makeDaytonaDescriptor(), accountSpec,
        [](const ProviderDescriptor &d, const AccountConfig &account,
           const cloud::CloudAccount &common) -> Result<std::unique_ptr<Provider>> {
            DaytonaProvider::Settings s;
            s.endpoint = common.endpoint;
            s.apiKey = common.apiKey;
            s.caCertificates = common.caCertificates;
            s.organization = account.settings.value(QStringLiteral("organization")).toString().trimmed();
            s.target = account.settings.value(QStringLiteral("target")).toString().trimmed();
            return std::unique_ptr<Provider>(std::make_unique<DaytonaProvider>(d, account.name, std::move(s)));
        });
}

} // namespace sandbar::daytona
