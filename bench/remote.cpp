// sandbar-bench remote [IMAGE]: a Docker engine over SSH against the same engine on its socket.
// A private sshd on a loopback port (tests/remote/PrivateSshd.h, needs openssh-server) stands
// in front of the engine at SANDBAR_TEST_DOCKER_HOST (or DOCKER_HOST), a unix socket; the
// image is SANDBAR_TEST_IMAGE or the argument.
//   remote.request_ms        p50 of 100 GET /_ping through the master connection's forwarding;
//                            baseline: the same on the engine's own socket
//   remote.pty_roundtrip_ms  p99 of 1,000 keystrokes in a terminal over SSH, each waiting for
//                            its echo (target <= 5 on loopback); baseline: on the own socket
//   remote.upload_MiBps      a 64 MiB file into a session over SSH, median of five; baseline: the
//                            same upload on the own socket, taken in turns (target ratio >= 0.8)
//   remote.logins            sshd's logins during the whole run (target 1)

#include "Bench.h"
#include "PrivateSshd.h"
#include "net/HttpClient.h"
#include "providers/Provider.h"
#include "providers/docker/DockerFactory.h"
#include "terminal/PtyChannel.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

namespace sandbar::bench {

namespace {

const char kGroup[] = "remote";
constexpr qint64 kMiB = 1024 * 1024;

Result<std::unique_ptr<Provider>> engineAccount(const QVariantMap &settings)
{
    docker::DockerFactory factory(docker::Flavour::Docker);
    AccountConfig a;
    a.name = QStringLiteral("bench-remote");
    a.provider = factory.descriptor().id;
    a.settings = settings;
    if (auto prepare = factory.preparation(a))
        a = prepare(a);
    return factory.create(a);
}

// p50 of 100 pings on the engine's socket as this provider's client reaches it.
Result<double> pingP50(const QString &socketPath)
{
    net::Endpoint ep;
    ep.kind = net::Endpoint::Kind::Unix;
    ep.path = socketPath;
    net::HttpClient client(ep);
    QList<double> ms;
    for (int i = 0; i < 100; ++i) {
        net::HttpRequest req;
        req.method = "GET";
        req.target = "/_ping";
        QElapsedTimer t;
        t.start();
        auto r = wait<net::HttpResponse>([&](auto cb) { client.request(req, cb); }, 30000);
        if (!r)
            return r.error();
        ms << double(t.nsecsElapsed()) / 1e6;
    }
    return percentile(ms, 50);
}

// p99 of keystrokes answered by the terminal's echo.
Result<double> keystrokeP99(Provider &p, const QString &id)
{
    PtyOptions o;
    o.argv = {QStringLiteral("sh")};
    std::unique_ptr<PtyChannel> pty = p.terminals()->openPty(id, o);
    QByteArray out;
    QObject::connect(pty.get(), &PtyChannel::dataReceived, pty.get(), [&out](const QByteArray &b) { out += b; });
    pty->start();
    const auto waitFor = [&](const std::function<bool()> &done, int timeoutMs) {
        QElapsedTimer t;
        t.start();
        while (!done() && t.elapsed() < timeoutMs) {
            QEventLoop loop;
            QObject::connect(pty.get(), &PtyChannel::dataReceived, &loop, &QEventLoop::quit);
            QTimer::singleShot(50, &loop, &QEventLoop::quit);
            loop.exec();
        }
        return done();
    };
    // Asked again until the shell runs: what is typed before the engine's exec starts is lost.
    for (int attempt = 0; attempt < 20 && !out.contains("ready-42"); ++attempt) {
        pty->write("echo ready-$((40+2))\n");
        waitFor([&] { return out.contains("ready-42"); }, 1000);
    }
    if (!out.contains("ready-42"))
        return makeError(ErrorCode::Timeout, QStringLiteral("the shell did not answer"));
    QList<double> ms;
    for (int i = 0; i < 1000; ++i) {
        const qsizetype before = out.count('k');
        QElapsedTimer t;
        t.start();
        pty->write("k");
        if (!waitFor([&] { return out.count('k') > before; }, 5000))
            return makeError(ErrorCode::Timeout, QStringLiteral("keystroke %1 was not echoed").arg(i));
        ms << double(t.nsecsElapsed()) / 1e6;
    }
    pty->close();
    return percentile(ms, 99);
}

Result<double> uploadMiBps(Provider &p, const QString &id, const QString &file)
{
    QElapsedTimer t;
    t.start();
    auto job = p.files()->upload(id, file, QStringLiteral("/tmp/"));
    auto r = wait<void>([&](Callback<void> cb) {
        QObject::connect(job.get(), &TransferJob::finished, cb.context(), [cb](const VoidResult &v) { cb(v); });
        job->start();
    });
    if (!r)
        return r.error();
    return double(64 * kMiB) / kMiB / (double(t.nsecsElapsed()) / 1e9);
}

int run(const QStringList &args)
{
    QString host = qEnvironmentVariable("SANDBAR_TEST_DOCKER_HOST");
    if (host.isEmpty())
        host = qEnvironmentVariable("DOCKER_HOST");
    const QString image = args.value(0, qEnvironmentVariable("SANDBAR_TEST_IMAGE"));
    if (!host.startsWith(QLatin1String("unix://")) || image.isEmpty())
        return fail(kGroup, QString(),
                    QStringLiteral("set SANDBAR_TEST_DOCKER_HOST (or DOCKER_HOST) to a unix:// socket and "
                                   "SANDBAR_TEST_IMAGE (or pass the image)"),
                    2);
    if (!test::PrivateSshd::available())
        return fail(kGroup, QStringLiteral("sshd"), QStringLiteral("install openssh-server (and the ssh client)"), 2);
    QTemporaryDir runtime(QStringLiteral("/tmp/sbbench-XXXXXX"));
    qputenv("XDG_RUNTIME_DIR", runtime.path().toLocal8Bit());
    test::PrivateSshd sshd;
    if (!sshd.start())
        return fail(kGroup, QStringLiteral("start sshd"), sshd.error());
    const QString socket = host.mid(7);
    auto remote = engineAccount({{QStringLiteral("endpoint"), QString(QStringLiteral("ssh://sandbar-test") + socket)},
                                 {QStringLiteral("ssh-config"), sshd.sshConfig()}});
    if (!remote)
        return fail(kGroup, QStringLiteral("the account over SSH"), remote.message());
    auto local = engineAccount({{QStringLiteral("endpoint"), host}});
    if (!local)
        return fail(kGroup, QStringLiteral("the account on the socket"), local.message());
    // The forwarded socket is the one file in the private folder that is not a control socket.
    QString forwarded;
    for (const QFileInfo &f :
         QDir(runtime.filePath(QStringLiteral("sandbar/ssh"))).entryInfoList({QStringLiteral("*.sock")}, QDir::System))
        forwarded = f.filePath();
    auto viaSsh = pingP50(forwarded);
    auto direct = pingP50(socket);
    if (!viaSsh || !direct)
        return fail(kGroup, QStringLiteral("ping"), (!viaSsh ? viaSsh.error() : direct.error()).message);
    printFigure(QStringLiteral("remote.request_ms"), *viaSsh, QStringLiteral("ms"), *direct);

    CreateSpec spec;
    spec.image = image;
    spec.labels.insert(QStringLiteral("dev.sandbar.bench"), QStringLiteral("1"));
    auto s = wait<SessionInfo>([&](auto cb) { remote.value()->create(spec, cb); });
    if (!s)
        return fail(kGroup, QStringLiteral("create a session of %1").arg(image), s.message());
    int status = 0;
    auto keysSsh = keystrokeP99(*remote.value(), s->id);
    auto keysDirect = keystrokeP99(*local.value(), s->id);
    if (keysSsh && keysDirect)
        printFigure(QStringLiteral("remote.pty_roundtrip_ms"), *keysSsh, QStringLiteral("ms"), *keysDirect);
    else
        status = fail(kGroup, QStringLiteral("keystrokes"), (!keysSsh ? keysSsh.error() : keysDirect.error()).message);

    QTemporaryDir files;
    QFile blob(files.filePath(QStringLiteral("blob.bin")));
    if (!blob.open(QIODevice::WriteOnly))
        return fail(kGroup, QStringLiteral("write a local file"), blob.errorString());
    QByteArray chunk(int(kMiB), 'u');
    for (int i = 0; i < 64; ++i)
        blob.write(chunk);
    blob.close();
    // Medians of five, taken in turns, so one slow moment of a 2-core machine does not decide.
    Result<double> upSsh = 0.0, upDirect = 0.0;
    QList<double> overSsh, onSocket;
    for (int round = 0; round < 5 && upSsh && upDirect; ++round) {
        upSsh = uploadMiBps(*remote.value(), s->id, blob.fileName());
        upDirect = uploadMiBps(*local.value(), s->id, blob.fileName());
        if (upSsh && upDirect) {
            overSsh << *upSsh;
            onSocket << *upDirect;
        }
    }
    if (upSsh && upDirect) {
        upSsh = percentile(overSsh, 50);
        upDirect = percentile(onSocket, 50);
    }
    if (upSsh && upDirect)
        printFigure(QStringLiteral("remote.upload_MiBps"), *upSsh, QStringLiteral("MiB/s"), *upDirect);
    else
        status = fail(kGroup, QStringLiteral("upload"), (!upSsh ? upSsh.error() : upDirect.error()).message);
    (void)wait<void>([&](auto cb) { remote.value()->remove(s->id, cb); });
    printFigure(QStringLiteral("remote.logins"), sshd.logins(), QStringLiteral("logins"));

    sshd.endMaster(runtime.filePath(QStringLiteral("sandbar/ssh")));
    return status;
}

} // namespace

static Registration reg("remote", &run, false,
                        "A Docker engine over SSH (a private sshd): request latency, keystroke echo, 64 MiB upload, "
                        "logins");

} // namespace sandbar::bench
