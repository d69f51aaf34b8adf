#include "providers/Session.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace sandbar {

QString sessionStateName(SessionState state)
{
    switch (state) {
    case SessionState::Creating: return QStringLiteral("creating");
    case SessionState::Running: return QStringLiteral("running");
    case SessionState::Paused: return QStringLiteral("paused");
    case SessionState::Stopping: return QStringLiteral("stopping");
    case SessionState::Stopped: return QStringLiteral("stopped");
    case SessionState::Error: return QStringLiteral("error");
    case SessionState::Unknown: return QStringLiteral("unknown");
    }
    return QStringLiteral("unknown");
}

SessionState sessionStateFromName(const QString &name)
{
    for (auto s : {SessionState::Creating, SessionState::Running, SessionState::Paused, SessionState::Stopping,
                   SessionState::Stopped, SessionState::Error}) {
        if (sessionStateName(s) == name)
            return s;
    }
    return SessionState::Unknown;
}

} // namespace sandbar

namespace sandbar {

CreateSpec createSpecFromOptions(const QVariantMap &options)
{
    CreateSpec s;
    s.options = options;
    const auto take = [&options](const char *key) {
        const QVariant v = options.value(QLatin1String(key));
        if (v.isValid())
            return v;
        // Local's keys before they were shared.
        if (qstrcmp(key, createkeys::PidsLimit) == 0)
            return options.value(QStringLiteral("pids"));
        if (qstrcmp(key, createkeys::Mounts) == 0)
            return options.value(QStringLiteral("mount"));
        return v;
    };
    // A list, or one entry a line (a saved text field).
    const auto entries = [&take](const char *key) {
        const QVariant v = take(key);
        QStringList out;
        const QStringList raw = v.typeId() == QMetaType::QStringList
                                    ? v.toStringList()
                                    : v.toString().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (const QString &e : raw) {
            if (!e.trimmed().isEmpty())
                out << e;
        }
        return out;
    };
    s.image = take(createkeys::Image).toString();
    if (take(createkeys::Cpus).isValid())
        s.cpus = take(createkeys::Cpus).toDouble();
    if (take(createkeys::Memory).isValid())
        s.memoryBytes = take(createkeys::Memory).toLongLong();
    if (take(createkeys::PidsLimit).isValid())
        s.pidsLimit = take(createkeys::PidsLimit).toLongLong();
    s.ttlSeconds = take(createkeys::Ttl).toLongLong();
    s.network = take(createkeys::Network).toBool();
    s.user = take(createkeys::User).toString();
    // Checked by the descriptor (FieldType::Gpus) before it gets here; an int from older
    // settings reads the same (-1 = all).
    if (const auto gpus = parseGpuRequest(take(createkeys::Gpus).toString())) {
        s.gpus = gpus->gpus;
        s.gpuUuids = gpus->deviceIds;
    }
    s.name = take(createkeys::Name).toString();
    // Checked by the descriptor (FieldType::Env, FieldType::Mounts) before they get here.
    for (const auto &e : entries(createkeys::Env)) {
        if (e.indexOf(QLatin1Char('=')) > 0)
            s.env << e;
    }
    const bool allReadOnly = take(createkeys::ReadOnlyMounts).toBool();
    for (const auto &text : entries(createkeys::Mounts)) {
        if (auto m = parseMountSpec(text)) {
            m->readOnly = m->readOnly || allReadOnly;
            s.mounts << *m;
        }
    }
    for (const auto &text : entries(createkeys::Labels)) {
        if (auto l = parseLabel(text))
            s.labels.insert(l->first, l->second);
    }
    for (const auto &text : entries(createkeys::Ports)) {
        if (auto p = parsePortSpec(text))
            s.ports << *p;
    }
    return s;
}

Result<PortSpec> parsePortSpec(const QString &text)
{
    QString t = text.trimmed();
    const auto bad = [&text]() {
        return Result<PortSpec>(makeError(
            ErrorCode::InvalidArgument,
            QCoreApplication::translate("sandbar::PortSpec", "'%1' is not PORT, HOST:PORT or either with /tcp or /udp")
                .arg(text.trimmed().left(80))));
    };
    PortSpec p;
    if (const auto slash = t.indexOf(QLatin1Char('/')); slash >= 0) {
        p.protocol = t.mid(slash + 1).toLower();
        if (p.protocol != QLatin1String("tcp") && p.protocol != QLatin1String("udp"))
            return bad();
        t.truncate(slash);
    }
    const QStringList parts = t.split(QLatin1Char(':'));
    if (parts.size() > 2)
        return bad();
    static const QRegularExpression digits(QStringLiteral("^[0-9]{1,5}$"));
    QList<int> numbers;
    for (const QString &part : parts) {
        if (!digits.match(part).hasMatch())
            return bad();
        const int n = part.toInt();
        if (n < 1 || n > 65535)
            return makeError(
                ErrorCode::InvalidArgument,
                QCoreApplication::translate("sandbar::PortSpec", "port %1 is not between 1 and 65535").arg(part));
        numbers << n;
    }
    p.sessionPort = numbers.last();
    p.hostPort = numbers.size() == 2 ? numbers.first() : 0;
    return p;
}

QString portSpecText(const PortSpec &port)
{
    QString t = QString::number(port.sessionPort);
    if (port.hostPort > 0)
        t.prepend(QString::number(port.hostPort) + QLatin1Char(':'));
    if (port.protocol != QLatin1String("tcp"))
        t += QLatin1Char('/') + port.protocol;
    return t;
}

Result<MountSpec> parseMountSpec(const QString &text)
{
    QString t = text.trimmed();
    bool readOnly = false;
    if (t.endsWith(QLatin1String(":ro")) || t.endsWith(QLatin1String(":rw"))) {
        readOnly = t.endsWith(QLatin1String(":ro"));
        t.chop(3);
    }
    const auto colon = t.lastIndexOf(QLatin1Char(':'));
    const QString host = colon > 0 ? t.left(colon) : QString();
    const QString path = colon > 0 ? t.mid(colon + 1) : QString();
    if (host.isEmpty() || path.isEmpty())
        return makeError(ErrorCode::InvalidArgument,
                         QCoreApplication::translate("sandbar::MountSpec", "'%1' is not HOST:PATH or HOST:PATH:ro")
                             .arg(text.trimmed().left(200)));
    if (!path.startsWith(QLatin1Char('/')))
        return makeError(
            ErrorCode::InvalidArgument,
            QCoreApplication::translate("sandbar::MountSpec", "'%1' is not an absolute path in the session")
                .arg(path.left(200)));
    return MountSpec{host, path, readOnly};
}

} // namespace sandbar

