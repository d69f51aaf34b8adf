#include "providers/docker/DockerParsers.h"

#include "providers/docker/DockerPorts.h"
#include "providers/docker/DockerTr.h"

#include <QCoreApplication>
#include <QTimeZone>
#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace sandbar::docker {

using nlohmann::json;

namespace {
std::optional<json> parseJson(const QByteArray &bytes)
{
    if (bytes.trimmed().isEmpty())
        return std::nullopt;
    json j = json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    if (j.is_discarded())
        return std::nullopt;
    return j;
}

QString str(const json &j, const char *key)
{
    if (!j.is_object())
        return {};
    auto it = j.find(key);
    if (it == j.end() || !it->is_string())
        return {};
    return QString::fromStdString(it->get<std::string>());
}

qint64 num(const json &j, const char *key, qint64 fallback = 0)
{
    if (!j.is_object())
        return fallback;
    auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        return fallback;
    if (!it->is_number_float())
        return it->get<qint64>();
    // Converting a double out of qint64's range is undefined: an engine's 1e300 saturates.
    const double d = it->get<double>();
    return d >= 9.2e18    ? std::numeric_limits<qint64>::max()
           : d <= -9.2e18 ? std::numeric_limits<qint64>::min()
                          : qint64(d);
}

quint64 unum(const json &j, const char *key)
{
    if (!j.is_object())
        return 0;
    auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        return 0;
    return it->is_number_unsigned() ? it->get<quint64>() : quint64(qMax<qint64>(0, num(j, key)));
}

const json &sub(const json &j, const char *key)
{
    static const json null;
    if (!j.is_object())
        return null;
    auto it = j.find(key);
    return it == j.end() ? null : *it;
}

QMap<QString, QString> stringMap(const json &j)
{
    QMap<QString, QString> out;
    if (!j.is_object())
        return out;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_string())
            out.insert(QString::fromStdString(it.key()), QString::fromStdString(it.value().get<std::string>()));
    }
    return out;
}

// RFC 3339 with up to nanoseconds; Go's zero time means "never".
QDateTime parseTime(const QString &text)
{
    if (text.isEmpty() || text.startsWith(QLatin1String("0001-01-01")))
        return {};
    QString t = text;
    const auto dot = t.indexOf(QLatin1Char('.'));
    if (dot > 0) {
        qsizetype end = dot + 1;
        while (end < t.size() && t.at(end).isDigit())
            ++end;
        const QString frac = t.mid(dot + 1, end - dot - 1).left(3).leftJustified(3, QLatin1Char('0'));
        t = t.left(dot + 1) + frac + t.mid(end);
    }
    QDateTime dt = QDateTime::fromString(t, Qt::ISODateWithMs);
    return dt.isValid() ? dt.toUTC() : QDateTime();
}

void applyOwnership(SessionInfo *s, const MapContext &ctx)
{
    s->account = ctx.account;
    s->provider = ctx.providerId;
    s->owned = s->labels.value(QString::fromLatin1(labels::App)) == QLatin1String(labels::AppValue);
    if (const QString n = s->labels.value(QString::fromLatin1(labels::Name)); !n.isEmpty())
        s->name = n;
    if (const QDateTime c = QDateTime::fromString(s->labels.value(QString::fromLatin1(labels::Created)), Qt::ISODate);
        c.isValid())
        s->created = c.toUTC();
    s->ttlSeconds = s->labels.value(QString::fromLatin1(labels::Ttl)).toLongLong();
    if (s->ttlSeconds > 0 && s->created.isValid())
        s->expiresAt = s->created.addSecs(s->ttlSeconds);
}

QList<MountSpec> mountsFrom(const json &mounts)
{
    QList<MountSpec> out;
    if (!mounts.is_array())
        return out;
    for (const auto &m : mounts) {
        if (str(m, "Type") != QLatin1String("bind"))
            continue;
        MountSpec spec;
        spec.hostPath = str(m, "Source");
        spec.sessionPath = str(m, "Destination");
        const auto &rw = sub(m, "RW");
        spec.readOnly = rw.is_boolean() && !rw.get<bool>();
        out << spec;
    }
    return out;
}
} // namespace

