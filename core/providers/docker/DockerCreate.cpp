// DockerProvider's create path: the checks on a CreateSpec, the container's labels, host
// configuration and body, then create (pulling the image when the engine lacks it) and start.
#include "files/TarFolder.h"
#include "providers/docker/DockerGpu.h"
#include "providers/docker/DockerParsers.h"
#include "providers/docker/DockerPorts.h"
#include "providers/docker/DockerProvider.h"
#include "providers/docker/JsonFields.h"
#include "providers/docker/PodmanSeccomp.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <nlohmann/json.hpp>

namespace sandbar::docker {

using nlohmann::json;

namespace {
constexpr qint64 kMinMemory = 6 * 1024 * 1024;

// "/a,/b:size=1m,mode=1777": a comma starts a new path only when a '/' follows, so mount
// options keep their own commas.
QStringList tmpfsList(const QVariant &v)
{
    if (v.typeId() == QMetaType::QStringList || v.typeId() == QMetaType::QVariantList)
        return v.toStringList();
    QStringList out;
    for (const QString &part : v.toString().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString t = part.trimmed();
        if (t.startsWith(QLatin1Char('/')) || out.isEmpty())
            out << t;
        else
            out.last() += QLatin1Char(',') + t;
    }
    return out;
}

// Docker names allow [a-zA-Z0-9][a-zA-Z0-9_.-]*; anything else is left to the label.
QString containerName(const QString &name)
{
    static const QRegularExpression valid(QStringLiteral("^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127}$"));
    return valid.match(name).hasMatch() ? name : QString();
}

bool wantsGpus(const CreateSpec &spec)
{
    return spec.gpus != 0 || !spec.gpuUuids.isEmpty();
}

VoidResult checkCreateSpec(const CreateSpec &spec, bool podman)
{
    if (spec.image.trimmed().isEmpty())
        return makeError(ErrorCode::InvalidArgument, DockerProvider::tr("Choose an image for the session."));
    // Podman's compatible API answers 201 and attaches no GPU (podman#22645): refuse.
    if (wantsGpus(spec) && podman)
        return makeError(ErrorCode::Unsupported,
                         DockerProvider::tr("Podman's Docker-compatible API ignores GPU requests; use podman with CDI "
                                            "(podman run --device nvidia.com/gpu=all) outside Sandbar, or create the "
                                            "session without GPUs."));
    if (spec.memoryBytes && *spec.memoryBytes < kMinMemory)
        return makeError(ErrorCode::InvalidArgument, DockerProvider::tr("The memory limit must be at least 6 MiB."));
    if (spec.cpus && *spec.cpus <= 0)
        return makeError(ErrorCode::InvalidArgument, DockerProvider::tr("The CPU limit must be more than zero."));
    return {};
}

json createLabels(const CreateSpec &spec, const QString &account, const QDateTime &now)
{
    json lbl = json::object();
    for (auto it = spec.labels.begin(); it != spec.labels.end(); ++it)
        lbl[it.key().toStdString()] = it.value().toStdString();
    lbl[labels::App] = labels::AppValue;
    lbl[labels::Account] = account.toStdString();
    lbl[labels::Created] = now.toString(Qt::ISODate).toStdString();
    lbl[labels::Ttl] = std::to_string(qMax<qint64>(0, spec.ttlSeconds));
    if (!spec.name.isEmpty())
        lbl[labels::Name] = spec.name.toStdString();
    return lbl;
}

VoidResult addBindMounts(const CreateSpec &spec, json &host)
{
    json mounts = json::array();
    const bool allReadOnly = spec.options.value(QStringLiteral("readOnlyMounts")).toBool();
    for (const MountSpec &m : spec.mounts) {
        if (!m.sessionPath.startsWith(QLatin1Char('/')))
            return makeError(ErrorCode::InvalidArgument,
                             DockerProvider::tr("The mount target '%1' is not absolute.").arg(m.sessionPath));
        mounts.push_back({{"Type", "bind"},
                          {"Source", QDir(m.hostPath).absolutePath().toStdString()},
                          {"Target", m.sessionPath.toStdString()},
                          {"ReadOnly", m.readOnly || allReadOnly}});
    }
    if (!mounts.empty())
        host["Mounts"] = mounts;
    return {};
}

VoidResult addTmpfs(const CreateSpec &spec, json &host)
{
    json tmpfs = json::object();
    for (const QString &t : tmpfsList(spec.options.value(QStringLiteral("tmpfs")))) {
        const auto colon = t.indexOf(QLatin1Char(':'));
        const QString target = colon < 0 ? t : t.left(colon);
        if (!target.startsWith(QLatin1Char('/')))
            return makeError(ErrorCode::InvalidArgument,
                             DockerProvider::tr("The tmpfs path '%1' is not absolute.").arg(target));
        tmpfs[target.toStdString()] = colon < 0 ? std::string("rw,nosuid,nodev") : t.mid(colon + 1).toStdString();
    }
    if (!tmpfs.empty())
        host["Tmpfs"] = tmpfs;
    return {};
}

Result<json> hostConfig(const CreateSpec &spec)
{
    json host{{"NetworkMode", spec.network ? "bridge" : "none"},
              {"CapDrop", {"ALL"}},
              {"SecurityOpt", {"no-new-privileges"}},
              {"Init", true},
              {"RestartPolicy", {{"Name", "no"}}}};
    if (spec.cpus)
        host["NanoCpus"] = qint64(*spec.cpus * 1e9);
    if (spec.memoryBytes) {
        host["Memory"] = *spec.memoryBytes;
        host["MemorySwap"] = *spec.memoryBytes;
    }
    if (spec.pidsLimit)
        host["PidsLimit"] = *spec.pidsLimit;
    if (spec.options.value(QStringLiteral("readOnlyRoot")).toBool())
        host["ReadonlyRootfs"] = true;
    if (auto m = addBindMounts(spec, host); !m)
        return m.error();
    if (auto t = addTmpfs(spec, host); !t)
        return t.error();
    if (wantsGpus(spec)) {
        const QByteArray requests = gpuDeviceRequests(spec.gpus, spec.gpuUuids);
        host["DeviceRequests"] = json::parse(requests.constData(), requests.constData() + requests.size());
    }
    return host;
}

json containerBody(const CreateSpec &spec, const json &lbl, const json &host, qint64 deadline)
{
    const QString workdir = spec.options.value(QStringLiteral("workdir"), QStringLiteral("/workspace")).toString();
    return json{{"Image", spec.image.toStdString()},
                {"Labels", lbl},
                {"Entrypoint", {"/bin/sh"}},
                {"Cmd", jsonStrings({QStringLiteral("-c"), keepAliveScript(), QStringLiteral("sandbar-keepalive"),
                                     QString::number(deadline)})},
                {"WorkingDir", workdir.toStdString()},
                {"User", (spec.user.isEmpty() ? QStringLiteral("1000:1000") : spec.user).toStdString()},
                {"Tty", false},
                {"OpenStdin", false},
                {"StopTimeout", 5},
                {"HostConfig", host}};
}
} // namespace

void DockerProvider::create(const CreateSpec &spec, Callback<SessionInfo> done)
{
    m_api->ensureReady(Callback<EngineInfo>(done.context(), [this, spec, done](Result<EngineInfo> engine) {
        if (!engine)
            return done(engine.error());
        if (auto ok = checkCreateSpec(spec, engine->podman); !ok)
            return done(ok.error());
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const qint64 deadline = spec.ttlSeconds > 0 ? now.toSecsSinceEpoch() + spec.ttlSeconds : 0;
        auto host = hostConfig(spec);
        if (!host)
            return done(host.error());
        json body = containerBody(spec, createLabels(spec, m_account, now), *host, deadline);
        if (!spec.env.isEmpty())
            body["Env"] = jsonStrings(spec.env);
        if (auto p = addPortBindings(spec.ports, spec.network, &body, &body["HostConfig"]); !p)
            return done(p.error());
        const Callback<SessionInfo> published = requirePublished(m_api, spec.ports, done);
        const QString name = containerName(spec.name);
        // Podman's default profile lets a session make user namespaces; Sandbar's refuses them
        // (PodmanSeccomp.h). Only an engine on this machine can read the profile's file: not
        // one over SSH, whose forwarded socket is local but whose file system is not.
        std::shared_ptr<QTemporaryFile> profile;
        if (engine->podman && m_api->endpoint().kind == net::Endpoint::Kind::Unix && m_remoteHost.isEmpty())
            profile = writePodmanSeccompProfile(m_dataDir);
        if (!profile)
            return createContainer(jsonBytes(body), spec.image, name, false, published);
        const QByteArray plain = jsonBytes(body);
        body["HostConfig"]["SecurityOpt"].push_back("seccomp=" + profile->fileName().toStdString());
        createContainer(
            jsonBytes(body), spec.image, name, false,
            Callback<SessionInfo>(
                done.context(), [this, profile, plain, image = spec.image, name, published](Result<SessionInfo> r) {
                    if (r || !isSeccompFileError(r.message().toUtf8()))
                        return published(std::move(r));
                    // An engine in a VM or behind a forwarded socket: its own default profile.
                    qWarning("Podman could not read Sandbar's seccomp profile; session %s keeps Podman's default, "
                             "which allows user namespaces",
                             qPrintable(name));
                    createContainer(plain, image, name, false, published);
                }));
    }));
}

void DockerProvider::createContainer(const QByteArray &body, const QString &image, const QString &name, bool pulled,
                                     Callback<SessionInfo> done)
{
    QByteArray path = "/containers/create";
    if (!name.isEmpty())
        path += "?name=" + DockerApi::enc(name);
    m_api->call(
        "POST", path, body,
        Callback<net::HttpResponse>(
            done.context(),
            [this, body, image, name, pulled, done](Result<net::HttpResponse> r) {
                if (!r)
                    return done(r.error());
                if (r->status == 404 && !pulled) {
                    return pullImage(
                        image, name, Callback<void>(done.context(), [this, body, image, name, done](VoidResult p) {
                            if (!p)
                                return done(
                                    makeError(ErrorCode::NotFound,
                                              tr("Image '%1' is not on the engine and could not be pulled: %2; run "
                                                 "`docker pull %1` or choose another image")
                                                  .arg(image, p.message())));
                            Q_EMIT createProgress(name, tr("Creating…"), 0, 0);
                            createContainer(body, image, name, true, done);
                        }));
                }
                if (r->status == 409)
                    return done(
                        makeError(ErrorCode::Conflict,
                                  tr("A session named '%1' already exists (%2).").arg(name, engineMessage(r->body))));
                if (!r->isSuccess())
                    return done(gpuDriverError(engineMessage(r->body))
                                    .value_or(errorFromStatus(r->status, r->body, tr("Creating the session failed"))));
                const auto j = json::parse(r->body.constData(), r->body.constData() + r->body.size(), nullptr, false);
                const std::string id = jsonText(j, "Id");
                if (id.empty())
                    return done(makeError(ErrorCode::Internal, tr("The engine did not return the new session's id.")));
                const QString created = QString::fromStdString(id);
                claimWorkingDir(created, body, Callback<void>(done.context(), [this, created, done](VoidResult) {
                                    startContainer(created, done);
                                }));
            }),
        DockerApi::kLifecycleTimeout);
}

void DockerProvider::claimWorkingDir(const QString &id, const QByteArray &body, Callback<void> done)
{
    const auto j = json::parse(body.constData(), body.constData() + body.size(), nullptr, false);
    const auto user = numericUser(QString::fromStdString(jsonText(j, "User")));
    const QString dir = QDir::cleanPath(QString::fromStdString(jsonText(j, "WorkingDir")));
    const QString parent = QFileInfo(dir).path();
    const QString name = QFileInfo(dir).fileName();
    // Podman makes it the user's already; root needs nothing; a name needs the image's passwd.
    if (m_api->engine().podman || !user || user->uid == 0 || !dir.startsWith(QLatin1Char('/')) || name.isEmpty())
        return done.post(VoidResult{});
    const QByteArray path = "/containers/" + DockerApi::enc(id) + "/archive?path=";
    // Before the start, so that nothing in the session has seen the folder as root's; only an
    // empty folder (a tar of itself alone: one the engine made, not the image's /etc), and only
    // its owner changes: its mode is kept.
    net::HttpRequest get = m_api->request("GET", path + DockerApi::enc(dir));
    get.maxBufferedBody = 64 * 1024;
    m_api->send(get, Callback<net::HttpResponse>(done.context(), [this, path, parent, name, user, id,
                                                                  done](Result<net::HttpResponse> r) {
                    const auto mode = r && r->status == 200
                                          ? folderModeFromPathStat(r->header("X-Docker-Container-Path-Stat"))
                                          : std::nullopt;
                    if (!mode || files::tarEntryCount(r->body) != 1)
                        return done(VoidResult{});
                    auto tar = files::folderEntryTar(name, user->uid, user->gid, *mode);
                    if (!tar)
                        return done(VoidResult{});
                    m_api->call("PUT", path + DockerApi::enc(parent), *tar,
                                Callback<net::HttpResponse>(done.context(), [id, done](Result<net::HttpResponse> put) {
                                    if (!put || !put->isSuccess())
                                        qInfo("Session %s keeps its working folder as the engine made it: %s",
                                              qPrintable(id.left(12)),
                                              qPrintable(put ? QString::fromUtf8(put->body.left(200)) : put.message()));
                                    done(VoidResult{});
                                }));
                }));
}

void DockerProvider::startContainer(const QString &id, Callback<SessionInfo> done)
{
    m_api->call("POST", "/containers/" + DockerApi::enc(id) + "/start", {},
                Callback<net::HttpResponse>(
                    done.context(),
                    [this, id, done](Result<net::HttpResponse> r) {
                        if (r && (r->isSuccess() || r->status == 304))
                            return info(id, done);
                        Error error =
                            r ? errorFromStatus(r->status, r->body, tr("Starting the session failed")) : r.error();
                        // The daemon checks a GPU request's driver only when the container starts.
                        if (r)
                            error = gpuDriverError(engineMessage(r->body)).value_or(error);
                        // A container that cannot start is of no use; do not leave it behind. The
                        // answer waits for the removal: sandbarctl exits as soon as it has it.
                        m_api->call("DELETE", "/containers/" + DockerApi::enc(id) + "?force=true&v=true", {},
                                    Callback<net::HttpResponse>(
                                        this, [done, error](Result<net::HttpResponse>) { done(error); }),
                                    DockerApi::kLifecycleTimeout);
                    }),
                DockerApi::kLifecycleTimeout);
}
} // namespace sandbar::docker
