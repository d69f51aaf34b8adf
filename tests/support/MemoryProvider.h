#pragma once

#include "providers/Provider.h"
#include "providers/ProviderFactory.h"

#include <QHash>
#include <QSet>
#include <functional>
#include <optional>

namespace sandbar::test {

// A provider whose sessions live in memory: for tests of the registry, the window and
// the CLI plumbing, where no engine is the point. Capabilities without a real transport
// (PTY, exec, files, stats) answer with Unsupported.
class MemoryProvider final : public Provider
{
    Q_OBJECT
public:
    MemoryProvider(const ProviderDescriptor &desc, QString account, QObject *parent = nullptr);

    const ProviderDescriptor &descriptor() const override { return m_desc; }
    QString accountName() const override { return m_account; }

    void health(Callback<HealthInfo> done) override;
    void listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done) override;
    void create(const CreateSpec &spec, Callback<SessionInfo> done) override;
    void info(const QString &id, Callback<SessionInfo> done) override;
    void stop(const QString &id, Callback<void> done) override;
    void kill(const QString &id, Callback<void> done) override;
    void remove(const QString &id, Callback<void> done) override;
    void pause(const QString &id, Callback<void> done) override;
    void resume(const QString &id, Callback<void> done) override;
    void setTimeout(const QString &id, qint64 ttl, Callback<void> done) override;
    std::unique_ptr<PtyChannel> openPty(const QString &id, const PtyOptions &options) override;
    std::unique_ptr<ExecJob> exec(const QString &id, const ExecRequest &request) override;
    std::unique_ptr<TransferJob> upload(const QString &id, const QString &local, const QString &remoteDest) override;
    std::unique_ptr<TransferJob> download(const QString &id, const QString &remote, const QString &localDest) override;
    void listFiles(const QString &id, const QString &path, Callback<QList<FileEntry>> done) override;
    void stats(const QString &id, Callback<StatsSample> done) override;
    std::unique_ptr<StatsStream> streamStats(const QString &id) override;

    // Statistics for tests of the collector: unset answers Unsupported.
    std::function<void(const QString &id, Callback<StatsSample> done)> statsHook;
    std::function<std::unique_ptr<StatsStream>(const QString &id)> streamHook;
    std::optional<Capabilities> capabilityOverride;
    // Terminals and commands for tests of the consoles: unset answers Unsupported.
    std::function<std::unique_ptr<PtyChannel>(const QString &id, const PtyOptions &options)> ptyHook;
    std::function<std::unique_ptr<ExecJob>(const QString &id, const ExecRequest &request)> execHook;
    // Logs for tests of the Logs tab (FakeLogStream): unset answers Unsupported.
    std::function<std::unique_ptr<LogStream>(const QString &id, const LogOptions &options)> logsHook;
    std::unique_ptr<LogStream> logs(const QString &id, const LogOptions &options) override
    {
        return logsHook ? logsHook(id, options) : Provider::logs(id, options);
    }
    // Where its sessions' processes run on this machine (tests of NVML matching).
    std::function<HostProcessMatch(const QString &id)> hostMatch;
    HostProcessMatch hostProcessMatch(const QString &id) const override
    {
        return hostMatch ? hostMatch(id) : HostProcessMatch{};
    }
    Capabilities capabilities() const override { return capabilityOverride.value_or(m_desc.capabilities); }

    // Health and create answered by the test (a failing engine, a slow pull with progress):
    // unset, health answers "Memory 1" and create succeeds at once.
    std::function<void(Callback<HealthInfo> done)> healthHook;
    std::function<bool(const CreateSpec &spec, Callback<SessionInfo> &done)> createHook; // true: handled

    // Seeds a session as if another Sandbar (or account) had made it.
    void inject(const SessionInfo &session) { m_sessions.insert(session.id, session); }
    bool failListing = false;
    // Stop, kill, pause, resume and remove of these ids fail (tests of error reporting).
    QSet<QString> failIds;
    // Like Docker's container list: limits and GPUs only in info().
    bool listWithoutLimits = false;

private:
    VoidResult setState(const QString &id, SessionState state);

    ProviderDescriptor m_desc;
    QString m_account;
    QHash<QString, SessionInfo> m_sessions;
    int m_next = 1;
};

class MemoryProviderFactory final : public ProviderFactory
{
public:
    MemoryProviderFactory();
    const ProviderDescriptor &descriptor() const override { return m_desc; }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const override;
    // The providers it made, by account, so tests can reach in.
    mutable QHash<QString, MemoryProvider *> made;

private:
    ProviderDescriptor m_desc;
};

} // namespace sandbar::test
