#include "MemoryProvider.h"

#include "providers/CopyJob.h"
#include "terminal/PtyChannel.h"

#include <QTimer>

namespace sandbar::test {

namespace {

// Jobs that report `error` once started, later, as a real one would.
class FailingPty final : public PtyChannel
{
public:
    explicit FailingPty(Error error)
        : m_error(std::move(error))
    {
    }
    void start() override
    {
        QTimer::singleShot(0, this, [this]() { Q_EMIT errorOccurred(m_error); });
    }
    void write(const QByteArray &) override {}
    void resize(int, int) override {}
    void close() override {}
    bool isOpen() const override { return false; }
    std::optional<int> exitCode() const override { return std::nullopt; }

private:
    Error m_error;
};

class FailingExec final : public ExecJob
{
public:
    explicit FailingExec(Error error)
        : m_error(std::move(error))
    {
    }
    void start() override
    {
        QTimer::singleShot(0, this, [this]() { Q_EMIT finished(Result<int>(m_error)); });
    }
    void cancel() override {}

private:
    Error m_error;
};

class FailingStats final : public StatsStream
{
public:
    explicit FailingStats(Error error)
        : m_error(std::move(error))
    {
    }
    void start() override
    {
        QTimer::singleShot(0, this, [this]() { Q_EMIT errorOccurred(m_error); });
    }
    void stop() override {}

private:
    Error m_error;
};

class FailingLogs final : public LogStream
{
public:
    explicit FailingLogs(Error error)
        : m_error(std::move(error))
    {
    }
    void start() override
    {
        QTimer::singleShot(0, this, [this]() { Q_EMIT finished(m_error); });
    }
    void stop() override {}

private:
    Error m_error;
};

// A command's output as MemoryProvider holds it: at once, then the end when the command ends.
class MemoryOutput final : public LogStream
{
public:
    MemoryOutput(QString commandId, QByteArray output, bool running)
        : commandId(std::move(commandId))
        , m_output(std::move(output))
        , m_running(running)
    {
    }
    void start() override
    {
        QTimer::singleShot(0, this, [this]() {
            if (!m_output.isEmpty())
                Q_EMIT data(m_output, 1);
            if (!m_running)
                end();
        });
    }
    void stop() override { m_done = true; }
    void end()
    {
        if (!std::exchange(m_done, true))
            Q_EMIT finished(VoidResult{});
    }
    const QString commandId;

private:
    QByteArray m_output;
    bool m_running = true;
    bool m_done = false;
};

} // namespace

MemoryProvider::MemoryProvider(const ProviderDescriptor &desc, QString account, QObject *parent)
    : Provider(parent)
    , m_desc(desc)
    , m_account(std::move(account))
{
    offer(desc.capabilities);
}

void MemoryProvider::offer(Capabilities caps)
{
    m_offered = caps;
    const auto has = [caps](quint32 bits) { return (quint32(caps.toInt()) & bits) != 0; };
    Facets f;
    f.terminals = caps.testFlag(Capability::Pty) ? this : nullptr;
    f.exec = caps.testFlag(Capability::Exec) ? this : nullptr;
    f.files = caps.testFlag(Capability::Files) ? this : nullptr;
    f.stats = has(kStatsFlags) ? this : nullptr;
    f.logs = caps.testFlag(Capability::Logs) ? this : nullptr;
    f.images = caps.testFlag(Capability::Images) ? this : nullptr;
    f.pause = caps.testFlag(Capability::PauseResume) ? this : nullptr;
    f.archive = caps.testFlag(Capability::Archive) ? this : nullptr;
    f.timeLimit = caps.testFlag(Capability::SetTimeout) ? this : nullptr;
    f.snapshots = caps.testFlag(Capability::Snapshots) ? this : nullptr;
    f.fork = caps.testFlag(Capability::Fork) ? this : nullptr;
    f.settings = caps.testFlag(Capability::Settings) ? this : nullptr;
    f.background = caps.testFlag(Capability::Background) ? this : nullptr;
    f.labels = caps.testFlag(Capability::Labels) ? this : nullptr;
    setFacets(f);
}

Capabilities MemoryProvider::coreCapabilities() const
{
    note("coreCapabilities");
    return m_offered & ~Capabilities::fromInt(kFacetFlags);
}

QString MemoryProvider::accountName() const
{
    note("accountName");
    return m_account;
}

Error MemoryProvider::unsupported(Capability cap) const
{
    return unsupportedError(m_desc, cap);
}

void MemoryProvider::health(Callback<HealthInfo> done)
{
    note("health");
    if (healthHook)
        return healthHook(std::move(done));
    done.post(HealthInfo{QStringLiteral("Memory"),
                         QStringLiteral("1"),
                         QStringLiteral("1"),
                         QStringLiteral("test"),
                         QStringLiteral("memory://"),
                         {}});
}

void MemoryProvider::listSessions(const ListOptions &, Callback<QList<SessionInfo>> done)
{
    note("listSessions");
    if (failListing)
        return done.post(makeError(ErrorCode::Unavailable, QStringLiteral("memory provider is down")));
    QList<SessionInfo> out = m_sessions.values();
    if (listWithoutLimits) {
        for (SessionInfo &s : out) {
            s.cpus.reset();
            s.memoryBytes.reset();
            s.gpus = 0;
            s.gpuUuids.clear();
        }
    }
    done.post(out);
}

void MemoryProvider::create(const CreateSpec &spec, Callback<SessionInfo> done)
{
    note("create");
    if (createHook && createHook(spec, done))
        return;
    SessionInfo s;
    s.id = QStringLiteral("m%1").arg(m_next++, 4, 10, QLatin1Char('0'));
    s.account = m_account;
    s.provider = m_desc.id;
    s.name = spec.name;
    s.image = spec.image;
    s.state = SessionState::Running;
    s.created = QDateTime::currentDateTimeUtc();
    s.ttlSeconds = spec.ttlSeconds;
    if (spec.ttlSeconds > 0)
        s.expiresAt = s.created.addSecs(spec.ttlSeconds);
    s.cpus = spec.cpus;
    s.memoryBytes = spec.memoryBytes;
    s.network = spec.network;
    s.gpus = spec.gpus;
    s.gpuUuids = spec.gpuUuids;
    s.owned = true;
    s.labels.insert(QLatin1String(labels::App), QLatin1String(labels::AppValue));
    s.labels.insert(QLatin1String(labels::Account), m_account);
    m_sessions.insert(s.id, s);
    done.post(s);
}

void MemoryProvider::info(const QString &id, Callback<SessionInfo> done)
{
    note("info");
    for (const auto &s : m_sessions) {
        if (s.id == id || (!id.isEmpty() && s.id.startsWith(id)) || (!s.name.isEmpty() && s.name == id))
            return done.post(s);
    }
    done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
}

void MemoryProvider::adopt(const QString &id, Callback<SessionInfo> done)
{
    note("adopt");
    if (!m_offered.testFlag(Capability::Adopt))
        return done.post(unsupported(Capability::Adopt));
    if (!m_sessions.contains(id))
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    SessionInfo &s = m_sessions[id];
    s.owned = true;
    s.labels.insert(QLatin1String(labels::App), QLatin1String(labels::AppValue));
    s.labels.insert(QLatin1String(labels::Account), m_account);
    done.post(s);
}

HostProcessMatch MemoryProvider::hostProcessMatch(const QString &id) const
{
    note("hostProcessMatch");
    return hostMatch ? hostMatch(id) : HostProcessMatch{};
}

QString MemoryProvider::remoteHost() const
{
    note("remoteHost");
    return host;
}

VoidResult MemoryProvider::setState(const QString &id, SessionState state)
{
    if (failIds.contains(id))
        return makeError(ErrorCode::Conflict, QStringLiteral("refused by the memory provider (test)"));
    if (!m_sessions.contains(id))
        return makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id));
    m_sessions[id].state = state;
    Q_EMIT sessionChanged(m_sessions.value(id));
    return {};
}