std::optional<ApiVersion> ApiVersion::parse(const QByteArray &text)
{
    const QList<QByteArray> parts = text.trimmed().split('.');
    if (parts.size() != 2)
        return std::nullopt;
    bool ok1 = false, ok2 = false;
    ApiVersion v{parts.at(0).toInt(&ok1), parts.at(1).toInt(&ok2)};
    if (!ok1 || !ok2 || v.major < 0 || v.minor < 0)
        return std::nullopt;
    return v;
}

Result<ApiVersion> negotiateApiVersion(const QByteArray &header)
{
    const auto server = ApiVersion::parse(header);
    if (!server)
        return makeError(ErrorCode::Unsupported,
                         tr("The engine did not say which API version it speaks; Sandbar needs %1 or newer.")
                             .arg(kMinApi.toString()));
    if (*server < kMinApi)
        return makeError(
            ErrorCode::Unsupported,
            tr("engine speaks API %1; Sandbar needs %2 or newer").arg(server->toString(), kMinApi.toString()));
    return std::min(*server, kMaxApi);
}

QString engineMessage(const QByteArray &body)
{
    if (auto j = parseJson(body); j && j->is_object()) {
        const QString m = str(*j, "message");
        if (!m.isEmpty())
            return m;
    }
    return QString::fromUtf8(body.left(500)).trimmed();
}

Error errorFromStatus(int status, const QByteArray &body, const QString &what)
{
    ErrorCode code = ErrorCode::Internal;
    switch (status) {
    case 400: code = ErrorCode::InvalidArgument; break;
    case 401:
    case 403: code = ErrorCode::Unauthorized; break;
    case 404: code = ErrorCode::NotFound; break;
    case 304:
    case 409: code = ErrorCode::Conflict; break;
    case 501: code = ErrorCode::Unsupported; break;
    case 502:
    case 503: code = ErrorCode::Unavailable; break;
    default: break;
    }
    const QString msg = engineMessage(body);
    const QString detail = msg.isEmpty() ? tr("HTTP status %1").arg(status) : msg;
    return makeError(code, what.isEmpty() ? detail : tr("%1: %2").arg(what, detail));
}

QString StreamDemuxer::tr(const char *text)
{
    return QCoreApplication::translate("sandbar::docker::StreamDemuxer", text);
}

Result<QList<StreamDemuxer::Chunk>> StreamDemuxer::feed(const QByteArray &bytes)
{
    if (m_error)
        return *m_error;
    QList<Chunk> out;
    qsizetype pos = 0;
    while (pos < bytes.size()) {
        if (m_left == 0) {
            const qsizetype need = 8 - m_header.size();
            m_header.append(bytes.mid(pos, need));
            pos += qMin(need, bytes.size() - pos);
            if (m_header.size() < 8)
                break;
            const auto *h = reinterpret_cast<const unsigned char *>(m_header.constData());
            if (h[0] > 2 || h[1] != 0 || h[2] != 0 || h[3] != 0) {
                m_error = makeError(ErrorCode::Internal,
                                    tr("The engine sent a stream frame of unknown type %1.").arg(int(h[0])));
                return *m_error;
            }
            m_stream = h[0];
            m_left = (qint64(h[4]) << 24) | (qint64(h[5]) << 16) | (qint64(h[6]) << 8) | qint64(h[7]);
            m_header.clear();
            continue;
        }
        const qsizetype n = qMin<qint64>(m_left, bytes.size() - pos);
        if (!out.isEmpty() && out.last().stream == m_stream)
            out.last().data.append(bytes.constData() + pos, n);
        else
            out.append(Chunk{m_stream, bytes.mid(pos, n)});
        pos += n;
        m_left -= n;
    }
    return out;
}

