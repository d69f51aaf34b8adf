#pragma once

// The Local provider's terminals, commands and transfers: each one is its own connection
// to the session's agent, so that closing one never disturbs another.

#include "AgentConnection.h"
#include "providers/Jobs.h"
#include "providers/Session.h"
#include "terminal/PtyChannel.h"

#include <QFile>
#include <QPointer>
#include <QTimer>
#include <deque>

namespace sandbar::local {

class LocalProvider;

// A terminal run by the agent. Destroying it without close() only detaches: the program
// keeps running and a later channel with PtyOptions::attachId (the "attachId" property
// of this object once started) gets its scrollback and continues.
class LocalPtyChannel : public PtyChannel
{
    Q_OBJECT
public:
    LocalPtyChannel(const QString &socketPath, const PtyOptions &options, QObject *parent = nullptr);

    void start() override;
    void write(const QByteArray &bytes) override;
    void resize(int cols, int rows) override;
    void close() override;
    bool isOpen() const override { return m_open; }
    std::optional<int> exitCode() const override { return m_exit; }
    void setReadingPaused(bool paused) override { m_conn->setReadingPaused(paused); }
    bool deliverNow() override { return m_conn->pollNow(); }
    QString ptyId() const { return m_id; }

private:
    void onFrame(const wire::Frame &f);
    void fail(const Error &error);

    AgentConnection *m_conn;
    PtyOptions m_options;
    QString m_id;
    QByteArray m_pendingInput;
    bool m_open = false;
    bool m_done = false;
    std::optional<int> m_exit;
};

class LocalExecJob : public ExecJob
{
    Q_OBJECT
public:
    LocalExecJob(const QString &socketPath, const ExecRequest &request, QObject *parent = nullptr);
    void start() override;
    void cancel() override;

private:
    void finish(const Result<int> &result);

    AgentConnection *m_conn;
    ExecRequest m_request;
    bool m_started = false;
    bool m_done = false;
};

// Uploads a file or folder tree into a folder of the sandbox, one file at a time,
// reading 64 KiB at a time and only while the socket has room.
class LocalUploadJob : public TransferJob
{
    Q_OBJECT
public:
    // Puts localPath into remoteDir as name (empty: its own name).
    LocalUploadJob(const QString &socketPath, const QString &localPath, const QString &remoteDir, const QString &name,
                   QObject *parent = nullptr);
    void start() override;
    void cancel() override;

private:
    struct Item {
        QString local;
        QString remote;
        bool dir = false;
        quint32 mode = 0644;
    };
    void next();
    void pump();
    void finish(const VoidResult &result);

    AgentConnection *m_conn;
    QString m_localPath;
    QString m_remoteDir;
    QString m_name;
    std::deque<Item> m_items;
    QFile m_file;
    bool m_streaming = false;
    quint32 m_channel = 0;
    qint64 m_done = 0;
    qint64 m_total = 0;
    bool m_finished = false;
};

// Downloads a file or folder tree; names coming from the sandbox are checked before
// anything is created on this side.
class LocalDownloadJob : public TransferJob
{
    Q_OBJECT
public:
    // Gets remotePath into localDir as name (empty: its own name).
    LocalDownloadJob(const QString &socketPath, const QString &remotePath, const QString &localDir, const QString &name,
                     QObject *parent = nullptr);
    void start() override;
    void cancel() override;

private:
    void onFrame(const wire::Frame &f);
    void next();
    void finish(const VoidResult &result);

    AgentConnection *m_conn;
    QString m_remotePath;
    QString m_localDir;
    QString m_name;
    std::deque<std::pair<QString, QString>> m_lists; // remote dir, local dir
    std::deque<std::pair<QString, QString>> m_files; // remote file, local file
    bool m_rootListed = false;
    QFile m_file;
    quint32 m_channel = 0;
    qint64 m_done = 0;
    qint64 m_total = 0;
    bool m_finished = false;
};

// Samples once a second through the provider's one-shot stats (CPU % from the deltas).
class LocalStatsStream : public StatsStream
{
    Q_OBJECT
public:
    LocalStatsStream(LocalProvider *provider, const QString &sessionId, QObject *parent = nullptr);
    void start() override;
    void stop() override;
    void setInterval(int ms) { m_timer.setInterval(ms); }

private:
    void poll();

    QPointer<LocalProvider> m_provider;
    QString m_sessionId;
    QTimer m_timer;
    bool m_inFlight = false;
};

} // namespace sandbar::local
