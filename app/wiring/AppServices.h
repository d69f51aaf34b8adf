#pragma once

#include "accounts/AccountStore.h"
#include "accounts/SecretStore.h"
#include "audit/AuditLog.h"
#include "providers/ProviderFactory.h"
#include "sessions/SessionRegistry.h"

#include <QString>
#include <memory>

namespace sandbar {

// The composition root: every long-lived service, built once and passed to whoever
// needs it. Nothing else in Sandbar constructs these.
struct AppServices {
    QString configDir;
    ProviderFactories factories;
    std::unique_ptr<SecretStore> secrets;
    std::unique_ptr<audit::AuditLog> audit; // declared before what writes to it
    std::unique_ptr<AccountStore> accounts;
    std::unique_ptr<SessionRegistry> registry;
};

// Where Sandbar keeps its files: DIR from --config-dir, else SANDBAR_CONFIG_DIR, else the
// platform's per-user config location.
QString resolveConfigDir(const QString &fromCommandLine);

// Registers every provider this build has. Shared by the GUI, sandbarctl and the bench.
void registerProviders(ProviderFactories &factories);

// secrets: null for the OS keychain; tests may pass their own.
std::unique_ptr<AppServices> buildServices(const QString &configDir, std::unique_ptr<SecretStore> secrets = {});

} // namespace sandbar
