#pragma once

#include "files/CopyRules.h"
#include "providers/CopyingFiles.h"
#include "providers/Provider.h"

#include <QPointer>
#include <functional>
#include <memory>

namespace sandbar {

// CopyingFiles::upload/download/uploadTar: answers the copy rules' probe (a local QFileInfo,
// the facet's statPath), resolves the target once for every provider and hands the transfer
// to the facet's putItem, getItem or putTar.
class CopyJob : public TransferJob
{
    Q_OBJECT
public:
    enum class Direction { Upload, Download, UploadTar };
    // steps belongs to provider; once provider is gone the copy fails instead of using them.
    CopyJob(Provider *provider, CopyingFiles *steps, QString sessionId, Direction direction, QString source,
            QString dest, QIODevice *tar = nullptr, QObject *parent = nullptr);
    ~CopyJob() override;

    void start() override;
    void cancel() override;

    // Once resolved, the path the item is saved as (for the audit log), as a QString property.
    static constexpr const char *kTargetProperty = "copyTarget";

private:
    void setTarget(const files::CopyTarget &target);
    void statRemote(const QString &path, std::function<void(PathStat)> then);
    void upload(files::CopyKind kind);
    void download(files::CopyKind kind);
    void run(std::unique_ptr<TransferJob> job);
    void finish(VoidResult result);
    QString journalPath() const;

    QPointer<Provider> m_provider;
    CopyingFiles *m_steps = nullptr;
    QString m_sessionId;
    Direction m_direction;
    files::CopyPath m_source, m_dest;
    QIODevice *m_tar = nullptr;
    std::unique_ptr<TransferJob> m_inner;
    bool m_done = false;
    // A download goes into m_staging (see PartialDownloads) and is moved to m_final.
    QString m_staging;
    QString m_stagedName;
    QString m_final;
};

// A job that only reports an error (from start(), never from the constructor's caller's stack).
class FailedTransferJob : public TransferJob
{
    Q_OBJECT
public:
    explicit FailedTransferJob(Error error, QObject *parent = nullptr);
    void start() override;
    void cancel() override {}

private:
    Error m_error;
};

} // namespace sandbar
