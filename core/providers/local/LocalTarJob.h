#pragma once

#include "providers/Jobs.h"

#include <QPointer>
#include <QStringList>
#include <QTemporaryDir>
#include <memory>

class QIODevice;

namespace sandbar::files {
class TarSource;
} // namespace sandbar::files

namespace sandbar::local {

class LocalProvider;

// `sandbarctl cp -` for the Local provider, whose agent speaks files, not tar: Put extracts
// the tar (safely, see TarExtractor) into a private temporary folder and puts each top
// entry into remoteDir; Get fetches remotePath into one and writes it to the device as a
// tar. The temporary copy is this side's disk, never the sandbox's.
class LocalTarJob : public TransferJob
{
    Q_OBJECT
public:
    enum class Direction { Put, Get };
    LocalTarJob(LocalProvider *provider, QString sessionId, QIODevice *device, QString remotePath, Direction direction,
                QObject *parent = nullptr);
    ~LocalTarJob() override;

    void start() override;
    void cancel() override;

private:
    void extract();
    void putNext();
    void writeTar();
    void run(std::unique_ptr<TransferJob> job, std::function<void()> then);
    void finish(const VoidResult &result);

    QPointer<LocalProvider> m_provider;
    QString m_sessionId;
    QIODevice *m_device;
    QString m_remotePath;
    Direction m_direction;
    QTemporaryDir m_temp;
    QStringList m_pending;
    std::unique_ptr<TransferJob> m_inner;
    std::unique_ptr<files::TarSource> m_source;
    bool m_done = false;
};

} // namespace sandbar::local
