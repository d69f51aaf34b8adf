#include "wiring/AppServices.h"

#include <QDir>
#include <QStandardPaths>

namespace sandbar {

QString resolveConfigDir(const QString &fromCommandLine)
{
    if (!fromCommandLine.isEmpty())
        return QDir(fromCommandLine).absolutePath();
    const QString env = qEnvironmentVariable("SANDBAR_CONFIG_DIR");
    if (!env.isEmpty())
        return QDir(env).absolutePath();
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    return QDir(base).filePath(QStringLiteral("sandbar"));
}

std::unique_ptr<AppServices> buildServices(const QString &configDir, std::unique_ptr<SecretStore> secrets)
{
    auto s = std::make_unique<AppServices>();
    s->configDir = configDir;
    registerProviders(s->factories);
    s->secrets = secrets ? std::move(secrets) : std::make_unique<KeychainSecretStore>(QStringLiteral("Sandbar"));
    s->accounts = std::make_unique<AccountStore>(configDir, s->factories, *s->secrets);
    s->registry = std::make_unique<SessionRegistry>(*s->accounts, s->factories);
    return s;
}

} // namespace sandbar
