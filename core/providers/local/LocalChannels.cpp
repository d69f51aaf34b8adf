#include "LocalChannels.h"

#include "SandboxLayout.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>

namespace sandbar::local {

using wire::FrameType;

namespace {

QJsonArray toArray(const QStringList &l)
{
    return QJsonArray::fromStringList(l);
}

// Input the agent has not read yet, past which it is taken for stuck: a paste into a
// terminal whose agent never reads must not grow this process without bound.
constexpr qint64 kMaxUnreadInput = 16 * 1024 * 1024;

// The "code" of an exit frame: an int, or nothing when the agent sent something else.
std::optional<int> exitCodeOf(const wire::Frame &f)
{
    const auto o = AgentConnection::replyObject(f);
    if (!o)
        return std::nullopt;
    const QJsonValue v = o->value(QStringLiteral("code"));
    const double d = v.toDouble(-1e18);
    if (!v.isDouble() || d != double(int(d)) || d < -1024 || d > 1024)
        return std::nullopt;
    return int(d);
}

Error malformedExit()
{
    return makeError(ErrorCode::Internal,
                     QCoreApplication::translate("sandbar::local::LocalChannels",
                                                 "The sandbox agent sent a malformed exit status."));
}
} // namespace

// ---- terminal ----

LocalPtyChannel::LocalPtyChannel(const QString &socketPath, const PtyOptions &options, QObject *parent)
    : PtyChannel(parent)
    , m_conn(new AgentConnection(socketPath, this))
    , m_options(options)
{
    connect(m_conn, &AgentConnection::frameReceived, this, &LocalPtyChannel::onFrame);
    connect(m_conn, &AgentConnection::failed, this, &LocalPtyChannel::fail);
    connect(m_conn, &AgentConnection::ready, this, [this] {
        if (!m_options.attachId.isEmpty()) {
            m_conn->sendJson(FrameType::AttachPty, 1, QJsonObject{{QStringLiteral("id"), m_options.attachId}});
            return;
        }
        QJsonObject req{{QStringLiteral("argv"), toArray(m_options.argv)},
                        {QStringLiteral("env"), toArray(m_options.env)},
                        {QStringLiteral("cols"), m_options.cols},
                        {QStringLiteral("rows"), m_options.rows}};
        if (!m_options.workingDir.isEmpty())
            req[QStringLiteral("cwd")] = m_options.workingDir;
        m_conn->sendJson(FrameType::OpenPty, 1, req);
    });
}

void LocalPtyChannel::start()
{
    m_conn->open();
}

void LocalPtyChannel::write(const QByteArray &bytes)
{
    if (m_done)
        return;
    if (m_conn->bytesToWrite() + m_pendingInput.size() + bytes.size() > kMaxUnreadInput) {
        fail(makeError(ErrorCode::Unavailable, tr("The sandbox stopped reading terminal input.")));
        return;
    }
    // Typing ahead of started() is kept, not lost: it goes out once the terminal exists.
    if (m_open)
        m_conn->send(FrameType::PtyInput, 1, bytes);
    else
        m_pendingInput += bytes;
}

void LocalPtyChannel::resize(int cols, int rows)
{
    m_options.cols = cols;
    m_options.rows = rows;
    if (m_open)
        m_conn->sendJson(FrameType::Resize, 1,
                         QJsonObject{{QStringLiteral("cols"), cols}, {QStringLiteral("rows"), rows}});
}

void LocalPtyChannel::close()
{
    if (m_open)
        m_conn->send(FrameType::ClosePty, 1);
}

void LocalPtyChannel::onFrame(const wire::Frame &f)
{
    if (f.channel != 1 || m_done)
        return; // nobody asked on another channel
    switch (f.type) {
    case FrameType::Reply: {
        if (m_open)
            return; // a second answer to the one request
        const auto reply = AgentConnection::replyObject(f);
        const QJsonValue id = reply ? reply->value(QStringLiteral("id")) : QJsonValue();
        if (!id.isString() || id.toString().isEmpty()) {
            fail(makeError(ErrorCode::Internal, tr("The sandbox agent answered the terminal request malformed.")));
            return;
        }
        m_id = id.toString();
        setProperty("attachId", m_id);
        m_open = true;
        if (!m_options.attachId.isEmpty())
            resize(m_options.cols, m_options.rows);
        if (!m_pendingInput.isEmpty())
            m_conn->send(FrameType::PtyInput, 1, std::exchange(m_pendingInput, {}));
        Q_EMIT started();
        break;
    }
    case FrameType::PtyData: Q_EMIT dataReceived(QByteArray::fromStdString(f.payload)); break;
    case FrameType::PtyExit:
        m_exit = exitCodeOf(f);
        if (!m_exit) {
            fail(malformedExit());
            return;
        }
        m_open = false;
        m_done = true;
        m_conn->close();
        Q_EMIT finished(*m_exit);
        break;
    case FrameType::Error: fail(AgentConnection::frameError(f)); break;
    default: break;
    }
}

void LocalPtyChannel::fail(const Error &error)
{
    if (m_done)
        return;
    m_done = true;
    m_open = false;
    m_conn->close();
    Q_EMIT errorOccurred(error);
}

// ---- exec ----

LocalExecJob::LocalExecJob(const QString &socketPath, const ExecRequest &request, QObject *parent)
    : ExecJob(parent)
    , m_conn(new AgentConnection(socketPath, this))
    , m_request(request)
{
    connect(m_conn, &AgentConnection::failed, this, [this](const Error &e) { finish(e); });
    connect(m_conn, &AgentConnection::ready, this, [this] {
        QJsonObject req{{QStringLiteral("argv"), toArray(m_request.argv)},
                        {QStringLiteral("env"), toArray(m_request.env)},
                        {QStringLiteral("stdin"), !m_request.stdinData.isEmpty()}};
        if (!m_request.workingDir.isEmpty())
            req[QStringLiteral("cwd")] = m_request.workingDir;
        m_conn->sendJson(FrameType::Exec, 1, req);
    });
    connect(m_conn, &AgentConnection::frameReceived, this, [this](const wire::Frame &f) {
        if (f.channel != 1 || m_done)
            return; // nobody asked on another channel
        switch (f.type) {
        case FrameType::Reply:
            if (std::exchange(m_started, true))
                return; // a second answer must not send the input twice
            for (qsizetype off = 0; off < m_request.stdinData.size(); off += qsizetype(wire::kChunkSize))
                m_conn->send(FrameType::ExecStdin, 1, m_request.stdinData.mid(off, qsizetype(wire::kChunkSize)));
            if (!m_request.stdinData.isEmpty())
                m_conn->send(FrameType::ExecStdinEof, 1);
            break;
        case FrameType::ExecStdout: Q_EMIT stdoutData(QByteArray::fromStdString(f.payload)); break;
        case FrameType::ExecStderr: Q_EMIT stderrData(QByteArray::fromStdString(f.payload)); break;
        case FrameType::ExecExit: {
            const auto code = exitCodeOf(f);
            finish(code ? Result<int>(*code) : Result<int>(malformedExit()));
            break;
        }
        case FrameType::Error: finish(AgentConnection::frameError(f)); break;
        default: break;
        }
    });
}

void LocalExecJob::start()
{
    const QString user = m_request.user;
    if (!user.isEmpty() && user != QStringLiteral("sandbox") && user != QString::number(kSandboxUid)) {
        QTimer::singleShot(0, this, [this] {
            finish(makeError(ErrorCode::Unsupported,
                             tr("Local sandboxes run everything as the user \"sandbox\" (uid 1000).")));
        });
        return;
    }
    if (m_request.argv.isEmpty()) {
        QTimer::singleShot(0, this,
                           [this] { finish(makeError(ErrorCode::InvalidArgument, tr("No command to run."))); });
        return;
    }
    m_conn->open();
}

void LocalExecJob::cancel()
{
    // Dropping the connection makes the agent kill the command's process group.
    finish(makeError(ErrorCode::Cancelled, tr("Cancelled.")));
}

void LocalExecJob::finish(const Result<int> &result)
{
    if (m_done)
        return;
    m_done = true;
    m_conn->close();
    Q_EMIT finished(result);
}

// ---- upload ----

LocalUploadJob::LocalUploadJob(const QString &socketPath, const QString &localPath, const QString &remoteDir,
                               const QString &name, QObject *parent)
    : TransferJob(parent)
    , m_conn(new AgentConnection(socketPath, this))
    , m_localPath(localPath)
    , m_remoteDir(remoteDir)
    , m_name(name)
{
    connect(m_conn, &AgentConnection::failed, this, [this](const Error &e) { finish(e); });
    connect(m_conn, &AgentConnection::ready, this, &LocalUploadJob::next);
    connect(m_conn, &AgentConnection::bytesWritten, this, &LocalUploadJob::pump);
    connect(m_conn, &AgentConnection::frameReceived, this, [this](const wire::Frame &f) {
        if (f.channel != m_channel)
            return;
        if (f.type == FrameType::Error) {
            finish(AgentConnection::frameError(f));
        } else if (f.type == FrameType::Reply) {
            if (AgentConnection::parseObject(f.payload).value(QStringLiteral("ready")).toBool()) {
                m_streaming = true;
                pump();
            } else {
                next();
            }
        }
    });
}

void LocalUploadJob::start()
{
    const QFileInfo root(m_localPath);
    const QString name = m_name.isEmpty() ? root.fileName() : m_name;
    const QString base = QDir::cleanPath(m_remoteDir + QLatin1Char('/') + name);
    if (!isSafeEntryName(name)) {
        QTimer::singleShot(0, this, [this, name] {
            finish(makeError(ErrorCode::InvalidArgument, tr("'%1' cannot name a copy.").arg(name)));
        });
        return;
    }
    if (!root.exists()) {
        QTimer::singleShot(
            0, this, [this] { finish(makeError(ErrorCode::NotFound, tr("%1 does not exist.").arg(m_localPath))); });
        return;
    }
    auto modeOf = [](const QFileInfo &fi) {
        const auto p = quint32(fi.permissions().toInt());
        return (((p >> 12) & 7u) << 6 | ((p >> 4) & 7u) << 3 | (p & 7u)) | 0600u;
    };
    if (root.isDir()) {
        m_items.push_back({root.absoluteFilePath(), base, true, 0755});
        QDirIterator it(m_localPath, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::NoSymLinks,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QFileInfo fi(it.next());
            const QString rel = QDir(m_localPath).relativeFilePath(fi.absoluteFilePath());
            m_items.push_back({fi.absoluteFilePath(), base + QLatin1Char('/') + rel, fi.isDir(), modeOf(fi)});
            m_total += fi.isDir() ? 0 : fi.size();
        }
    } else {
        m_items.push_back({root.absoluteFilePath(), base, false, modeOf(root)});
        m_total = root.size();
    }
    m_conn->open();
}

void LocalUploadJob::next()
{
    if (m_finished)
        return;
    m_file.close();
    m_streaming = false;
    if (m_items.empty()) {
        finish({});
        return;
    }
    const Item item = m_items.front();
    m_items.pop_front();
    ++m_channel;
    if (!item.dir) {
        m_file.setFileName(item.local);
        if (!m_file.open(QIODevice::ReadOnly)) {
            finish(makeError(ErrorCode::NotFound, tr("Cannot read %1: %2").arg(item.local, m_file.errorString())));
            return;
        }
    }
    m_conn->sendJson(FrameType::FilePut, m_channel,
                     QJsonObject{{QStringLiteral("path"), item.remote},
                                 {QStringLiteral("dir"), item.dir},
                                 {QStringLiteral("mode"), qint64(item.mode)}});
}

void LocalUploadJob::pump()
{
    while (m_streaming && !m_finished && m_conn->bytesToWrite() < (1 << 20)) {
        const QByteArray chunk = m_file.read(qint64(wire::kChunkSize));
        if (chunk.isEmpty()) {
            m_streaming = false;
            m_conn->send(FrameType::FileEnd, m_channel, "{}");
            return;
        }
        m_conn->send(FrameType::FileData, m_channel, chunk);
        m_done += chunk.size();
        emitProgress(m_done, m_total);
    }
}

void LocalUploadJob::cancel()
{
    finish(makeError(ErrorCode::Cancelled, tr("Cancelled.")));
}

void LocalUploadJob::finish(const VoidResult &result)
{
    if (m_finished)
        return;
    m_finished = true;
    m_file.close();
    m_conn->close();
    Q_EMIT finished(result);
}

// ---- download ----

LocalDownloadJob::LocalDownloadJob(const QString &socketPath, const QString &remotePath, const QString &localDir,
                                   const QString &name, QObject *parent)
    : TransferJob(parent)
    , m_conn(new AgentConnection(socketPath, this))
    , m_remotePath(QDir::cleanPath(remotePath))
    , m_localDir(localDir)
    , m_name(name)
{
    connect(m_conn, &AgentConnection::failed, this, [this](const Error &e) { finish(e); });
    connect(m_conn, &AgentConnection::ready, this, &LocalDownloadJob::next);
    connect(m_conn, &AgentConnection::frameReceived, this, &LocalDownloadJob::onFrame);
}

void LocalDownloadJob::start()
{
    const QString name = m_name.isEmpty() ? QFileInfo(m_remotePath).fileName() : m_name;
    if (!QDir::isAbsolutePath(m_remotePath) || !isSafeEntryName(name) || !QFileInfo(m_localDir).isDir()) {
        QTimer::singleShot(0, this, [this] {
            finish(
                makeError(ErrorCode::InvalidArgument, tr("Cannot download %1 into %2.").arg(m_remotePath, m_localDir)));
        });
        return;
    }
    m_lists.emplace_back(m_remotePath, QDir(m_localDir).filePath(name));
    m_conn->open();
}

void LocalDownloadJob::next()
{
    if (m_finished)
        return;
    ++m_channel;
    if (!m_lists.empty()) {
        m_conn->sendJson(FrameType::FileList, m_channel, QJsonObject{{QStringLiteral("path"), m_lists.front().first}});
        return;
    }
    if (m_files.empty()) {
        finish({});
        return;
    }
    m_file.setFileName(m_files.front().second);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        finish(makeError(ErrorCode::Internal, tr("Cannot write %1: %2").arg(m_file.fileName(), m_file.errorString())));
        return;
    }
    m_conn->sendJson(FrameType::FileGet, m_channel, QJsonObject{{QStringLiteral("path"), m_files.front().first}});
}

