#include "providers/sprites/SpritesFactory.h"

#include "cloud/CloudFactory.h"
#include "providers/sprites/SpritesProvider.h"
#include "providers/sprites/SpritesTr.h"

namespace sandbar::sprites {

namespace {
// The account fields every cloud provider shares, in Sprites' words. The type is named
// unqualified, so that lupdate files these texts under this namespace, whose tr() they use.
using cloud::CloudAccountSpec;
CloudAccountSpec accountSpec()
{
    CloudAccountSpec s;
    s.service = QStringLiteral("Fly.io Sprites");
    s.defaultEndpoint = QStringLiteral("https://api.sprites.dev");
    s.keyHelp = tr("A Sprites token (sprites.dev, Account, Tokens); kept in the system keychain");
    s.endpointHelp = tr("The Sprites API");
    return s;
}

Result<std::unique_ptr<Provider>> makeSpritesProvider(const ProviderDescriptor &descriptor,
                                                      const AccountConfig &account, const cloud::CloudAccount &common)
{
    SpritesProvider::Settings s;
    s.endpoint = common.endpoint;
    s.token = common.apiKey;
    s.caCertificates = common.caCertificates;
    s.organisation = account.settings.value(QStringLiteral("organisation")).toString().trimmed();
    return std::unique_ptr<Provider>(std::make_unique<SpritesProvider>(descriptor, account.name, std::move(s)));
}
} // namespace

ProviderDescriptor makeSpritesDescriptor()
{
    ProviderDescriptor d;
    d.id = QStringLiteral("sprites");
    d.displayName = tr("Fly.io Sprites");
    d.description = tr("Persistent Fly.io VMs that sleep when nothing runs in them: compute is billed only while a "
                       "terminal or command is active, storage always.");
    d.selfHosted = false;
    d.look.badgeRgb = 0x7b3fe4;
    d.look.catalogId = QStringLiteral("fly-sprites");
    d.look.docsUrl = QStringLiteral("https://docs.sprites.dev");
    const cloud::CloudAccountFields account = cloud::cloudAccountFields(accountSpec());
    d.accountFields = {
        account.apiKey,
        makeField(QStringLiteral("organisation"), tr("Organisation"),
                  tr("The Fly.io organisation the token belongs to (for your own reference; the token chooses it)"),
                  FieldType::String),
        account.endpoint,
        account.caFile,
    };
    d.createOptions = {
        makeField(QStringLiteral("cpus"), tr("vCPUs"), tr("Virtual CPUs while it runs; empty: Sprites' default"),
                  FieldType::Number, {}, 1, 8),
        makeField(QStringLiteral("memory"), tr("Memory"),
                  tr("Memory while it runs, also its limit; empty: Sprites' default"), FieldType::Bytes, {},
                  qint64(256) << 20, qint64(16) << 30),
        makeField(QStringLiteral("region"), tr("Region"), tr("A Fly.io region (ord, fra, …); empty: the nearest"),
                  FieldType::String),
        makeField(QStringLiteral("storage"), tr("Storage (GB)"),
                  tr("The sprite's disk, kept while it sleeps and billed as storage; empty: Sprites' default"),
                  FieldType::Number, {}, 1, 100),
        changeable(makeField(QStringLiteral("public-url"), tr("Public URL"),
                             tr("Anyone may open the sprite's URL (off: only with the organisation's token)"),
                             FieldType::Boolean, false)),
        makeField(QStringLiteral("env"), tr("Environment"), tr("KEY=VALUE, one a line"), FieldType::Env),
        labelsOption(),
        makeField(QStringLiteral("network"), tr("Internet access"),
                  tr("Let the sprite reach the internet (off: a network policy that denies every domain)"),
                  FieldType::Boolean, false),
        makeField(QStringLiteral("ttl"), tr("Time limit"),
                  tr("A sprite never ends by itself: after this long Sandbar, while it runs, ends what runs in it so "
                     "that it sleeps; its files stay. Empty: no limit"),
                  FieldType::Duration, qint64(0), qint64(0)),
    };
    d.capabilities = Capability::Pty | Capability::PtyResize | Capability::Reattach | Capability::Exec |
                     Capability::Files | Capability::FileList | Capability::SetTimeout | Capability::Kill |
                     Capability::Labels | Capability::Network | Capability::StatsCpu | Capability::StatsMemory |
                     Capability::StatsNetwork | Capability::StatsStream | Capability::Snapshots | Capability::Settings;
    return d;
}

std::unique_ptr<ProviderFactory> makeSpritesFactory()
{
    return std::make_unique<cloud::CloudFactory>(makeSpritesDescriptor(), accountSpec, makeSpritesProvider);
}

} // namespace sandbar::sprites
