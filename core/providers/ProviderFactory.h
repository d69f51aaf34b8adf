#pragma once

#include "common/Result.h"
#include "providers/Descriptors.h"

#include <QMap>
#include <QObject>
#include <QString>
#include <QVariantMap>
#include <functional>
#include <memory>
#include <vector>

namespace sandbar {

class Provider;

// Everything needed to talk to one account: its non-secret settings (from QSettings)
// and its secrets (from the keychain, held in memory only).
struct AccountConfig {
    QString name;
    QString provider;
    QVariantMap settings;
    QMap<QString, QString> secrets;
    QString dataDir; // where the provider may keep per-account state (under --config-dir)
};

// An account this computer already has the makings of (an engine answering on its socket),
// offered with one click on first start and in the account dialog.
struct AccountChoice {
    QString provider;     // the factory's descriptor id
    QVariantMap settings; // the account's fields, keyed as the descriptor names them
    QString label;        // for people: "Podman — /run/user/1000/podman/podman.sock"
};

// The key an SSH host offers, as the person is shown it before trusting it.
struct HostKeyOffer {
    QString host;
    QString fingerprint;    // SHA256:…
    QString knownHostsFile; // where trusting it writes it
};

class ProviderFactory
{
public:
    virtual ~ProviderFactory() = default;
    virtual const ProviderDescriptor &descriptor() const = 0;
    virtual Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const = 0;
    // Blocking work create() needs first (probing local engine sockets), as a self-contained
    // task: the registry runs it on a worker thread and passes its result to create() on the
    // caller's thread, so the task copies what it needs instead of using the factory.
    // Empty (the default): create() does nothing that blocks.
    virtual std::function<AccountConfig(AccountConfig)> preparation(const AccountConfig &account) const
    {
        Q_UNUSED(account);
        return {};
    }
    // The machine an account's engine runs on, when that is another one (an ssh:// or tcp://
    // address): the account list names it beside the account. Empty: this machine or a service.
    virtual QString accountHost(const QVariantMap &settings) const
    {
        Q_UNUSED(settings);
        return {};
    }
    // For an account that reaches its host over SSH, a blocking task (for a worker thread, like
    // preparation): it learns the key the host offers and, with trust, trusts it where ssh
    // looks (only the key whose fingerprint is pin, when one is given). Empty: no such host.
    using HostKeyTask = std::function<Result<HostKeyOffer>(const QString &pin, bool trust)>;
    virtual HostKeyTask hostKeyTask(const AccountConfig &account) const
    {
        Q_UNUSED(account);
        return {};
    }
    // Blocking work when an account is removed or the window quits (ending an SSH master
    // connection), for a worker thread. Empty: nothing to end.
    virtual std::function<void()> disconnection(const AccountConfig &account) const
    {
        Q_UNUSED(account);
        return {};
    }
    // Settings for an account made on first start when this provider is reachable here
    // with no configuration (a local engine socket answering, bwrap present). No network
    // beyond local sockets; may block for a few seconds, so the window calls it on a worker
    // thread (AccountStore::createDefaultAccounts): it must not touch mutable state.
    virtual std::optional<QVariantMap> detectDefault() const { return std::nullopt; }
    // Every account of this provider found on this computer (engines by their sockets,
    // contexts and environment), each one answering. Blocks like detectDefault (a worker
    // thread calls it) and must not touch mutable state. None by default.
    virtual QList<AccountChoice> discoverAccounts() const { return {}; }
};

// The providers this build knows, keyed by id. Built once in the composition root.
class ProviderFactories
{
public:
    void add(std::unique_ptr<ProviderFactory> factory);
    const ProviderFactory *find(const QString &id) const;
    QStringList ids() const;
    const std::vector<std::unique_ptr<ProviderFactory>> &all() const { return m_factories; }
    // Every factory's discoverAccounts, in the factories' order, each account once. Blocking:
    // for a worker thread.
    QList<AccountChoice> discoverAccounts() const;

private:
    std::vector<std::unique_ptr<ProviderFactory>> m_factories;
};

} // namespace sandbar
