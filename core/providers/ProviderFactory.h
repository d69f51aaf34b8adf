#pragma once

#include "common/Result.h"
#include "providers/Descriptors.h"

#include <QMap>
#include <QObject>
#include <QString>
#include <QVariantMap>
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

class ProviderFactory
{
public:
    virtual ~ProviderFactory() = default;
    virtual const ProviderDescriptor &descriptor() const = 0;
    virtual Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const = 0;
    // Settings for an account made on first start when this provider is reachable here
    // with no configuration (a local engine socket answering, bwrap present). Fast; no
    // network beyond local sockets.
    virtual std::optional<QVariantMap> detectDefault() const { return std::nullopt; }
};

// The providers this build knows, keyed by id. Built once in the composition root.
class ProviderFactories
{
public:
    void add(std::unique_ptr<ProviderFactory> factory);
    const ProviderFactory *find(const QString &id) const;
    QStringList ids() const;
    const std::vector<std::unique_ptr<ProviderFactory>> &all() const { return m_factories; }

private:
    std::vector<std::unique_ptr<ProviderFactory>> m_factories;
};

} // namespace sandbar