namespace sandbar {

namespace {
constexpr int kMaxGpuCount = 64;

// nvidia-smi -L's UUIDs: GPU-<uuid>, MIG-<uuid> (driver 470+) and the older
// MIG-GPU-<uuid>/<gi>/<ci>; an index, or a MIG device as <gpu>:<mig> (NVIDIA_VISIBLE_DEVICES).
bool isGpuId(const QString &id)
{
    static const QRegularExpression uuid(QStringLiteral(
        "^(GPU|MIG|MIG-GPU)-[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}(/[0-9]{1,3}/[0-9]{1,3})?$"));
    static const QRegularExpression index(QStringLiteral("^[0-9]{1,3}(:[0-9]{1,3})?$"));
    return uuid.match(id).hasMatch() || index.match(id).hasMatch();
}
} // namespace

Result<GpuRequest> parseGpuRequest(const QString &text)
{
    QString t = text.trimmed();
    const auto bad = [&t]() {
        return Result<GpuRequest>(
            makeError(ErrorCode::InvalidArgument,
                      QCoreApplication::translate(
                          "sandbar::GpuRequest",
                          "'%1' is not all, a number of GPUs or a comma-separated list of GPU UUIDs (GPU-..., MIG-...)")
                          .arg(t.left(80))));
    };
    GpuRequest r;
    const QString lower = t.toLower();
    if (t.isEmpty() || lower == QLatin1String("none"))
        return r;
    if (lower == QLatin1String("all") || t == QLatin1String("-1")) {
        r.gpus = -1;
        return r;
    }
    const bool named = lower.startsWith(QLatin1String("device="));
    if (!named && !t.contains(QLatin1Char(',')) && !t.contains(QLatin1Char('-')) && !t.contains(QLatin1Char(':'))) {
        bool ok = false;
        const int n = t.toInt(&ok);
        if (!ok || n < 0)
            return bad();
        if (n > kMaxGpuCount)
            return makeError(ErrorCode::InvalidArgument,
                             QCoreApplication::translate("sandbar::GpuRequest", "%1 GPUs is more than %2; use all")
                                 .arg(n)
                                 .arg(kMaxGpuCount));
        r.gpus = n;
        return r;
    }
    const QStringList ids = t.mid(named ? 7 : 0).split(QLatin1Char(','));
    for (const QString &raw : ids) {
        const QString id = raw.trimmed();
        if (id.isEmpty())
            return bad();
        if (!isGpuId(id))
            return makeError(ErrorCode::InvalidArgument,
                             QCoreApplication::translate(
                                 "sandbar::GpuRequest",
                                 "'%1' is not a GPU UUID (GPU-..., MIG-..., as nvidia-smi -L prints them) or index")
                                 .arg(id.left(80)));
        if (!r.deviceIds.contains(id))
            r.deviceIds << id;
    }
    if (r.deviceIds.size() > kMaxGpuCount)
        return bad();
    r.gpus = int(r.deviceIds.size());
    return r;
}

QString gpuRequestText(const GpuRequest &request)
{
    if (!request.deviceIds.isEmpty()) {
        const QString list = request.deviceIds.join(QLatin1Char(','));
        // One bare index would read back as a count.
        return request.deviceIds.size() == 1 && !request.deviceIds.first().contains(QLatin1Char('-'))
                   ? QStringLiteral("device=") + list
                   : list;
    }
    if (request.gpus < 0)
        return QStringLiteral("all");
    if (request.gpus == 0)
        return QStringLiteral("none");
    return QString::number(request.gpus);
}

LabelSelector parseLabelSelector(const QString &text)
{
    const qsizetype eq = text.indexOf(QLatin1Char('='));
    if (eq < 0)
        return {text.trimmed(), std::nullopt};
    return {text.left(eq).trimmed(), text.mid(eq + 1).trimmed()};
}

bool matchesLabel(const QMap<QString, QString> &sessionLabels, const LabelSelector &selector)
{
    const auto it = sessionLabels.constFind(selector.key);
    return it != sessionLabels.cend() && (!selector.value || *selector.value == it.value());
}

Result<std::pair<QString, QString>> parseLabel(const QString &text)
{
    const qsizetype eq = text.indexOf(QLatin1Char('='));
    const QString key = (eq < 0 ? text : text.left(eq)).trimmed();
    const QString value = eq < 0 ? QString() : text.mid(eq + 1).trimmed();
    static const QRegularExpression space(QStringLiteral("\\s"));
    if (key.isEmpty())
        return makeError(ErrorCode::InvalidArgument,
                         QCoreApplication::translate("sandbar::labels", "A label needs a key: KEY=VALUE"));
    if (key.contains(space))
        return makeError(ErrorCode::InvalidArgument,
                         QCoreApplication::translate("sandbar::labels", "A label's key has no spaces: %1").arg(key));
    if (labels::isSandbars(key))
        return makeError(ErrorCode::InvalidArgument,
                         QCoreApplication::translate("sandbar::labels", "%1 is one of Sandbar's own labels").arg(key));
    return std::pair<QString, QString>{key, value};
}

} // namespace sandbar
