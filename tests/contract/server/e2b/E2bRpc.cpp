// envd's Connect-RPC services: process.Process and filesystem.Filesystem (JSON codec).

#include "E2bContext.h"
#include "kit/Connect.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QPointer>
#include <QTimer>
#include <csignal>

namespace contract::e2b {

namespace {

using connectrpc::endStream;
using connectrpc::writeMessage;

QJsonObject event(const QString &kind, const QJsonObject &body)
{
    return {{QStringLiteral("event"), QJsonObject{{kind, body}}}};
}

// The request message, or an answer in the call's own error style.
bool message(const Request &r, Responder *res, QJsonObject *out)
{
    QString error;
    if (connectrpc::readMessage(r, out, &error))
        return true;
    if (connectrpc::isStreamingRequest(r))
        endStream(res, QStringLiteral("invalid_argument"), error);
    else if (r.mediaType() != "application/json")
        res->sendJson(415, QJsonObject{{QStringLiteral("code"), QStringLiteral("invalid_argument")},
                                       {QStringLiteral("message"), error}});
    else
        connectrpc::sendError(res, QStringLiteral("invalid_argument"), error);
    return false;
}

SandboxProcess *selected(Sandbox *s, const QJsonObject &selector)
{
    if (selector.contains(QStringLiteral("tag"))) {
        const QString tag = selector.value(QStringLiteral("tag")).toString();
        for (SandboxProcess *p : s->processes()) {
            if (p->spec().tag == tag)
                return p;
        }
        return nullptr;
    }
    const QJsonValue pid = selector.value(QStringLiteral("pid"));
    SandboxProcess *p = s->process(pid.isString() ? pid.toString().toLongLong() : pid.toInteger());
    return p && p->isRunning() ? p : nullptr;
}

// Streams a process's events to a Start or Connect caller until it ends.
void attach(const Request &r, Responder *res, SandboxProcess *proc)
{
    connectrpc::beginStream(res);
    writeMessage(res, event(QStringLiteral("start"), {{QStringLiteral("pid"), proc->pid()}}));
    QObject::connect(
        proc, &SandboxProcess::output, res, [res](SandboxProcess::Channel channel, const QByteArray &bytes) {
            const QString key = channel == SandboxProcess::Channel::Pty      ? QStringLiteral("pty")
                                : channel == SandboxProcess::Channel::Stderr ? QStringLiteral("stderr")
                                                                             : QStringLiteral("stdout");
            writeMessage(res, event(QStringLiteral("data"), {{key, QString::fromLatin1(bytes.toBase64())}}));
        });
    QObject::connect(proc, &SandboxProcess::finished, res, [res](int code, const QString &status) {
        QJsonObject end{{QStringLiteral("exitCode"), code},
                        {QStringLiteral("exited"), code >= 0},
                        {QStringLiteral("status"), status}};
        if (code < 0)
            end.insert(QStringLiteral("error"), status);
        writeMessage(res, event(QStringLiteral("end"), end));
        endStream(res);
    });
    const int interval = r.header("keepalive-ping-interval").toInt();
    if (interval > 0) {
        auto *timer = new QTimer(res);
        QObject::connect(timer, &QTimer::timeout, res,
                         [res] { writeMessage(res, event(QStringLiteral("keepalive"), {})); });
        timer->start(interval * 1000);
    }
}

void start(Context &c, const Request &r, Responder *res)
{
    Sandbox *s = envdSandbox(c, r, res, true);
    QJsonObject msg;
    if (!s || !message(r, res, &msg))
        return;
    const QJsonObject process = msg.value(QStringLiteral("process")).toObject();
    ProcessSpec spec;
    spec.cmd = process.value(QStringLiteral("cmd")).toString();
    for (const QJsonValue &a : process.value(QStringLiteral("args")).toArray())
        spec.args.append(a.toString());
    const QJsonObject envs = process.value(QStringLiteral("envs")).toObject();
    for (auto it = envs.begin(); it != envs.end(); ++it)
        spec.envs.insert(it.key(), it.value().toString());
    spec.cwd = process.value(QStringLiteral("cwd")).toString();
    spec.tag = msg.value(QStringLiteral("tag")).toString();
    if (msg.contains(QStringLiteral("pty"))) {
        const QJsonObject size = msg.value(QStringLiteral("pty")).toObject().value(QStringLiteral("size")).toObject();
        spec.pty = true;
        spec.cols = size.value(QStringLiteral("cols")).toInt(80);
        spec.rows = size.value(QStringLiteral("rows")).toInt(24);
    }
    spec.stdinOpen = msg.value(QStringLiteral("stdin")).toBool(true);
    if (spec.cmd.isEmpty()) {
        endStream(res, QStringLiteral("invalid_argument"), QStringLiteral("process.cmd is required"));
        return;
    }
    QString error;
    SandboxProcess *proc = s->start(spec, &error);
    if (!proc) {
        endStream(res, QStringLiteral("invalid_argument"), QStringLiteral("error starting process: %1").arg(error));
        return;
    }
    attach(r, res, proc);
}

void connectProcess(Context &c, const Request &r, Responder *res)
{
    Sandbox *s = envdSandbox(c, r, res, true);
    QJsonObject msg;
    if (!s || !message(r, res, &msg))
        return;
    SandboxProcess *proc = selected(s, msg.value(QStringLiteral("process")).toObject());
    if (!proc) {
        endStream(res, QStringLiteral("not_found"), QStringLiteral("process not found"));
        return;
    }
    attach(r, res, proc);
}

// A unary call on one process: resolves it, runs `act`, answers {} or the error.
template <typename Act>
void onProcess(Context &c, const Request &r, Responder *res, Act act)
{
    Sandbox *s = envdSandbox(c, r, res, true);
    QJsonObject msg;
    if (!s || !message(r, res, &msg))
        return;
    SandboxProcess *proc = selected(s, msg.value(QStringLiteral("process")).toObject());
    if (!proc) {
        connectrpc::sendError(res, QStringLiteral("not_found"), QStringLiteral("process not found"));
        return;
    }
    const QString error = act(proc, msg);
    if (!error.isEmpty())
        connectrpc::sendError(res, QStringLiteral("invalid_argument"), error);
    else
        connectrpc::sendUnary(res, {});
}

QString fileType(const QFileInfo &info)
{
    if (info.isSymLink())
        return QStringLiteral("FILE_TYPE_SYMLINK");
    return info.isDir() ? QStringLiteral("FILE_TYPE_DIRECTORY") : QStringLiteral("FILE_TYPE_FILE");
}

QString permissions(const QFileInfo &info)
{
    const auto p = info.permissions();
    QString out = info.isDir() ? QStringLiteral("d") : QStringLiteral("-");
    out += QLatin1Char(p & QFile::ReadOwner ? 'r' : '-') + QLatin1Char(p & QFile::WriteOwner ? 'w' : '-') +
           QLatin1Char(p & QFile::ExeOwner ? 'x' : '-') + QLatin1Char(p & QFile::ReadGroup ? 'r' : '-') +
           QLatin1Char(p & QFile::WriteGroup ? 'w' : '-') + QLatin1Char(p & QFile::ExeGroup ? 'x' : '-') +
           QLatin1Char(p & QFile::ReadOther ? 'r' : '-') + QLatin1Char(p & QFile::WriteOther ? 'w' : '-') +
           QLatin1Char(p & QFile::ExeOther ? 'x' : '-');
    return out;
}

QJsonObject entry(const Sandbox *s, const QString &host)
{
    const QFileInfo info(host);
    QJsonObject o{{QStringLiteral("name"), info.fileName()},
                  {QStringLiteral("type"), fileType(info)},
                  {QStringLiteral("path"), s->apiPath(host)},
                  {QStringLiteral("size"), QString::number(info.isDir() ? 4096 : info.size())},
                  {QStringLiteral("mode"), static_cast<int>(info.isDir() ? 0755 : 0644)},
                  {QStringLiteral("permissions"), permissions(info)},
                  {QStringLiteral("owner"), QStringLiteral("user")},
                  {QStringLiteral("group"), QStringLiteral("user")},
                  {QStringLiteral("modifiedTime"), info.lastModified().toUTC().toString(Qt::ISODateWithMs)}};
    if (info.isSymLink())
        o.insert(QStringLiteral("symlinkTarget"), s->apiPath(info.symLinkTarget()));
    return o;
}

// A unary filesystem call: maps `path` (and other fields) and answers what `act` returns,
// or a Connect error {code, message} when it sets one.
template <typename Act>
void onFilesystem(Context &c, const Request &r, Responder *res, Act act)
{
    Sandbox *s = envdSandbox(c, r, res, true);
    QJsonObject msg;
    if (!s || !message(r, res, &msg))
        return;
    QString code;
    QString error;
    const QJsonObject reply = act(s, msg, &code, &error);
    if (!code.isEmpty())
        connectrpc::sendError(res, code, error);
    else
        connectrpc::sendUnary(res, reply);
}

bool mapOrFail(Sandbox *s, const QString &path, QString *host, QString *code, QString *error)
{
    auto mapped = s->mapPath(path);
    if (!mapped) {
        *code = QStringLiteral("permission_denied");
        *error = mapped.message();
        return false;
    }
    *host = *mapped;
    return true;
}

} // namespace

void installProcessRpc(Context &context)
{
    Context *c = &context;
    Server &server = context.server;
    const Predicate envd = [](const Request &r) { return isEnvdRequest(r); };
    const QString base = QStringLiteral("/process.Process/");
    server.route("POST", base + QStringLiteral("Start"), [c](const Request &r, Responder *res) { start(*c, r, res); })
        .onlyWhen(envd)
        .streams();
    server
        .route("POST", base + QStringLiteral("Connect"),
               [c](const Request &r, Responder *res) { connectProcess(*c, r, res); })
        .onlyWhen(envd)
        .streams();
    server
        .route("POST", base + QStringLiteral("SendInput"),
               [c](const Request &r, Responder *res) {
                   onProcess(*c, r, res, [](SandboxProcess *p, const QJsonObject &msg) {
                       const QJsonObject input = msg.value(QStringLiteral("input")).toObject();
                       const QString data = input.contains(QStringLiteral("pty"))
                                                ? input.value(QStringLiteral("pty")).toString()
                                                : input.value(QStringLiteral("stdin")).toString();
                       p->write(QByteArray::fromBase64(data.toLatin1()));
                       return QString();
                   });
               })
        .onlyWhen(envd);
    server
        .route("POST", base + QStringLiteral("Update"),
               [c](const Request &r, Responder *res) {
                   onProcess(*c, r, res, [](SandboxProcess *p, const QJsonObject &msg) {
                       const QJsonObject size =
                           msg.value(QStringLiteral("pty")).toObject().value(QStringLiteral("size")).toObject();
                       if (!p->isPty())
                           return QStringLiteral("process has no pty");
                       p->resize(size.value(QStringLiteral("cols")).toInt(80),
                                 size.value(QStringLiteral("rows")).toInt(24));
                       return QString();
                   });
               })
        .onlyWhen(envd);
    server
        .route("POST", base + QStringLiteral("SendSignal"),
               [c](const Request &r, Responder *res) {
                   onProcess(*c, r, res, [](SandboxProcess *p, const QJsonObject &msg) {
                       const QJsonValue v = msg.value(QStringLiteral("signal"));
                       const QString name = v.toString();
                       const int number = v.isDouble() ? v.toInt() : 0;
                       if (name == QLatin1String("SIGNAL_SIGKILL") || number == 9)
                           p->sendSignal(SIGKILL);
                       else if (name == QLatin1String("SIGNAL_SIGTERM") || number == 15)
                           p->sendSignal(SIGTERM);
                       else
                           return QStringLiteral("unsupported signal");
                       return QString();
                   });
               })
        .onlyWhen(envd);
    server
        .route("POST", base + QStringLiteral("CloseStdin"),
               [c](const Request &r, Responder *res) {
                   onProcess(*c, r, res, [](SandboxProcess *p, const QJsonObject &) {
                       p->closeStdin();
                       return QString();
                   });
               })
        .onlyWhen(envd);
    server
        .route("POST", base + QStringLiteral("List"),
               [c](const Request &r, Responder *res) {
                   Sandbox *s = envdSandbox(*c, r, res, true);
                   QJsonObject msg;
                   if (!s || !message(r, res, &msg))
                       return;
                   QJsonArray processes;
                   for (SandboxProcess *p : s->processes()) {
                       QJsonObject envs;
                       for (auto it = p->spec().envs.cbegin(); it != p->spec().envs.cend(); ++it)
                           envs.insert(it.key(), it.value());
                       QJsonObject config{{QStringLiteral("cmd"), p->spec().cmd},
                                          {QStringLiteral("args"), QJsonArray::fromStringList(p->spec().args)},
                                          {QStringLiteral("envs"), envs},
                                          {QStringLiteral("cwd"), p->spec().cwd}};
                       QJsonObject info{{QStringLiteral("config"), config}, {QStringLiteral("pid"), p->pid()}};
                       if (!p->spec().tag.isEmpty())
                           info.insert(QStringLiteral("tag"), p->spec().tag);
                       processes.append(info);
                   }
                   connectrpc::sendUnary(res, {{QStringLiteral("processes"), processes}});
               })
        .onlyWhen(envd);
}

void installFilesystemRpc(Context &context)
{
    Context *c = &context;
    Server &server = context.server;
    const Predicate envd = [](const Request &r) { return isEnvdRequest(r); };
    const QString base = QStringLiteral("/filesystem.Filesystem/");
    server
        .route("POST", base + QStringLiteral("Stat"),
               [c](const Request &r, Responder *res) {
                   onFilesystem(*c, r, res, [](Sandbox *s, const QJsonObject &msg, QString *code, QString *error) {
                       QString host;
                       const QString path = msg.value(QStringLiteral("path")).toString();
                       if (!mapOrFail(s, path, &host, code, error))
                           return QJsonObject();
                       if (!QFileInfo::exists(host) && !QFileInfo(host).isSymLink()) {
                           *code = QStringLiteral("not_found");
                           *error = QStringLiteral("file not found: %1").arg(path);
                           return QJsonObject();
                       }
                       return QJsonObject{{QStringLiteral("entry"), entry(s, host)}};
                   });
               })
        .onlyWhen(envd);
    server
        .route("POST", base + QStringLiteral("ListDir"),
               [c](const Request &r, Responder *res) {
                   onFilesystem(*c, r, res, [](Sandbox *s, const QJsonObject &msg, QString *code, QString *error) {
                       QString host;
                       const QString path = msg.value(QStringLiteral("path")).toString();
                       if (!mapOrFail(s, path, &host, code, error))
                           return QJsonObject();
                       if (!QFileInfo(host).isDir()) {
                           *code = QFileInfo::exists(host) ? QStringLiteral("invalid_argument")
                                                           : QStringLiteral("not_found");
                           *error = QStringLiteral("directory not found: %1").arg(path);
                           return QJsonObject();
                       }
                       const int depth = qMax(1, msg.value(QStringLiteral("depth")).toInt(1));
                       QJsonArray entries;
                       QDirIterator it(host, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                                       depth > 1 ? QDirIterator::Subdirectories : QDirIterator::NoIteratorFlags);
                       const int baseDepth = QDir::cleanPath(host).count(QLatin1Char('/'));
                       while (it.hasNext()) {
                           const QString found = it.next();
                           if (QDir::cleanPath(found).count(QLatin1Char('/')) - baseDepth <= depth)
                               entries.append(entry(s, found));
                       }
                       return QJsonObject{{QStringLiteral("entries"), entries}};
                   });
               })
        .onlyWhen(envd);
    server
        .route("POST", base + QStringLiteral("MakeDir"),
               [c](const Request &r, Responder *res) {
                   onFilesystem(*c, r, res, [](Sandbox *s, const QJsonObject &msg, QString *code, QString *error) {
                       QString host;
                       const QString path = msg.value(QStringLiteral("path")).toString();
                       if (!mapOrFail(s, path, &host, code, error))
                           return QJsonObject();
                       if (QFileInfo::exists(host)) {
                           *code = QStringLiteral("already_exists");
                           *error = QStringLiteral("directory already exists: %1").arg(path);
                           return QJsonObject();
                       }
                       if (!QDir().mkpath(host)) {
                           *code = QStringLiteral("internal");
                           *error = QStringLiteral("cannot create %1").arg(path);
                           return QJsonObject();
                       }
                       return QJsonObject{{QStringLiteral("entry"), entry(s, host)}};
                   });
               })
        .onlyWhen(envd);
    server
        .route("POST", base + QStringLiteral("Move"),
               [c](const Request &r, Responder *res) {
                   onFilesystem(*c, r, res, [](Sandbox *s, const QJsonObject &msg, QString *code, QString *error) {
                       QString from;
                       QString to;
                       if (!mapOrFail(s, msg.value(QStringLiteral("source")).toString(), &from, code, error) ||
                           !mapOrFail(s, msg.value(QStringLiteral("destination")).toString(), &to, code, error))
                           return QJsonObject();
                       if (!QFileInfo::exists(from)) {
                           *code = QStringLiteral("not_found");
                           *error = QStringLiteral("source not found");
                           return QJsonObject();
                       }
                       QDir().mkpath(QFileInfo(to).path());
                       if (QFileInfo(to).isFile())
                           QFile::remove(to);
                       if (!QDir().rename(from, to)) {
                           *code = QStringLiteral("internal");
                           *error = QStringLiteral("cannot move");
                           return QJsonObject();
                       }
                       return QJsonObject{{QStringLiteral("entry"), entry(s, to)}};
                   });
               })
        .onlyWhen(envd);
    server
        .route("POST", base + QStringLiteral("Remove"),
               [c](const Request &r, Responder *res) {
                   onFilesystem(*c, r, res, [](Sandbox *s, const QJsonObject &msg, QString *code, QString *error) {
                       QString host;
                       if (!mapOrFail(s, msg.value(QStringLiteral("path")).toString(), &host, code, error))
                           return QJsonObject();
                       const QFileInfo info(host);
                       if (!info.exists() && !info.isSymLink()) {
                           *code = QStringLiteral("not_found");
                           *error = QStringLiteral("path not found");
                           return QJsonObject();
                       }
                       const bool ok =
                           info.isDir() && !info.isSymLink() ? QDir(host).removeRecursively() : QFile::remove(host);
                       if (!ok) {
                           *code = QStringLiteral("internal");
                           *error = QStringLiteral("cannot remove");
                       }
                       return QJsonObject();
                   });
               })
        .onlyWhen(envd);
}

} // namespace contract::e2b
