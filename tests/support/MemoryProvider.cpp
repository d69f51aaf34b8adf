#include "MemoryProvider.h"

#include "terminal/PtyChannel.h"

#include <QTimer>

namespace sandbar::test {

namespace {

Error unsupported(const char *what)
{
    return makeError(ErrorCode::Unsupported, QStringLiteral("the memory provider has no %1").arg(QLatin1String(what)));
}

class FailingPty final : public PtyChannel
{
public:
    using PtyChannel::PtyChannel;
    void start() override
    {
        QTimer::singleShot(0, this, [this]() { Q_EMIT errorOccurred(unsupported("terminals")); });
    }
    void write(const QByteArray &) override {}
    void resize(int, int) override {}
    void close() override {}
    bool isOpen() const override { return false; }
    std::optional<int> exitCode() const override { return std::nullopt; }
};

class FailingExec final : public ExecJob
{
public:
    void start() override
    {
        QTimer::singleShot(0, this, [this]() { Q_EMIT finished(Result<int>(unsupported("exec"))); });
    }
    void cancel() override {}
};

class FailingTransfer final : public TransferJob
{
public:
    void start() override
    {
        QTimer::singleShot(0, this, [this]() { Q_EMIT finished(VoidResult(unsupported("files"))); });
    }
    void cancel() override {}
};

class FailingStats final : public StatsStream
{
public:
    void start() override
    {
        QTimer::singleShot(0, this, [this]() { Q_EMIT errorOccurred(unsupported("stats")); });
    }
    void stop() override {}
};

} // namespace

MemoryProvider::MemoryProvider(const ProviderDescriptor &desc, QString account, QObject *parent)
    : Provider(parent)
    , m_desc(desc)
    , m_account(std::move(account))
{
}

void MemoryProvider::health(Callback<HealthInfo> done)
{
    if (healthHook)
        return healthHook(std::move(done));
    done(HealthInfo{QStringLiteral("Memory"),
                    QStringLiteral("1"),
                    QStringLiteral("1"),
                    QStringLiteral("test"),
                    QStringLiteral("memory://"),
                    {}});
}

void MemoryProvider::listSessions(const ListOptions &, Callback<QList<SessionInfo>> done)
{
    if (failListing)
        return done(makeError(ErrorCode::Unavailable, QStringLiteral("memory provider is down")));
    QList<SessionInfo> out = m_sessions.values();
    if (listWithoutLimits) {
        for (SessionInfo &s : out) {
            s.cpus.reset();
            s.memoryBytes.reset();
            s.gpus = 0;
            s.gpuUuids.clear();
        }
    }
    done(out);
}

void MemoryProvider::create(const CreateSpec &spec, Callback<SessionInfo> done)
{
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
    done(s);
}

void MemoryProvider::info(const QString &id, Callback<SessionInfo> done)
{
    for (const auto &s : m_sessions) {
        if (s.id == id || (!id.isEmpty() && s.id.startsWith(id)) || (!s.name.isEmpty() && s.name == id))
            return done(s);
    }
    done(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
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
    done(setState(id, SessionState::Stopped));
}
void MemoryProvider::kill(const QString &id, Callback<void> done)
{
    done(setState(id, SessionState::Stopped));
}
void MemoryProvider::pause(const QString &id, Callback<void> done)
{
    done(setState(id, SessionState::Paused));
}
void MemoryProvider::resume(const QString &id, Callback<void> done)
{
    done(setState(id, SessionState::Running));
}

void MemoryProvider::remove(const QString &id, Callback<void> done)
{
    if (failIds.contains(id))
        return done(makeError(ErrorCode::Conflict, QStringLiteral("refused by the memory provider (test)")));
    if (!m_sessions.remove(id))
        return done(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    Q_EMIT sessionRemoved(id);
    done(VoidResult{});
}

void MemoryProvider::setTimeout(const QString &id, qint64 ttl, Callback<void> done)
{
    if (!m_sessions.contains(id))
        return done(makeError(ErrorCode::NotFound, QStringLiteral("no session %1").arg(id)));
    auto &s = m_sessions[id];
    s.ttlSeconds = ttl;
    s.expiresAt = ttl > 0 ? QDateTime::currentDateTimeUtc().addSecs(ttl) : QDateTime();
    done(VoidResult{});
}

std::unique_ptr<PtyChannel> MemoryProvider::openPty(const QString &id, const PtyOptions &options)
{
    if (ptyHook)
        return ptyHook(id, options);
    return std::make_unique<FailingPty>();
}

std::unique_ptr<ExecJob> MemoryProvider::exec(const QString &id, const ExecRequest &request)
{
    if (execHook)
        return execHook(id, request);
    return std::make_unique<FailingExec>();
}

std::unique_ptr<TransferJob> MemoryProvider::upload(const QString &, const QString &, const QString &)
{
    return std::make_unique<FailingTransfer>();
}

std::unique_ptr<TransferJob> MemoryProvider::download(const QString &, const QString &, const QString &)
{
    return std::make_unique<FailingTransfer>();
}

void MemoryProvider::listFiles(const QString &, const QString &, Callback<QList<FileEntry>> done)
{
    done(unsupported("files"));
}

void MemoryProvider::stats(const QString &id, Callback<StatsSample> done)
{
    if (statsHook)
        return statsHook(id, done);
    done(unsupported("stats"));
}

std::unique_ptr<StatsStream> MemoryProvider::streamStats(const QString &id)
{
    if (streamHook)
        return streamHook(id);
    return std::make_unique<FailingStats>();
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
    m_desc.createOptions = {image, ttl};
}

Result<std::unique_ptr<Provider>> MemoryProviderFactory::create(const AccountConfig &account) const
{
    auto p = std::make_unique<MemoryProvider>(m_desc, account.name);
    made.insert(account.name, p.get());
    return std::unique_ptr<Provider>(std::move(p));
}

} // namespace sandbar::test