void MemoryProvider::stop(const QString &id, Callback<void> done)
{
    note("stop");
    done.post(setState(id, SessionState::Stopped));
}

void MemoryProvider::kill(const QString &id, Callback<void> done)
{
    note("kill");
    done.post(setState(id, SessionState::Stopped));
}

void MemoryProvider::remove(const QString &id, Callback<void> done)
{
    note("remove");
    if (failIds.contains(id))
        return done.post(makeError(ErrorCode::Conflict, QStringLiteral("refused by the memory provider (test)")));
    if (!m_sessions.remove(id))
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    Q_EMIT sessionRemoved(id);
    done.post(VoidResult{});
}

void MemoryProvider::pause(const QString &id, Callback<void> done)
{
    note("pause");
    done.post(setState(id, SessionState::Paused));
}

void MemoryProvider::resume(const QString &id, Callback<void> done)
{
    note("resume");
    done.post(setState(id, SessionState::Running));
}

void MemoryProvider::archive(const QString &id, Callback<void> done)
{
    note("archive");
    // An archived session shows as paused, as Daytona's does: resume brings it back.
    done.post(setState(id, SessionState::Paused));
}

void MemoryProvider::listSnapshots(const QString &id, Callback<QList<SnapshotEntry>> done)
{
    note("listSnapshots");
    if (!m_sessions.contains(id))
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    done.post(m_snapshots.value(id));
}

