#pragma once

#include "FakeProvider.h"
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "sessions/SessionRegistry.h"

#include <QTemporaryDir>
#include <memory>

namespace sandbar::test {

// An account store and a session registry over in-memory providers, in a temporary
// config folder. Header-only: only tests that link sandbar-sessions include it.
struct RegistryFixture {
    QTemporaryDir dir;
    ProviderFactories factories;
    MemoryProviderFactory *memory = nullptr;
    MemorySecretStore secrets;
    std::unique_ptr<AccountStore> accounts;
    std::unique_ptr<SessionRegistry> registry;

    RegistryFixture()
    {
        auto f = std::make_unique<MemoryProviderFactory>();
        memory = f.get();
        factories.add(std::move(f));
        accounts = std::make_unique<AccountStore>(dir.path(), factories, secrets);
        registry = std::make_unique<SessionRegistry>(*accounts, factories);
    }

    VoidResult addAccount(const QString &name)
    {
        Account a;
        a.name = name;
        a.provider = QStringLiteral("memory");
        return await<void>([&](Callback<void> cb) { accounts->add(a, {}, cb); });
    }

    MemoryProvider *provider(const QString &account)
    {
        (void)await<Provider *>([&](Callback<Provider *> cb) { registry->provider(account, cb); });
        return memory->made.value(account);
    }
};

} // namespace sandbar::test