SessionState stateFromDocker(const QString &status, int exitCode, bool hasError)
{
    Q_UNUSED(exitCode)
    if (status == QLatin1String("running"))
        return SessionState::Running;
    if (status == QLatin1String("paused"))
        return SessionState::Paused;
    if (status == QLatin1String("restarting") || status == QLatin1String("created"))
        return status == QLatin1String("created") ? SessionState::Stopped : SessionState::Creating;
    if (status == QLatin1String("removing"))
        return SessionState::Stopping;
    if (status == QLatin1String("dead"))
        return SessionState::Error;
    if (status == QLatin1String("exited") || status == QLatin1String("stopped") ||
        status == QLatin1String("configured"))
        return hasError ? SessionState::Error : SessionState::Stopped;
    return SessionState::Unknown;
}

Result<SessionInfo> sessionFromInspect(const QByteArray &body, const MapContext &ctx)
{
    const auto j = parseJson(body);
    if (!j || !j->is_object() || str(*j, "Id").isEmpty())
        return makeError(ErrorCode::Internal, tr("The engine sent an unreadable container description."));
    SessionInfo s;
    s.id = str(*j, "Id");
    s.name = str(*j, "Name");
    if (s.name.startsWith(QLatin1Char('/')))
        s.name.remove(0, 1);
    const json &config = sub(*j, "Config");
    const json &host = sub(*j, "HostConfig");
    const json &state = sub(*j, "State");
    s.image = str(config, "Image");
    s.labels = stringMap(sub(config, "Labels"));
    s.created = parseTime(str(*j, "Created"));
    const QString status = str(state, "Status");
    const int exitCode = int(num(state, "ExitCode"));
    const QString engineError = str(state, "Error");
    const bool oom = sub(state, "OOMKilled").is_boolean() && sub(state, "OOMKilled").get<bool>();
    s.state = stateFromDocker(status, exitCode, !engineError.isEmpty() || oom);
    s.statusText = status;
    if (status == QLatin1String("exited")) {
        s.statusText = tr("Exited (%1)").arg(exitCode);
        // 0 is a clean end (TTL reached); 137 and 143 follow our own kill and stop.
        if (exitCode != 0 && exitCode != 137 && exitCode != 143)
            s.errorMessage = tr("exited with code %1").arg(exitCode);
    }
    if (oom)
        s.errorMessage = tr("killed for running out of memory");
    if (!engineError.isEmpty())
        s.errorMessage = engineError;
    if (const qint64 nano = num(host, "NanoCpus"); nano > 0)
        s.cpus = double(nano) / 1e9;
    if (const qint64 mem = num(host, "Memory"); mem > 0)
        s.memoryBytes = mem;
    const QString netMode = str(host, "NetworkMode");
    s.network = !netMode.isEmpty() && netMode != QLatin1String("none");
    const json &devices = sub(host, "DeviceRequests");
    if (devices.is_array()) {
        for (const auto &d : devices) {
            const qint64 count = num(d, "Count");
            const json &ids = sub(d, "DeviceIDs");
            if (ids.is_array()) {
                for (const auto &id : ids) {
                    if (id.is_string())
                        s.gpuUuids << QString::fromStdString(id.get<std::string>());
                }
            }
            if (s.gpus >= 0)
                s.gpus = count < 0 ? -1 : s.gpus + int(count) + int(ids.is_array() ? ids.size() : 0);
        }
    }
    s.mounts = mountsFrom(sub(*j, "Mounts"));
    s.endpoints = endpointsFromInspectPorts(sub(sub(*j, "NetworkSettings"), "Ports"));
    s.rawJson = body;
    applyOwnership(&s, ctx);
    return s;
}