void MemoryProvider::createSnapshot(const QString &id, const QString &comment, Callback<SnapshotEntry> done)
{
    note("createSnapshot");
    if (!m_sessions.contains(id))
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    const SnapshotEntry e{QStringLiteral("snap-%1").arg(m_snapshots.value(id).size() + 1),
                          QDateTime::currentDateTimeUtc(), comment};
    m_snapshots[id].prepend(e);
    done.post(e);
}

void MemoryProvider::forkOrigin(const QString &id, Callback<QString> done)
{
    note("forkOrigin");
    if (!m_sessions.contains(id))
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    done.post(QStringLiteral("Copies the files as they are now."));
}

void MemoryProvider::fork(const QString &id, const ForkSpec &spec, Callback<SessionInfo> done)
{
    note("fork");
    if (!m_sessions.contains(id))
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    SessionInfo copy = m_sessions.value(id);
    copy.id = spec.name.isEmpty() ? id + QStringLiteral("-fork") : spec.name;
    copy.labels.insert(spec.labels);
    copy.name = copy.id;
    copy.state = SessionState::Running;
    m_sessions.insert(copy.id, copy);
    done.post(copy);
}

void MemoryProvider::changeSettings(const QString &id, const QVariantMap &values, Callback<SessionInfo> done)
{
    note("changeSettings");
    if (!m_sessions.contains(id))
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    SessionInfo &s = m_sessions[id];
    s.settings.insert(values);
    done.post(s);
}

void MemoryProvider::startBackground(const QString &id, const ExecRequest &request, Callback<BackgroundCommand> done)
{
    note("startBackground");
    if (!m_sessions.contains(id))
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    BackgroundCommand c;
    c.id = QStringLiteral("cmd-%1").arg(m_next++);
    c.argv = request.argv;
    c.started = QDateTime::currentDateTimeUtc();
    m_background[id].prepend(c);
    done.post(c);
}

void MemoryProvider::listBackground(const QString &id, Callback<QList<BackgroundCommand>> done)
{
    note("listBackground");
    done.post(m_background.value(id));
}

std::unique_ptr<LogStream> MemoryProvider::backgroundOutput(const QString &id, const QString &commandId)
{
    note("backgroundOutput");
    const QList<BackgroundCommand> list = m_background.value(id);
    const auto it =
        std::find_if(list.cbegin(), list.cend(), [&](const BackgroundCommand &c) { return c.id == commandId; });
    auto out =
        std::make_unique<MemoryOutput>(commandId, backgroundOutputs.value(commandId), it != list.cend() && it->running);
    m_outputs << QPointer<LogStream>(out.get());
    return out;
}

void MemoryProvider::signalBackground(const QString &id, const QString &commandId, int signal, Callback<void> done)
{
    note("signalBackground");
    for (BackgroundCommand &c : m_background[id]) {
        if (c.id != commandId)
            continue;
        if (c.running) {
            c.running = false;
            c.exitCode = 128 + signal;
        }
        for (const QPointer<LogStream> &s : std::as_const(m_outputs)) {
            if (auto *out = static_cast<MemoryOutput *>(s.data()); out && out->commandId == commandId)
                QTimer::singleShot(0, out, [out]() { out->end(); });
        }
        return done.post(VoidResult{});
    }
    done.post(makeError(ErrorCode::NotFound, QStringLiteral("no command %1 in %2").arg(commandId, id)));
}