void LocalDownloadJob::onFrame(const wire::Frame &f)
{
    if (f.channel != m_channel || m_finished)
        return;
    if (f.type == FrameType::Error) {
        finish(AgentConnection::frameError(f));
        return;
    }
    if (!m_lists.empty()) {
        if (f.type != FrameType::Reply)
            return;
        const auto [remote, local] = m_lists.front();
        m_lists.pop_front();
        const QJsonObject o = AgentConnection::parseObject(f.payload);
        if (!o.value(QStringLiteral("isDir")).toBool()) {
            // Only the root can be a file; a folder's files are queued below.
            m_files.emplace_back(remote, local);
            m_total +=
                o.value(QStringLiteral("entries")).toArray().at(0).toObject().value(QStringLiteral("size")).toInteger();
        } else {
            if (!QDir().mkpath(local)) {
                finish(makeError(ErrorCode::Internal, tr("Cannot create %1.").arg(local)));
                return;
            }
            for (const auto &v : o.value(QStringLiteral("entries")).toArray()) {
                const QJsonObject e = v.toObject();
                const QString name = e.value(QStringLiteral("name")).toString();
                if (!isSafeEntryName(name) || e.value(QStringLiteral("link")).toBool())
                    continue; // never follow links out of the tree, never write outside localDir
                const QString childRemote = remote + QLatin1Char('/') + name;
                const QString childLocal = local + QLatin1Char('/') + name;
                if (e.value(QStringLiteral("dir")).toBool()) {
                    m_lists.emplace_back(childRemote, childLocal);
                } else {
                    m_files.emplace_back(childRemote, childLocal);
                    m_total += e.value(QStringLiteral("size")).toInteger();
                }
            }
        }
        emitProgress(m_done, m_lists.empty() ? m_total : -1);
        next();
        return;
    }
    if (f.type == FrameType::FileData) {
        if (m_file.write(f.payload.data(), qint64(f.payload.size())) != qint64(f.payload.size())) {
            finish(
                makeError(ErrorCode::Internal, tr("Cannot write %1: %2").arg(m_file.fileName(), m_file.errorString())));
            return;
        }
        m_done += qint64(f.payload.size());
        emitProgress(m_done, m_total);
    } else if (f.type == FrameType::FileEnd) {
        m_file.close();
        m_files.pop_front();
        next();
    }
}

void LocalDownloadJob::cancel()
{
    finish(makeError(ErrorCode::Cancelled, tr("Cancelled.")));
}

void LocalDownloadJob::finish(const VoidResult &result)
{
    if (m_finished)
        return;
    m_finished = true;
    m_file.close();
    m_conn->close();
    Q_EMIT finished(result);
}

} // namespace sandbar::local