Result<QList<SessionInfo>> sessionsFromList(const QByteArray &body, const MapContext &ctx)
{
    const auto j = parseJson(body);
    if (!j || !j->is_array())
        return makeError(ErrorCode::Internal, tr("The engine sent an unreadable container list."));
    QList<SessionInfo> out;
    for (const auto &c : *j) {
        SessionInfo s;
        s.id = str(c, "Id");
        if (s.id.isEmpty())
            continue;
        const json &names = sub(c, "Names");
        if (names.is_array() && !names.empty() && names.front().is_string())
            s.name = QString::fromStdString(names.front().get<std::string>()).remove(0, 1);
        s.image = str(c, "Image");
        s.labels = stringMap(sub(c, "Labels"));
        s.statusText = str(c, "Status");
        const QString st = str(c, "State");
        const bool failed = st == QLatin1String("exited") && !s.statusText.contains(QLatin1String("(0)")) &&
                            !s.statusText.contains(QLatin1String("(137)")) &&
                            !s.statusText.contains(QLatin1String("(143)"));
        s.state = stateFromDocker(st, 0, failed);
        if (const qint64 created = num(c, "Created"); created > 0)
            s.created = QDateTime::fromSecsSinceEpoch(created, QTimeZone::utc());
        const QString netMode = str(sub(c, "HostConfig"), "NetworkMode");
        s.network = !netMode.isEmpty() && netMode != QLatin1String("none");
        s.mounts = mountsFrom(sub(c, "Mounts"));
        s.endpoints = endpointsFromListPorts(sub(c, "Ports"));
        applyOwnership(&s, ctx);
        out << s;
    }
    return out;
}

Result<QStringList> tmpfsMountsFromInspect(const QByteArray &body)
{
    const auto j = parseJson(body);
    if (!j || !j->is_object())
        return makeError(ErrorCode::Internal, tr("The engine sent an unreadable container description."));
    QStringList out;
    const json &tmpfs = sub(sub(*j, "HostConfig"), "Tmpfs");
    if (tmpfs.is_object()) {
        for (auto it = tmpfs.begin(); it != tmpfs.end(); ++it)
            out << QString::fromStdString(it.key());
    }
    for (const json *mounts : {&sub(*j, "Mounts"), &sub(sub(*j, "HostConfig"), "Mounts")}) {
        if (!mounts->is_array())
            continue;
        for (const auto &m : *mounts) {
            if (str(m, "Type") == QLatin1String("tmpfs")) {
                QString target = str(m, "Destination");
                if (target.isEmpty())
                    target = str(m, "Target");
                if (!target.isEmpty() && !out.contains(target))
                    out << target;
            }
        }
    }
    return out;
}

QStringList tmpfsMountsFromProcMounts(const QByteArray &text)
{
    QStringList out;
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> f = line.split(' ');
        if (f.size() >= 3 && f.at(2) == "tmpfs") {
            // /proc/mounts escapes space, tab, newline and backslash as octal.
            QByteArray p = f.at(1);
            p.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
            out << QString::fromUtf8(p);
        }
    }
    return out;
}

