#pragma once

// The provider double behind tests/ui/screenshots.cpp: a MemoryProvider (sessions, states)
// under any descriptor and capabilities, with believable statistics (a function of the clock, so backdated
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

// A MemoryProvider configured by its hooks, nothing overridden.
class ScreenshotProvider final : public MemoryProvider
{
    Q_OBJECT
public:
    ScreenshotProvider(const ProviderDescriptor &desc, const QString &account, Capabilities caps,
                       QObject *parent = nullptr);

    // Statistics of the session id (its name's profile); unset ids answer Unsupported.
    QHash<QString, LoadProfile> profiles;

private:
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