void MemoryProvider::setLabels(const QString &id, const QMap<QString, QString> &labels, Callback<SessionInfo> done)
{
    note("setLabels");
    if (!m_sessions.contains(id))
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    SessionInfo &s = m_sessions[id];
    QMap<QString, QString> all = labels;
    for (auto it = s.labels.cbegin(); it != s.labels.cend(); ++it) {
        if (labels::isSandbars(it.key()))
            all.insert(it.key(), it.value());
    }
    s.labels = all;
    done.post(s);
}

void MemoryProvider::restoreSnapshot(const QString &id, const QString &snapshotId, Callback<void> done)
{
    note("restoreSnapshot");
    if (!m_sessions.contains(id) || snapshotId.isEmpty())
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no snapshot %1 of %2").arg(snapshotId, id)));
    done.post(VoidResult{});
}

void MemoryProvider::setTimeout(const QString &id, qint64 ttl, Callback<void> done)
{
    note("setTimeout");
    if (!m_sessions.contains(id))
        return done.post(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    auto &s = m_sessions[id];
    s.ttlSeconds = ttl;
    s.expiresAt = ttl > 0 ? QDateTime::currentDateTimeUtc().addSecs(ttl) : QDateTime();
    done.post(VoidResult{});
}

Capabilities MemoryProvider::terminalFlags() const
{
    note("terminalFlags");
    return m_offered & Capabilities::fromInt(kTerminalFlags);
}

std::unique_ptr<PtyChannel> MemoryProvider::openPty(const QString &id, const PtyOptions &options)
{
    note("openPty");
    if (ptyHook)
        return ptyHook(id, options);
    return std::make_unique<FailingPty>(unsupported(Capability::Pty));
}

void MemoryProvider::listPtys(const QString &id, Callback<QList<PtyEntry>> done)
{
    note("listPtys");
    if (listPtysHook)
        return listPtysHook(id, std::move(done));
    done.post(unsupported(Capability::Reattach));
}

std::unique_ptr<ExecJob> MemoryProvider::exec(const QString &id, const ExecRequest &request)
{
    note("exec");
    if (execHook)
        return execHook(id, request);
    return std::make_unique<FailingExec>(unsupported(Capability::Exec));
}

bool MemoryProvider::keepsComments() const
{
    note("keepsComments");
    return keepsSnapshotComments;
}

Capabilities MemoryProvider::fileFlags() const
{
    note("fileFlags");
    return m_offered & Capabilities::fromInt(kFileFlags);
}

std::unique_ptr<TransferJob> MemoryProvider::upload(const QString &id, const QString &local, const QString &remoteDest)
{
    note("upload");
    if (uploadHook)
        return uploadHook(id, local, remoteDest);
    return std::make_unique<FailedTransferJob>(unsupported(Capability::Files));
}

std::unique_ptr<TransferJob> MemoryProvider::download(const QString &id, const QString &remote,
                                                      const QString &localDest)
{
    note("download");
    if (downloadHook)
        return downloadHook(id, remote, localDest);
    return std::make_unique<FailedTransferJob>(unsupported(Capability::Files));
}

std::unique_ptr<TransferJob> MemoryProvider::uploadTar(const QString &id, QIODevice *tar, const QString &remoteDir)
{
    note("uploadTar");
    if (uploadTarHook)
        return uploadTarHook(id, tar, remoteDir);
    return std::make_unique<FailedTransferJob>(unsupported(Capability::Files));
}

std::unique_ptr<TransferJob> MemoryProvider::downloadTar(const QString &id, const QString &remotePath, QIODevice *out)
{
    note("downloadTar");
    if (downloadTarHook)
        return downloadTarHook(id, remotePath, out);
    return std::make_unique<FailedTransferJob>(unsupported(Capability::Files));
}

void MemoryProvider::statPath(const QString &id, const QString &path, Callback<PathStat> done)
{
    note("statPath");
    if (statHook)
        return statHook(id, path, std::move(done));
    done.post(unsupported(Capability::Files));
}

void MemoryProvider::listFiles(const QString &id, const QString &path, Callback<QList<FileEntry>> done)
{
    note("listFiles");
    if (listFilesHook)
        return listFilesHook(id, path, std::move(done));
    done.post(unsupported(Capability::FileList));
}

void MemoryProvider::removePath(const QString &id, const QString &path, Callback<void> done)
{
    note("removePath");
    if (removePathHook)
        return removePathHook(id, path, std::move(done));
    done.post(unsupported(Capability::Files));
}

void MemoryProvider::makeDir(const QString &id, const QString &path, Callback<void> done)
{
    note("makeDir");
    if (makeDirHook)
        return makeDirHook(id, path, std::move(done));
    done.post(unsupported(Capability::Files));
}

void MemoryProvider::movePath(const QString &id, const QString &from, const QString &to, Callback<void> done)
{
    note("movePath");
    if (movePathHook)
        return movePathHook(id, from, to, std::move(done));
    done.post(unsupported(Capability::Files));
}

void MemoryProvider::setMode(const QString &id, const QString &path, quint32 mode, Callback<void> done)
{
    note("setMode");
    if (setModeHook)
        return setModeHook(id, path, mode, std::move(done));
    done.post(unsupported(Capability::Files));
}

Capabilities MemoryProvider::statsFlags() const
{
    note("statsFlags");
    return m_offered & Capabilities::fromInt(kStatsFlags);
}

Capabilities MemoryProvider::onceFlags() const
{
    note("onceFlags");
    return statsFlags() & ~Capabilities(Capability::StatsMemory);
}

void MemoryProvider::stats(const QString &id, Callback<StatsSample> done)
{
    note("stats");
    if (statsHook)
        return statsHook(id, std::move(done));
    done.post(unsupported(Capability::StatsCpu));
}

std::unique_ptr<StatsStream> MemoryProvider::streamStats(const QString &id)
{
    note("streamStats");
    if (streamHook)
        return streamHook(id);
    return std::make_unique<FailingStats>(unsupported(Capability::StatsStream));
}

std::unique_ptr<LogStream> MemoryProvider::logs(const QString &id, const LogOptions &options)
{
    note("logs");
    if (logsHook)
        return logsHook(id, options);
    return std::make_unique<FailingLogs>(unsupported(Capability::Logs));
}

void MemoryProvider::listImages(Callback<QStringList> done)
{
    note("listImages");
    if (listImagesHook)
        return listImagesHook(std::move(done));
    done.post(unsupported(Capability::Images));
}

MemoryProviderFactory::MemoryProviderFactory()
{
    m_desc.id = QStringLiteral("memory");
    m_desc.displayName = QStringLiteral("Memory");
    m_desc.description = QStringLiteral("Sessions that live in memory (tests)");
    m_desc.capabilities = Capability::PauseResume | Capability::SetTimeout | Capability::Kill;
    FieldDescriptor image;
    image.key = QLatin1String(createkeys::Image);
    image.label = QStringLiteral("Image");
    image.defaultValue = QStringLiteral("busybox");
    FieldDescriptor ttl;
    ttl.key = QLatin1String(createkeys::Ttl);
    ttl.label = QStringLiteral("Time to live");
    ttl.type = FieldType::Duration;
    // One option that can change later, for the window's Session settings… (offered with
    // Capability::Settings).
    FieldDescriptor pinned = changeable(makeField(QStringLiteral("pinned"), QStringLiteral("Pinned"),
                                                  QStringLiteral("Kept at the top"), FieldType::Boolean, false));
    m_desc.createOptions = {image, ttl, pinned};
    // Like an engine's account, one may say what its machine costs (the cost meter's tests).
    FieldDescriptor price;
    price.key = QLatin1String(kHostHourlyPriceField);
    price.label = QStringLiteral("Host price");
    price.type = FieldType::Number;
    m_desc.accountFields = {price};
}

Result<std::unique_ptr<Provider>> MemoryProviderFactory::create(const AccountConfig &account) const
{
    auto p = std::make_unique<MemoryProvider>(m_desc, account.name);
    made.insert(account.name, p.get());
    return std::unique_ptr<Provider>(std::move(p));
}

} // namespace sandbar::test