Result<ParsedStats> parseStats(const QByteArray &body)
{
    const auto j = parseJson(body);
    if (!j)
        return makeError(ErrorCode::Internal, body.trimmed().isEmpty() ? tr("The engine sent no statistics.")
                                                                       : tr("The engine sent unreadable statistics."));
    if (!j->is_object() || !sub(*j, "cpu_stats").is_object())
        return makeError(ErrorCode::Internal, tr("The engine sent unreadable statistics."));
    ParsedStats p;
    const auto reading = [](const json &cpu, const QDateTime &time) {
        CpuReading r;
        r.time = time;
        r.totalUsage = unum(sub(cpu, "cpu_usage"), "total_usage");
        r.systemUsage = unum(cpu, "system_cpu_usage");
        r.onlineCpus = int(std::clamp<qint64>(num(cpu, "online_cpus"), 0, 1 << 16));
        const json &percpu = sub(sub(cpu, "cpu_usage"), "percpu_usage");
        if (r.onlineCpus == 0 && percpu.is_array())
            r.onlineCpus = int(percpu.size());
        return r;
    };
    QDateTime read = parseTime(str(*j, "read"));
    p.sample.time = read.isValid() ? read : QDateTime::currentDateTimeUtc();
    p.reading = reading(sub(*j, "cpu_stats"), p.sample.time);
    const CpuReading pre = reading(sub(*j, "precpu_stats"), parseTime(str(*j, "preread")));
    if (pre.totalUsage > 0 || pre.systemUsage > 0)
        p.pre = pre;

    const json &mem = sub(*j, "memory_stats");
    if (sub(mem, "usage").is_number()) {
        const qint64 usage = num(mem, "usage");
        const json &ms = sub(mem, "stats");
        qint64 used = usage;
        if (sub(ms, "total_inactive_file").is_number() && num(ms, "total_inactive_file") < usage)
            used = usage - num(ms, "total_inactive_file");
        else if (sub(ms, "inactive_file").is_number() && num(ms, "inactive_file") < usage)
            used = usage - num(ms, "inactive_file");
        p.sample.memoryUsedBytes = used;
        if (const qint64 limit = num(mem, "limit"); limit > 0)
            p.sample.memoryLimitBytes = limit;
    }
    qint64 rx = 0, tx = 0;
    const json &nets = sub(*j, "networks");
    if (nets.is_object()) {
        for (auto it = nets.begin(); it != nets.end(); ++it) {
            rx += num(it.value(), "rx_bytes");
            tx += num(it.value(), "tx_bytes");
        }
    }
    p.sample.networkRxBytes = rx;
    p.sample.networkTxBytes = tx;
    qint64 rd = 0, wr = 0;
    const json &io = sub(sub(*j, "blkio_stats"), "io_service_bytes_recursive");
    if (io.is_array()) {
        for (const auto &e : io) {
            const QString op = str(e, "op");
            if (op.compare(QLatin1String("read"), Qt::CaseInsensitive) == 0)
                rd += num(e, "value");
            else if (op.compare(QLatin1String("write"), Qt::CaseInsensitive) == 0)
                wr += num(e, "value");
        }
    }
    p.sample.blockReadBytes = rd;
    p.sample.blockWriteBytes = wr;
    if (sub(sub(*j, "pids_stats"), "current").is_number())
        p.sample.pids = num(sub(*j, "pids_stats"), "current");
    return p;
}

std::optional<double> cpuPercent(const CpuReading &now, const CpuReading &before, bool preferWallClock)
{
    if (now.totalUsage < before.totalUsage)
        return std::nullopt; // counter went back: a restarted container
    const double cpuDelta = double(now.totalUsage - before.totalUsage);
    if (!preferWallClock && now.systemUsage > before.systemUsage) {
        const double systemDelta = double(now.systemUsage - before.systemUsage);
        const int online = now.onlineCpus > 0 ? now.onlineCpus : 1;
        return cpuDelta > 0 ? cpuDelta / systemDelta * online * 100.0 : 0.0;
    }
    if (!now.time.isValid() || !before.time.isValid())
        return std::nullopt;
    const double wallNs = double(before.time.msecsTo(now.time)) * 1e6;
    if (wallNs <= 0)
        return std::nullopt;
    return cpuDelta / wallNs * 100.0;
}

Result<StatsSample> statsSample(const QByteArray &json, const std::optional<CpuReading> &previous, bool preferWallClock,
                                CpuReading *current)
{
    auto parsed = parseStats(json);
    if (!parsed)
        return parsed.error();
    if (current)
        *current = parsed->reading;
    std::optional<CpuReading> before = parsed->pre;
    // A precpu without usable time cannot give a wall-clock rate; the local sample can.
    if (!before || (preferWallClock && !before->time.isValid()))
        before = previous;
    if (before)
        parsed->sample.cpuPercent = cpuPercent(parsed->reading, *before, preferWallClock);
    return parsed->sample;
}

