#pragma once

#include "common/Callback.h"

#include <QString>

namespace sandbar {

// Where account secrets live. The real one is the OS keychain; there is no plain-text
// fallback: without a keychain a secret is refused with a message that says why.
class SecretStore
{
public:
    virtual ~SecretStore() = default;
    virtual void write(const QString &key, const QString &value, Callback<void> done) = 0;
    // NotFound when no secret is stored under key.
    virtual void read(const QString &key, Callback<QString> done) = 0;
    virtual void remove(const QString &key, Callback<void> done) = 0;
};

// QtKeychain: Secret Service (gnome-keyring, KWallet) on Linux, Keychain on macOS,
// Credential Manager on Windows.
class KeychainSecretStore final : public SecretStore
{
public:
    explicit KeychainSecretStore(QString service);
    void write(const QString &key, const QString &value, Callback<void> done) override;
    void read(const QString &key, Callback<QString> done) override;
    void remove(const QString &key, Callback<void> done) override;

private:
    QString m_service;
};

} // namespace sandbar
