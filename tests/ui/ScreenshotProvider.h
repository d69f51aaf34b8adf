#pragma once

// The provider double behind tests/ui/screenshots.cpp: a MemoryProvider (sessions, states)
// under any descriptor, with believable statistics (a function of the clock, so backdated
// history and live samples join up), a folder listing and uploads that crawl to part way
// and stay there, so a picture can be taken mid-transfer.

#include "MemoryProvider.h"
#include "terminal/PtyChannel.h"

#include <QHash>
#include <QTimer>
#include <memory>

namespace sandbar::test {

// How one session's figures move: CPU in percent of one core, memory in MiB, I/O in KiB/s.
struct LoadProfile {
    double cpuBase = 30;
    double cpuSwing = 20;
    double memBaseMiB = 512;
    double memSwingMiB = 64;
    double netKiBps = 40;
    double diskKiBps = 200;
    double periodS = 40; // of the main wave
    qint64 memoryLimitBytes = 0;
};

// A sample of profile p at time ms since the epoch; counters are integrals of the rates, so
// any two samples agree whatever order they were taken in.
StatsSample sampleAt(const LoadProfile &p, qint64 ms);

// An upload that advances a little every 120 ms until it reaches stopAt of total, then waits.
class CrawlingUpload final : public TransferJob
{
public:
    CrawlingUpload(qint64 total, double stopAt);
    void start() override;
    void cancel() override { m_timer.stop(); }

private:
    QTimer m_timer;
    qint64 m_total;
    qint64 m_done = 0;
    qint64 m_stop;
};

class ScreenshotProvider final : public Provider
{
    Q_OBJECT
public:
    ScreenshotProvider(const ProviderDescriptor &desc, const QString &account, Capabilities caps,
                       QObject *parent = nullptr);

    MemoryProvider &memory() { return *m_inner; }
    // Statistics of the session id (its name's profile); unset ids answer Unsupported.
    QHash<QString, LoadProfile> profiles;

    const ProviderDescriptor &descriptor() const override { return m_inner->descriptor(); }
    Capabilities capabilities() const override { return m_caps; }
    QString accountName() const override { return m_inner->accountName(); }

    void health(Callback<HealthInfo> done) override;
    void listSessions(const ListOptions &o, Callback<QList<SessionInfo>> done) override
    {
        m_inner->listSessions(o, std::move(done));
    }
    void create(const CreateSpec &s, Callback<SessionInfo> done) override { m_inner->create(s, std::move(done)); }
    void info(const QString &id, Callback<SessionInfo> done) override { m_inner->info(id, std::move(done)); }
    void stop(const QString &id, Callback<void> done) override { m_inner->stop(id, std::move(done)); }
    void kill(const QString &id, Callback<void> done) override { m_inner->kill(id, std::move(done)); }
    void remove(const QString &id, Callback<void> done) override { m_inner->remove(id, std::move(done)); }
    void pause(const QString &id, Callback<void> done) override { m_inner->pause(id, std::move(done)); }
    void resume(const QString &id, Callback<void> done) override { m_inner->resume(id, std::move(done)); }
    void setTimeout(const QString &id, qint64 ttl, Callback<void> done) override
    {
        m_inner->setTimeout(id, ttl, std::move(done));
    }
    std::unique_ptr<PtyChannel> openPty(const QString &id, const PtyOptions &o) override
    {
        return m_inner->openPty(id, o);
    }
    std::unique_ptr<ExecJob> exec(const QString &id, const ExecRequest &r) override { return m_inner->exec(id, r); }
    std::unique_ptr<StatsStream> streamStats(const QString &id) override { return m_inner->streamStats(id); }
    void stats(const QString &id, Callback<StatsSample> done) override;
    void listFiles(const QString &id, const QString &path, Callback<QList<FileEntry>> done) override;
    void statPath(const QString &id, const QString &path, Callback<PathStat> done) override;
    std::unique_ptr<TransferJob> upload(const QString &id, const QString &local, const QString &remoteDest) override;

private:
    std::unique_ptr<MemoryProvider> m_inner;
    Capabilities m_caps;
    int m_uploads = 0;
};

class ScreenshotFactory final : public ProviderFactory
{
public:
    ScreenshotFactory(ProviderDescriptor desc, Capabilities caps)
        : m_desc(std::move(desc))
        , m_caps(caps)
    {
    }
    const ProviderDescriptor &descriptor() const override { return m_desc; }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const override;
    mutable QHash<QString, ScreenshotProvider *> made;

private:
    ProviderDescriptor m_desc;
    Capabilities m_caps;
};

} // namespace sandbar::test
