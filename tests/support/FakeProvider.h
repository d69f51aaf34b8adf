#pragma once

#include "accounts/SecretStore.h"
#include "providers/Jobs.h"
#include "providers/ProviderFactory.h"

#include <QMap>

namespace sandbar::test {

// Secrets in memory, for tests of code above the keychain.
class MemorySecretStore final : public SecretStore
{
public:
    void write(const QString &key, const QString &value, Callback<void> done) override
    {
        if (failWrites)
            return done(makeError(ErrorCode::Unavailable, QStringLiteral("no keychain (test)")));
        values.insert(key, value);
        done(VoidResult{});
    }
    void read(const QString &key, Callback<QString> done) override
    {
        if (!values.contains(key))
            return done(makeError(ErrorCode::NotFound, QStringLiteral("missing")));
        done(values.value(key));
    }
    void remove(const QString &key, Callback<void> done) override
    {
        values.remove(key);
        done(VoidResult{});
    }
    QMap<QString, QString> values;
    bool failWrites = false;
};

// A provider description with one field of each kind; create() is never called.
class DescriptorOnlyFactory final : public ProviderFactory
{
public:
    DescriptorOnlyFactory();
    const ProviderDescriptor &descriptor() const override { return m_desc; }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &) const override;

private:
    ProviderDescriptor m_desc;
};

// A log stream the test drives: it emits data() and finished() itself (both are public
// signals); start() and stop() are only counted.
class FakeLogStream final : public LogStream
{
public:
    using LogStream::LogStream;
    void start() override { ++starts; }
    void stop() override { ++stops; }
    int starts = 0;
    int stops = 0;
};

} // namespace sandbar::test
