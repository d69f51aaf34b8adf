#include "providers/docker/DockerTransfer.h"

#include "files/PathSafety.h"
#include "files/TarExtractor.h"
#include "files/TarSource.h"
#include "providers/docker/DockerExec.h"
#include "providers/docker/JsonFields.h"

#include <QDateTime>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTimer>
#include <nlohmann/json.hpp>

namespace sandbar::docker {

using nlohmann::json;

namespace {
// Engine-made tmpfs mounts that inspect does not list.
const QStringList kImplicitTmpfs{QStringLiteral("/dev/shm")};

bool isNoSuchContainer(const QByteArray &body)
{
    return engineMessage(body).contains(QLatin1String("No such container"), Qt::CaseInsensitive);
}
// Staged uploads: the prefix, and how old a leftover must be before another upload sweeps it.
const QString kStagingPrefix = QStringLiteral(".sandbar-upload-");
constexpr qint64 kStaleSeconds = 3600;

// Run as `sh -c PROBE sh DIR NAME CUTOFF [STAGING]`; the paths are arguments, never part of
// the script. Sweeps staging leftovers named with an epoch before CUTOFF (the name, not the
// mtime, dates them: tar restores the source's mtime), creates the folder STAGING in DIR when
// given (7 when the container has no tar to extract into it, 6 when it cannot), then answers 3 when DIR/NAME is a
// folder to merge into, 0 otherwise, 4 when DIR is missing (the direct upload reports it) and 5 when this user could
// not rename in DIR (the engine writes there, as before).
const QString kProbeScript = QStringLiteral("cd \"$1\" || exit 4\n"
                                            "[ -w . ] || exit 5\n"
                                            "for f in .sandbar-upload-*; do\n"
                                            "  t=${f#.sandbar-upload-}; t=${t%%-*}\n"
                                            "  case $t in ''|*[!0-9]*) continue;; esac\n"
                                            "  [ \"$t\" -lt \"$3\" ] && rm -rf -- \"$f\"\n"
                                            "done\n"
                                            "if [ -n \"$4\" ]; then\n"
                                            "  command -v tar >/dev/null 2>&1 || exit 7\n"
                                            "  mkdir -- \"$4\" || exit 6\n"
                                            "fi\n"
                                            "[ -d \"./$2\" ] && [ ! -L \"./$2\" ] && exit 3\n"
                                            "exit 0\n");

// Run as `sh -c MERGE sh STAGED FINAL`: moves every entry of the staged folder into the
// existing folder, descending into folders both sides have, so that each file appears under
// its final name only whole (rename) and the existing folder's other entries stay.
const QString kMergeScript =
    QStringLiteral("merge() {\n"
                   "  for e in \"$1\"/* \"$1\"/.[!.]* \"$1\"/..?*; do\n"
                   "    [ -e \"$e\" ] || [ -L \"$e\" ] || continue\n"
                   "    n=${e##*/}\n"
                   "    if [ -d \"$e\" ] && [ ! -L \"$e\" ] && [ -d \"$2/$n\" ] && [ ! -L \"$2/$n\" ]; then\n"
                   "      merge \"$e\" \"$2/$n\" || return 1\n"
                   "    else\n"
                   "      mv -f -T -- \"$e\" \"$2/$n\" || return 1\n"
                   "    fi\n"
                   "  done\n"
                   "}\n"
                   "merge \"$1\" \"$2\" && rm -rf -- \"$1\"\n");

QString stagingName(const QString &name)
{
    // NAME_MAX is 255 bytes: a long name is shortened in the staging name only.
    return kStagingPrefix + QString::number(QDateTime::currentSecsSinceEpoch()) + QLatin1Char('-') +
           QString::number(QRandomGenerator::global()->generate64(), 16) + QLatin1Char('-') + name.left(40);
}

// As the container's user, who owns what the tar brings (root, with the capabilities the
// session dropped, may not write a user's folder).
ExecRequest argvRequest(QStringList argv)
{
    ExecRequest req;
    req.argv = std::move(argv);
    return req;
}

// A user's tar may hold entries owned by anyone, and moving a folder out of the staging
// folder takes write permission on the folder itself: root has it; for another user the tar
// is extracted by the container's own tar, as that user, who then owns what it brings.
bool runsAsRoot(const QString &user)
{
    const QString name = user.section(QLatin1Char(':'), 0, 0);
    return name.isEmpty() || name == QLatin1String("0") || name == QLatin1String("root");
}

// The probe, the rename and the clean-up answer a line at most; the container runs whatever
// it has under those names.
constexpr RunExecLimits kSmallAnswer{64 * 1024, {}};
} // namespace

DockerUploadJob::DockerUploadJob(DockerApi *api, QString containerId, QString localPath, QString remoteDir,
                                 QString name, QObject *parent)
    : TransferJob(parent)
    , m_api(api)
    , m_containerId(std::move(containerId))
    , m_localPath(std::move(localPath))
    , m_remoteDir(std::move(remoteDir))
    , m_name(std::move(name))
{
}

QIODevice *DockerUploadJob::body() const
{
    return m_tar ? m_tar : static_cast<QIODevice *>(m_source.get());
}

std::optional<Error> DockerUploadJob::sourceFailure() const
{
    return m_source ? m_source->failure() : std::nullopt;
}

DockerUploadJob::~DockerUploadJob() = default;

void DockerUploadJob::start()
{
    // A refusal is reported after start() returns, as an engine's answer would be.
    const auto finishLater = [this](const Error &e) { QTimer::singleShot(0, this, [this, e] { finish(e); }); };
    auto dir = files::normalizeRemotePath(m_remoteDir);
    if (!dir)
        return finishLater(dir.error());
    m_remoteDir = *dir;
    if (!m_api)
        return finishLater(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
    m_api->call("GET", "/containers/" + DockerApi::enc(m_containerId) + "/json", {},
                Callback<net::HttpResponse>(this, [this](Result<net::HttpResponse> r) {
                    if (!r)
                        return finish(r.error());
                    if (r->status == 404)
                        return finish(DockerApi::sessionGone(m_containerId));
                    if (!r->isSuccess())
                        return finish(errorFromStatus(r->status, r->body, tr("Upload failed")));
                    begin(r->body);
                }));
}

void DockerUploadJob::begin(const QByteArray &inspectBody)
{
    const auto j = json::parse(inspectBody.constData(), inspectBody.constData() + inspectBody.size(), nullptr, false);
    if (j.is_object() && j.contains("Config"))
        m_user = QString::fromStdString(jsonText(j["Config"], "User"));
    bool running = false;
    if (j.is_object() && j.contains("State") && j["State"].is_object()) {
        const auto &state = j["State"];
        running = state.value("Running", false) && !state.value("Paused", false);
    }
    if (!m_api->engine().podman) { // Podman extracts inside the mount namespace
        QStringList tmpfs = tmpfsMountsFromInspect(inspectBody).valueOr({}) + kImplicitTmpfs;
        for (const QString &mount : tmpfs)
            m_viaExec = m_viaExec || files::remoteIsWithin(m_remoteDir, mount);
    }
    // A stopped or paused container runs no exec, so nothing could rename a staged item:
    // it is extracted under its final name as before. A user's tar names its own top
    // entries, unknown until read: it is extracted into a staging folder whose entries are
    // then merged into the destination (see runsAsRoot).
    if (!running)
        return send(m_name);
    probe();
}

void DockerUploadJob::probe()
{
    const qint64 cutoff = QDateTime::currentSecsSinceEpoch() - kStaleSeconds;
    // A user's tar is extracted into a folder the probe creates.
    const QString tarStaging = m_tar ? stagingName(QStringLiteral("tar")) : QString();
    auto req = argvRequest({QStringLiteral("sh"), QStringLiteral("-c"), kProbeScript, QStringLiteral("sh"), m_remoteDir,
                            m_tar ? QStringLiteral(".") : m_name, QString::number(cutoff), tarStaging});
    runExec(m_api, m_containerId, req,
            Callback<ExecOutput>(this,
                                 [this, tarStaging](Result<ExecOutput> r) {
                                     if (m_done)
                                         return;
                                     if (!r && (r.code() == ErrorCode::Unavailable || r.code() == ErrorCode::NotFound))
                                         return finish(r.error());
                                     if (!m_api)
                                         return finish(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
                                     // No shell in the image, a folder this user may not write, or a missing
                                     // one that the direct upload reports as it always did: send it straight in.
                                     if (!r || (r->exitCode != 0 && r->exitCode != 3))
                                         return send(m_name);
                                     if (m_tar) {
                                         m_merge = true;
                                         m_staging = tarStaging;
                                         return send(m_name);
                                     }
                                     // Physical walk: a link to a folder travels as a link, which replaces.
                                     const QFileInfo local(m_localPath);
                                     m_merge = r->exitCode == 3 && local.isDir() && !local.isSymLink();
                                     m_staging = stagingName(m_name);
                                     send(m_staging);
                                 }),
            kSmallAnswer);
}

void DockerUploadJob::send(const QString &rootName)
{
    const QString &user = m_user;
    files::TarSourceOptions options;
    options.rootName = rootName;
    bool byName = false;
    if (m_tar) {
        // A user's tar keeps the owners it names, as with `docker cp -`, unless it is staged
        // for a user who could not otherwise move its entries into place.
        m_viaExec = m_viaExec || (!m_staging.isEmpty() && !runsAsRoot(user));
    } else if (user.isEmpty()) {
        options.uid = 0;
        options.gid = 0;
    } else {
        const QStringList parts = user.split(QLatin1Char(':'));
        bool okU = false, okG = true;
        const qint64 uid = parts.at(0).toLongLong(&okU);
        const qint64 gid = parts.size() > 1 ? parts.at(1).toLongLong(&okG) : uid;
        if (okU && okG) {
            options.uid = uid;
            options.gid = gid;
        } else {
            byName = true; // the engine looks the names up in the container
            options.uid = 0;
            options.gid = 0;
        }
    }
    // A user's tar staged: extracted inside the staging folder instead of the destination.
    m_into =
        m_tar && !m_staging.isEmpty() ? files::remoteJoin(m_remoteDir, m_staging).valueOr(m_remoteDir) : m_remoteDir;
    if (!m_tar) {
        m_source = std::make_unique<files::TarSource>(m_localPath, options);
        if (auto r = m_source->prepare(); !r) {
            m_staging.clear(); // nothing was sent
            return finish(r.error());
        }
    }
    if (m_viaExec)
        return viaExec();
    if (byName)
        m_replyBody = "copyUIDGID";
    viaArchive();
}

void DockerUploadJob::viaArchive()
{
    QByteArray path = "/containers/" + DockerApi::enc(m_containerId) + "/archive?path=" + DockerApi::enc(m_into);
    if (m_replyBody == "copyUIDGID")
        path += "&copyUIDGID=1";
    m_replyBody.clear();
    auto req = m_api->request("PUT", path);
    req.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/x-tar")));
    req.bodyDevice = body();
    req.bodyLength = -1;
    // The answer comes only once the whole body is in; a dead engine closes the socket.
    req.responseTimeout = std::chrono::hours(24);
    m_exchange = m_api->exchange(req, this);
    connect(m_exchange, &net::HttpExchange::uploadProgress, this, [this] { reportProgress(); });
    connect(m_exchange, &net::HttpExchange::bodyData, this,
            [this](const QByteArray &b) { m_replyBody += b.left(4096); });
    connect(m_exchange, &net::HttpExchange::finished, this, [this](const VoidResult &r) {
        if (sourceFailure())
            return finish(*sourceFailure());
        if (!r)
            return finish(r.error());
        const int status = m_exchange->response().status;
        if (status >= 200 && status < 300)
            return sent();
        if (status == 404 && isNoSuchContainer(m_replyBody))
            return finish(DockerApi::sessionGone(m_containerId));
        if (status == 404)
            return finish(makeError(
                ErrorCode::NotFound,
                tr("The folder '%1' does not exist in session %2.").arg(m_remoteDir, m_containerId.left(12))));
        // The swagger says 403; engines answer 400 or 500 with this text.
        if (const QString msg = engineMessage(m_replyBody);
            msg.contains(QLatin1String("read-only"), Qt::CaseInsensitive))
            return finish(makeError(ErrorCode::InvalidArgument,
                                    tr("Cannot upload into '%1': it is read-only (%2).").arg(m_remoteDir, msg)));
        finish(errorFromStatus(status, m_replyBody, tr("Upload into '%1' failed").arg(m_remoteDir)));
    });
    m_exchange->start();
}

void DockerUploadJob::viaExec()
{
    ExecRequest req;
    req.argv = QStringList{QStringLiteral("tar"), QStringLiteral("-x"), QStringLiteral("-C"), m_into,
                           QStringLiteral("-f"),  QStringLiteral("-")};
    m_exec = new DockerExecJob(m_api, m_containerId, req, this);
    m_exec->setStdinDevice(body());
    connect(m_exec, &DockerExecJob::stdinProgress, this, [this] { reportProgress(); });
    connect(m_exec, &ExecJob::stderrData, this, [this](const QByteArray &b) { m_execErr += b.left(4096); });
    connect(m_exec, &ExecJob::finished, this, [this](const Result<int> &code) {
        if (sourceFailure())
            return finish(*sourceFailure());
        if (!code)
            return finish(code.error());
        if (*code == 0)
            return sent();
        const QString err = QString::fromUtf8(m_execErr).trimmed();
        if (err.contains(QLatin1String("Read-only"), Qt::CaseInsensitive))
            return finish(makeError(ErrorCode::InvalidArgument,
                                    tr("Cannot upload into '%1': it is read-only (%2).").arg(m_remoteDir, err)));
        if (err.contains(QLatin1String("No such file"), Qt::CaseInsensitive) ||
            err.contains(QLatin1String("can't change directory")))
            return finish(makeError(
                ErrorCode::NotFound,
                tr("The folder '%1' does not exist in session %2.").arg(m_remoteDir, m_containerId.left(12))));
        finish(makeError(ErrorCode::Internal,
                         tr("Upload into '%1' failed (tar exited with %2): %3").arg(m_remoteDir).arg(*code).arg(err)));
    });
    m_exec->start();
}

void DockerUploadJob::sent()
{
    reportProgress();
    if (m_staging.isEmpty())
        return finish({});
    finalize();
}

void DockerUploadJob::finalize(bool withT)
{
    if (!m_api)
        return finish(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
    // A user's tar merges its staging folder's entries into the destination folder itself.
    const auto target = m_tar ? Result<QString>(m_remoteDir) : files::remoteJoin(m_remoteDir, m_name);
    if (!target)
        return finish(target.error());
    const QString staged = files::remoteJoin(m_remoteDir, m_staging).valueOr({});
    // rename(2) within one folder: the final name shows the whole item or nothing. -T keeps
    // mv from moving the item into a link to a folder already under that name.
    QStringList argv{QStringLiteral("mv"), QStringLiteral("-f"), QStringLiteral("--"), staged, *target};
    if (withT)
        argv.insert(2, QStringLiteral("-T"));
    if (m_merge)
        argv = QStringList{
            QStringLiteral("sh"), QStringLiteral("-c"), kMergeScript, QStringLiteral("sh"), staged, *target};
    runExec(m_api, m_containerId, argvRequest(argv),
            Callback<ExecOutput>(this,
                                 [this, target = *target, withT](Result<ExecOutput> r) {
                                     if (m_done)
                                         return;
                                     if (!r)
                                         return finish(r.error());
                                     // An mv without -T (old BusyBox): the probe found no folder there to move into.
                                     if (r->exitCode != 0 && withT && !m_merge && r->stderrData.contains("option"))
                                         return finalize(false);
                                     if (r->exitCode != 0)
                                         return finish(makeError(
                                             ErrorCode::Internal,
                                             tr("Could not put the uploaded item in place as '%1': %2")
                                                 .arg(target, QString::fromUtf8(r->stderrData.left(4096)).trimmed())));
                                     finish({});
                                 }),
            kSmallAnswer);
}

void DockerUploadJob::reportProgress()
{
    if (m_source)
        emitProgress(m_source->fileBytesDone(), m_source->totalFileBytes());
    else if (m_tar)
        emitProgress(m_tar->pos(), m_tar->isSequential() ? -1 : m_tar->size());
}

void DockerUploadJob::cancel()
{
    if (m_exchange)
        m_exchange->abort();
    if (m_exec)
        m_exec->cancel();
    finish(makeError(ErrorCode::Cancelled, tr("The upload was cancelled.")));
}

void DockerUploadJob::finish(const VoidResult &result)
{
    if (m_done)
        return;
    m_done = true;
    // Best effort: with the engine gone this fails too, and the next upload into the folder
    // sweeps the leftover once it is an hour old. The API outlives this job.
    if (!result && !m_staging.isEmpty() && m_api) {
        if (const auto staged = files::remoteJoin(m_remoteDir, m_staging))
            runExec(m_api, m_containerId,
                    argvRequest({QStringLiteral("rm"), QStringLiteral("-rf"), QStringLiteral("--"), *staged}),
                    Callback<ExecOutput>(m_api.data(), [](const Result<ExecOutput> &) {}), kSmallAnswer);
    }
    Q_EMIT finished(result);
}

// ---- download ------------------------------------------------------------------------------

DockerDownloadJob::DockerDownloadJob(DockerApi *api, QString containerId, QString remotePath, QString localDir,
                                     QString name, QObject *parent)
    : TransferJob(parent)
    , m_api(api)
    , m_containerId(std::move(containerId))
    , m_remotePath(std::move(remotePath))
    , m_localDir(std::move(localDir))
    , m_name(std::move(name))
{
}

VoidResult DockerDownloadJob::consume(const QByteArray &bytes)
{
    if (m_out) {
        if (m_out->write(bytes) != bytes.size())
            return makeError(ErrorCode::Internal, tr("Writing the tar stream failed: %1").arg(m_out->errorString()));
        m_written += bytes.size();
        emitProgress(m_written, -1);
        return {};
    }
    auto r = m_extractor->feed(bytes);
    emitProgress(m_extractor->fileBytesWritten(), m_total);
    return r;
}

VoidResult DockerDownloadJob::endOfStream()
{
    return m_out ? VoidResult{} : m_extractor->finish();
}

DockerDownloadJob::~DockerDownloadJob() = default;

void DockerDownloadJob::start()
{
    // A refusal is reported after start() returns, as an engine's answer would be.
    const auto finishLater = [this](const Error &e) { QTimer::singleShot(0, this, [this, e] { finish(e); }); };
    auto path = files::normalizeRemotePath(m_remotePath);
    if (!path)
        return finishLater(path.error());
    m_remotePath = *path;
    if (!m_api)
        return finishLater(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
    m_extractor = std::make_unique<files::TarExtractor>(m_localDir);
    m_extractor->setRootName(m_name);
    m_api->call("GET", "/containers/" + DockerApi::enc(m_containerId) + "/json", {},
                Callback<net::HttpResponse>(this, [this](Result<net::HttpResponse> r) {
                    if (!r)
                        return finish(r.error());
                    if (r->status == 404)
                        return finish(DockerApi::sessionGone(m_containerId));
                    if (!r->isSuccess())
                        return finish(errorFromStatus(r->status, r->body, tr("Download failed")));
                    bool underTmpfs = false;
                    if (!m_api->engine().podman) {
                        for (const QString &mount : tmpfsMountsFromInspect(r->body).valueOr({}) + kImplicitTmpfs)
                            underTmpfs = underTmpfs || files::remoteIsWithin(m_remotePath, mount);
                    }
                    underTmpfs ? viaExec() : viaArchive();
                }));
}

void DockerDownloadJob::viaArchive()
{
    auto req = m_api->request("GET", "/containers/" + DockerApi::enc(m_containerId) +
                                         "/archive?path=" + DockerApi::enc(m_remotePath));
    req.idleTimeout = std::chrono::seconds(120);
    m_exchange = m_api->exchange(req, this);
    connect(m_exchange, &net::HttpExchange::headersReceived, this, [this](const net::HttpResponse &head) {
        const QByteArray stat = QByteArray::fromBase64(head.header("X-Docker-Container-Path-Stat"));
        const auto j = json::parse(stat.constData(), stat.constData() + stat.size(), nullptr, false);
        if (j.is_object() && j.contains("mode") && j["mode"].is_number()) {
            const bool isDir = (j["mode"].get<quint64>() & 0x80000000ULL) != 0;
            if (!isDir && j.contains("size") && j["size"].is_number())
                m_total = j["size"].get<qint64>();
        }
    });
    connect(m_exchange, &net::HttpExchange::bodyData, this, [this](const QByteArray &b) {
        if (m_exchange->response().status != 200) {
            m_errorBody += b.left(4096);
            return;
        }
        if (auto r = consume(b); !r) {
            m_exchange->abort();
            return finish(r);
        }
    });
    connect(m_exchange, &net::HttpExchange::finished, this, [this](const VoidResult &r) {
        if (!r)
            return finish(r);
        const int status = m_exchange->response().status;
        if (status == 404 && isNoSuchContainer(m_errorBody))
            return finish(DockerApi::sessionGone(m_containerId));
        if (status == 404)
            return finish(
                makeError(ErrorCode::NotFound,
                          tr("'%1' does not exist in session %2.").arg(m_remotePath, m_containerId.left(12))));
        if (status != 200)
            return finish(errorFromStatus(status, m_errorBody, tr("Download of '%1' failed").arg(m_remotePath)));
        finish(endOfStream());
    });
    m_exchange->start();
}

void DockerDownloadJob::viaExec()
{
    ExecRequest req;
    req.argv = QStringList{QStringLiteral("tar"), QStringLiteral("-c"),
                           QStringLiteral("-f"),  QStringLiteral("-"),
                           QStringLiteral("-C"),  files::remoteParent(m_remotePath),
                           QStringLiteral("--"),  files::remoteBaseName(m_remotePath)};
    m_exec = new DockerExecJob(m_api, m_containerId, req, this);
    connect(m_exec, &ExecJob::stdoutData, this, [this](const QByteArray &b) {
        if (m_done)
            return;
        if (auto r = consume(b); !r) {
            m_exec->cancel();
            return finish(r);
        }
    });
    connect(m_exec, &ExecJob::stderrData, this, [this](const QByteArray &b) { m_execErr += b.left(4096); });
    connect(m_exec, &ExecJob::finished, this, [this](const Result<int> &code) {
        if (!code)
            return finish(code.error());
        const QString err = QString::fromUtf8(m_execErr).trimmed();
        if (*code != 0 && err.contains(QLatin1String("No such file"), Qt::CaseInsensitive))
            return finish(
                makeError(ErrorCode::NotFound,
                          tr("'%1' does not exist in session %2.").arg(m_remotePath, m_containerId.left(12))));
        if (*code != 0)
            return finish(makeError(
                ErrorCode::Internal,
                tr("Download of '%1' failed (tar exited with %2): %3").arg(m_remotePath).arg(*code).arg(err)));
        finish(endOfStream());
    });
    m_exec->start();
}

void DockerDownloadJob::cancel()
{
    if (m_exchange)
        m_exchange->abort();
    if (m_exec)
        m_exec->cancel();
    finish(makeError(ErrorCode::Cancelled, tr("The download was cancelled.")));
}

void DockerDownloadJob::finish(const VoidResult &result)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT finished(result);
}

// ---- stat ----------------------------------------------------------------------------------

namespace {
void statThroughExec(DockerApi *api, const QString &containerId, const QString &path, Callback<PathStat> done)
{
    auto test = [](const char *flag, const QString &p) {
        ExecRequest req;
        req.argv = QStringList{QStringLiteral("test"), QLatin1String(flag), p};
        return req;
    };
    QPointer<DockerApi> guard(api);
    runExec(api, containerId, test("-d", path), Callback<ExecOutput>(done.context(), [=](Result<ExecOutput> isDir) {
                if (!isDir)
                    return done(isDir.error());
                if (isDir->exitCode == 0)
                    return done(PathStat{true, true});
                if (!guard)
                    return done(makeError(ErrorCode::Unavailable, DockerUploadJob::tr("The provider is gone.")));
                runExec(guard, containerId, test("-e", path),
                        Callback<ExecOutput>(done.context(), [=](Result<ExecOutput> exists) {
                            if (!exists)
                                return done(exists.error());
                            done(PathStat{exists->exitCode == 0, false});
                        }));
            }));
}
// HEAD /archive: the engine's lstat of the path. A symbolic link is followed (once) to what it
// names, as docker cp does for a destination: a link to a folder receives the item.
void headStat(QPointer<DockerApi> api, const QString &containerId, const QString &path, Callback<PathStat> done,
              int linksLeft)
{
    if (!api)
        return done(makeError(ErrorCode::Unavailable, DockerUploadJob::tr("The provider is gone.")));
    api->call("HEAD", "/containers/" + DockerApi::enc(containerId) + "/archive?path=" + DockerApi::enc(path), {},
              Callback<net::HttpResponse>(done.context(), [=](Result<net::HttpResponse> head) {
                  if (!head)
                      return done(head.error());
                  if (head->status == 404)
                      return done(PathStat{});
                  if (!head->isSuccess())
                      return done(errorFromStatus(head->status, head->body,
                                                  DockerUploadJob::tr("Looking up '%1' failed").arg(path)));
                  const QByteArray stat = QByteArray::fromBase64(head->header("X-Docker-Container-Path-Stat"));
                  const auto j = json::parse(stat.constData(), stat.constData() + stat.size(), nullptr, false);
                  const quint64 mode =
                      j.is_object() && j.contains("mode") && j["mode"].is_number() ? j["mode"].get<quint64>() : 0;
                  const bool isLink = (mode & 0x08000000ULL) != 0; // Go's os.ModeSymlink
                  const QString target = j.is_object() && j.contains("linkTarget") && j["linkTarget"].is_string()
                                             ? QString::fromStdString(j["linkTarget"].get<std::string>())
                                             : QString();
                  if (isLink && linksLeft > 0 && target.startsWith(QLatin1Char('/')) && target != path)
                      return headStat(api, containerId, target, done, linksLeft - 1);
                  done(PathStat{true, (mode & 0x80000000ULL) != 0});
              }));
}
} // namespace

void statRemotePath(DockerApi *api, const QString &containerId, const QString &rawPath, Callback<PathStat> done)
{
    auto normalized = files::normalizeRemotePath(rawPath);
    if (!normalized)
        return done.post(normalized.error());
    const QString path = *normalized;
    if (!api)
        return done.post(makeError(ErrorCode::Unavailable, DockerUploadJob::tr("The provider is gone.")));
    QPointer<DockerApi> guard(api);
    // Inspect first: HEAD answers 404 alike for a missing container and a missing path.
    api->call("GET", "/containers/" + DockerApi::enc(containerId) + "/json", {},
              Callback<net::HttpResponse>(done.context(), [=](Result<net::HttpResponse> r) {
                  if (!r)
                      return done(r.error());
                  if (r->status == 404)
                      return done(DockerApi::sessionGone(containerId));
                  if (!r->isSuccess())
                      return done(
                          errorFromStatus(r->status, r->body, DockerUploadJob::tr("Looking up '%1' failed").arg(path)));
                  if (!guard)
                      return done(makeError(ErrorCode::Unavailable, DockerUploadJob::tr("The provider is gone.")));
                  if (!guard->engine().podman) {
                      for (const QString &mount : tmpfsMountsFromInspect(r->body).valueOr({}) + kImplicitTmpfs) {
                          if (files::remoteIsWithin(path, mount))
                              return statThroughExec(guard, containerId, path, done);
                      }
                  }
                  headStat(guard, containerId, path, done, 1);
              }));
}

} // namespace sandbar::docker