Result<ContainerUsage> usageFromInspect(const QByteArray &body)
{
    const auto j = parseJson(body);
    if (!j || !j->is_object() || !sub(*j, "State").is_object())
        return makeError(ErrorCode::Internal, tr("The engine sent an unreadable container description."));
    ContainerUsage u;
    u.id = str(*j, "Id");
    const json &state = sub(*j, "State");
    u.startedAt = parseTime(str(state, "StartedAt"));
    const json &oom = sub(state, "OOMKilled");
    u.oomKilled = oom.is_boolean() && oom.get<bool>();
    u.running = sub(state, "Running").is_boolean() && sub(state, "Running").get<bool>();
    // Absent without ?size=true; Podman may send it with size=false too (then 0 or the size).
    if (sub(*j, "SizeRw").is_number())
        u.sizeRw = std::max<qint64>(0, num(*j, "SizeRw"));
    return u;
}

QString keepAliveScript()
{
    return QStringLiteral("f=%1\n"
                          "d=${1:-0}\n"
                          "[ \"$d\" -gt 0 ] 2>/dev/null && echo \"$d\" > \"$f\"\n"
                          "while :; do\n"
                          "  [ -r \"$f\" ] && d=$(cat \"$f\" 2>/dev/null)\n"
                          "  case \"$d\" in ''|*[!0-9]*) d=0;; esac\n"
                          "  if [ \"$d\" -gt 0 ] && [ \"$(date +%s)\" -ge \"$d\" ]; then exit 0; fi\n"
                          "  sleep 1\n"
                          "done\n")
        .arg(QLatin1String(kDeadlineFile));
}

QList<EngineEvent> takeEvents(QByteArray *buffer)
{
    QList<EngineEvent> out;
    qsizetype start = 0;
    for (;;) {
        const auto nl = buffer->indexOf('\n', start);
        if (nl < 0)
            break;
        QByteArray line = buffer->mid(start, nl - start);
        start = nl + 1;
        line.replace('\x1e', QByteArray());
        const auto j = parseJson(line);
        if (!j || !j->is_object())
            continue;
        EngineEvent e;
        e.type = str(*j, "Type");
        e.action = str(*j, "Action");
        if (e.action.isEmpty())
            e.action = str(*j, "status");
        const json &actor = sub(*j, "Actor");
        e.id = str(actor, "ID");
        if (e.id.isEmpty())
            e.id = str(*j, "id");
        e.attributes = stringMap(sub(actor, "Attributes"));
        e.time = num(*j, "time");
        out << e;
    }
    buffer->remove(0, start);
    return out;
}

std::optional<NumericUser> numericUser(const QString &user)
{
    const QStringList parts = user.split(QLatin1Char(':'));
    if (parts.size() > 2)
        return std::nullopt;
    NumericUser u;
    bool ok = false;
    u.uid = parts.at(0).toUInt(&ok);
    if (!ok || parts.at(0).startsWith(QLatin1Char('+')))
        return std::nullopt;
    if (parts.size() == 2) {
        u.gid = parts.at(1).toUInt(&ok);
        if (!ok || parts.at(1).startsWith(QLatin1Char('+')))
            return std::nullopt;
    }
    return u;
}

std::optional<uint> folderModeFromPathStat(const QByteArray &header)
{
    const auto decoded = QByteArray::fromBase64Encoding(header.trimmed(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    const auto j =
        json::parse(decoded.decoded.constData(), decoded.decoded.constData() + decoded.decoded.size(), nullptr, false);
    if (!j.is_object() || !j.contains("mode") || !j["mode"].is_number_unsigned())
        return std::nullopt;
    // Go's os.FileMode: ModeDir 1<<31, ModeSetuid 1<<23, ModeSetgid 1<<22, ModeSticky 1<<20.
    const quint64 mode = j["mode"].get<quint64>();
    if (!(mode & (quint64(1) << 31)))
        return std::nullopt;
    uint bits = uint(mode & 0777);
    if (mode & (quint64(1) << 23))
        bits |= 04000;
    if (mode & (quint64(1) << 22))
        bits |= 02000;
    if (mode & (quint64(1) << 20))
        bits |= 01000;
    return bits;
}

} // namespace sandbar::docker
