#include "TestSupport.h"
#include "providers/docker/discovery/DockerDiscovery.h"

#include <QTest>

using namespace sandbar;
using namespace sandbar::docker;

using Files = QMap<QString, QByteArray>;
Q_DECLARE_METATYPE(Files)

namespace {

const QString kHome = QStringLiteral("/home/u");
const QString kRuntime = QStringLiteral("/run/user/1000");

QString metaPath(const QString &name, const QString &config = kHome + QStringLiteral("/.docker"))
{
    return config + QStringLiteral("/contexts/meta/") + contextDirName(name) + QStringLiteral("/meta.json");
}

QString tlsPath(const QString &name, const QString &file)
{
    return kHome + QStringLiteral("/.docker/contexts/tls/") + contextDirName(name) + QStringLiteral("/docker/") + file;
}

QByteArray meta(const QString &name, const QString &host, bool skipVerify = false)
{
    return QStringLiteral(R"({"Name":"%1","Metadata":{},"Endpoints":{"docker":{"Host":"%2","SkipTLSVerify":%3}}})")
        .arg(name, host, skipVerify ? QStringLiteral("true") : QStringLiteral("false"))
        .toUtf8();
}

DiscoveryEnvironment makeEnv(const QStringList &vars, const Files &files, const QStringList &sockets)
{
    DiscoveryEnvironment e;
    for (const QString &kv : vars) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        e.env.insert(kv.left(eq), kv.mid(eq + 1));
    }
    e.homeDir = kHome;
    e.readFile = [files](const QString &path) -> std::optional<QByteArray> {
        if (!files.contains(path))
            return std::nullopt;
        return files.value(path);
    };
    e.socketExists = [sockets](const QString &path) { return sockets.contains(path); };
    return e;
}

QString sourceName(CandidateSource s)
{
    switch (s) {
    case CandidateSource::DockerHost: return QStringLiteral("env");
    case CandidateSource::ContainerHost: return QStringLiteral("container-host");
    case CandidateSource::DockerContext: return QStringLiteral("env-context");
    case CandidateSource::ConfigContext: return QStringLiteral("config-context");
    case CandidateSource::WellKnownSocket: return QStringLiteral("socket");
    case CandidateSource::PlatformDefault: return QStringLiteral("default");
    }
    return {};
}

QString tlsSummary(const net::Endpoint &ep)
{
    if (!ep.tls)
        return QStringLiteral("plain");
    return QStringLiteral("tls verify=%1 ca=%2 cert=%3 key=%4")
        .arg(ep.verifyPeer ? 1 : 0)
        .arg(ep.caFile, ep.certFile, ep.keyFile);
}

// Each problem, in order, names what the row expects (a file, a variable, a word).
bool problemsAre(const DiscoveryResult &r, const QStringList &expected)
{
    QStringList messages;
    for (const Error &e : r.problems)
        messages << e.message;
    if (messages.size() != expected.size()) {
        qWarning("problems: %s", qPrintable(messages.join(QStringLiteral(" / "))));
        return false;
    }
    for (int i = 0; i < expected.size(); ++i) {
        if (!messages.at(i).contains(expected.at(i))) {
            qWarning("problem %d: %s", i, qPrintable(messages.at(i)));
            return false;
        }
    }
    return true;
}

} // namespace

class TestDockerDiscovery : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void contextDirIsSha256();
    void remotes_data();
    void remotes();
    void discover_data();
    void discover();
    void windowsPipes();
    void systemEnvironmentDoesNotCrash();
};

void TestDockerDiscovery::contextDirIsSha256()
{
    // The directory name the docker CLI uses for "desktop-linux".
    QCOMPARE(contextDirName(QStringLiteral("desktop-linux")),
             QStringLiteral("fe9c6bd7a66301f49ca9b6a70b217107cd1284598bfc254700c989b916da791e"));
}

void TestDockerDiscovery::discover_data()
{
    QTest::addColumn<QStringList>("vars");
    QTest::addColumn<Files>("files");
    QTest::addColumn<QStringList>("sockets");
    QTest::addColumn<QStringList>("expected"); // "url source" in order
    QTest::addColumn<QString>("firstTls");     // tlsSummary of the first candidate; empty = not checked
    QTest::addColumn<QStringList>("problems"); // a substring of each problem, in order
    QTest::addColumn<QString>("pickDocker");
    QTest::addColumn<QString>("pickPodman");

    const QString cfg = kHome + QStringLiteral("/.docker/config.json");
    const QString varRun = QStringLiteral("/var/run/docker.sock");
    const QString rootless = kRuntime + QStringLiteral("/docker.sock");
    const QString podmanUser = kRuntime + QStringLiteral("/podman/podman.sock");
    const QString podmanRoot = QStringLiteral("/run/podman/podman.sock");
    const QString desktop = kHome + QStringLiteral("/.docker/desktop/docker.sock");
    const QString mac = kHome + QStringLiteral("/.docker/run/docker.sock");
    const QString xdg = QStringLiteral("XDG_RUNTIME_DIR=") + kRuntime;

    QTest::newRow("nothing at all: the platform default")
        << QStringList{} << Files{} << QStringList{}
        << QStringList{QStringLiteral("unix:///var/run/docker.sock default")} << QString() << QStringList{}
        << QStringLiteral("unix:///var/run/docker.sock") << QStringLiteral("unix:///var/run/docker.sock");
    QTest::newRow("well-known sockets in order")
        << QStringList{xdg} << Files{} << QStringList{podmanRoot, podmanUser, mac, desktop, rootless, varRun}
        << QStringList{QStringLiteral("unix://") + varRun + QStringLiteral(" socket"),
                       QStringLiteral("unix://") + rootless + QStringLiteral(" socket"),
                       QStringLiteral("unix://") + desktop + QStringLiteral(" socket"),
                       QStringLiteral("unix://") + mac + QStringLiteral(" socket"),
                       QStringLiteral("unix://") + podmanUser + QStringLiteral(" socket"),
                       QStringLiteral("unix://") + podmanRoot + QStringLiteral(" socket")}
        << QString() << QStringList{} << QStringLiteral("unix://") + varRun << QStringLiteral("unix://") + podmanUser;
    QTest::newRow("podman sockets only") << QStringList{xdg} << Files{} << QStringList{podmanRoot}
                                         << QStringList{QStringLiteral("unix:///run/podman/podman.sock socket")}
                                         << QString() << QStringList{} << QString()
                                         << QStringLiteral("unix:///run/podman/podman.sock");
    QTest::newRow("no XDG_RUNTIME_DIR: no rootless paths")
        << QStringList{} << Files{} << QStringList{rootless, podmanUser, podmanRoot}
        << QStringList{QStringLiteral("unix:///run/podman/podman.sock socket")} << QString() << QStringList{}
        << QString() << QStringLiteral("unix:///run/podman/podman.sock");
    QTest::newRow("DOCKER_HOST wins over context and sockets")
        << QStringList{QStringLiteral("DOCKER_HOST=unix:///tmp/d.sock"), QStringLiteral("DOCKER_CONTEXT=colima")}
        << Files{{metaPath(QStringLiteral("colima")), meta(QStringLiteral("colima"), QStringLiteral("unix:///c.sock"))}}
        << QStringList{varRun}
        << QStringList{QStringLiteral("unix:///tmp/d.sock env"), QStringLiteral("unix:///c.sock env-context"),
                       QStringLiteral("unix:///var/run/docker.sock socket")}
        << QStringLiteral("plain") << QStringList{} << QStringLiteral("unix:///tmp/d.sock")
        << QStringLiteral("unix:///tmp/d.sock");
    QTest::newRow("DOCKER_HOST equal to a well-known socket is listed once")
        << QStringList{QStringLiteral("DOCKER_HOST=unix:///var/run/docker.sock")} << Files{} << QStringList{varRun}
        << QStringList{QStringLiteral("unix:///var/run/docker.sock env")} << QString() << QStringList{}
        << QStringLiteral("unix:///var/run/docker.sock") << QStringLiteral("unix:///var/run/docker.sock");
    QTest::newRow("DOCKER_HOST to podman is podman")
        << QStringList{QStringLiteral("DOCKER_HOST=unix:///run/user/1000/podman/podman.sock")} << Files{}
        << QStringList{varRun}
        << QStringList{QStringLiteral("unix:///run/user/1000/podman/podman.sock env"),
                       QStringLiteral("unix:///var/run/docker.sock socket")}
        << QString() << QStringList{} << QStringLiteral("unix:///var/run/docker.sock")
        << QStringLiteral("unix:///run/user/1000/podman/podman.sock");
    QTest::newRow("bad DOCKER_HOST is a problem, not a crash")
        << QStringList{QStringLiteral("DOCKER_HOST=foo://me@box")} << Files{} << QStringList{varRun}
        << QStringList{QStringLiteral("unix:///var/run/docker.sock socket")} << QString()
        << QStringList{QStringLiteral("DOCKER_HOST")} << QStringLiteral("unix:///var/run/docker.sock") << QString();
    QTest::newRow("CONTAINER_HOST is podman")
        << QStringList{QStringLiteral("CONTAINER_HOST=unix:///p.sock")} << Files{} << QStringList{varRun}
        << QStringList{QStringLiteral("unix:///p.sock container-host"),
                       QStringLiteral("unix:///var/run/docker.sock socket")}
        << QString() << QStringList{} << QStringLiteral("unix:///var/run/docker.sock")
        << QStringLiteral("unix:///p.sock");
    QTest::newRow("TLS from DOCKER_TLS_VERIFY and DOCKER_CERT_PATH")
        << QStringList{QStringLiteral("DOCKER_HOST=tcp://h:2376"), QStringLiteral("DOCKER_TLS_VERIFY=1"),
                       QStringLiteral("DOCKER_CERT_PATH=/certs")}
        << Files{{QStringLiteral("/certs/ca.pem"), "c"},
                 {QStringLiteral("/certs/cert.pem"), "c"},
                 {QStringLiteral("/certs/key.pem"), "k"}}
        << QStringList{} << QStringList{QStringLiteral("https://h:2376 env")}
        << QStringLiteral("tls verify=1 ca=/certs/ca.pem cert=/certs/cert.pem key=/certs/key.pem") << QStringList{}
        << QStringLiteral("https://h:2376") << QStringLiteral("https://h:2376");
    QTest::newRow("TLS verify with the default cert dir, CA missing")
        << QStringList{QStringLiteral("DOCKER_HOST=tcp://h:2376"), QStringLiteral("DOCKER_TLS_VERIFY=1")}
        << Files{{kHome + QStringLiteral("/.docker/cert.pem"), "c"}, {kHome + QStringLiteral("/.docker/key.pem"), "k"}}
        << QStringList{} << QStringList{QStringLiteral("https://h:2376 env")}
        << QStringLiteral("tls verify=1 ca= cert=/home/u/.docker/cert.pem key=/home/u/.docker/key.pem")
        << QStringList{QStringLiteral("/home/u/.docker/ca.pem")} << QStringLiteral("https://h:2376")
        << QStringLiteral("https://h:2376");
    QTest::newRow("DOCKER_CERT_PATH alone: TLS without verification")
        << QStringList{QStringLiteral("DOCKER_HOST=tcp://h:2376"), QStringLiteral("DOCKER_CERT_PATH=/certs")}
        << Files{{QStringLiteral("/certs/ca.pem"), "c"}} << QStringList{}
        << QStringList{QStringLiteral("https://h:2376 env")}
        << QStringLiteral("tls verify=0 ca=/certs/ca.pem cert= key=") << QStringList{}
        << QStringLiteral("https://h:2376") << QStringLiteral("https://h:2376");
    QTest::newRow("TLS env ignored for unix sockets")
        << QStringList{QStringLiteral("DOCKER_HOST=unix:///d.sock"), QStringLiteral("DOCKER_TLS_VERIFY=1")} << Files{}
        << QStringList{} << QStringList{QStringLiteral("unix:///d.sock env")} << QStringLiteral("plain")
        << QStringList{} << QStringLiteral("unix:///d.sock") << QStringLiteral("unix:///d.sock");
    QTest::newRow("DOCKER_CONTEXT wins over currentContext")
        << QStringList{QStringLiteral("DOCKER_CONTEXT=a")}
        << Files{{cfg, R"({"auths":{},"currentContext":"b"})"},
                 {metaPath(QStringLiteral("a")), meta(QStringLiteral("a"), QStringLiteral("unix:///a.sock"))},
                 {metaPath(QStringLiteral("b")), meta(QStringLiteral("b"), QStringLiteral("unix:///b.sock"))}}
        << QStringList{varRun}
        << QStringList{QStringLiteral("unix:///a.sock env-context"), QStringLiteral("unix:///b.sock config-context"),
                       QStringLiteral("unix:///var/run/docker.sock socket")}
        << QString() << QStringList{} << QStringLiteral("unix:///a.sock") << QStringLiteral("unix:///a.sock");
    QTest::newRow("currentContext wins over sockets")
        << QStringList{}
        << Files{{cfg, R"({"currentContext":"desktop-linux"})"},
                 {metaPath(QStringLiteral("desktop-linux")),
                  meta(QStringLiteral("desktop-linux"), QStringLiteral("unix://") + desktop)}}
        << QStringList{varRun, desktop}
        << QStringList{QStringLiteral("unix://") + desktop + QStringLiteral(" config-context"),
                       QStringLiteral("unix:///var/run/docker.sock socket")}
        << QString() << QStringList{} << QStringLiteral("unix://") + desktop << QStringLiteral("unix://") + desktop;
    QTest::newRow("DOCKER_CONFIG moves config and contexts")
        << QStringList{QStringLiteral("DOCKER_CONFIG=/etc/dk")}
        << Files{{QStringLiteral("/etc/dk/config.json"), R"({"currentContext":"x"})"},
                 {metaPath(QStringLiteral("x"), QStringLiteral("/etc/dk")),
                  meta(QStringLiteral("x"), QStringLiteral("tcp://x:2375"))}}
        << QStringList{} << QStringList{QStringLiteral("tcp://x:2375 config-context")} << QStringLiteral("plain")
        << QStringList{} << QStringLiteral("tcp://x:2375") << QStringLiteral("tcp://x:2375");
    QTest::newRow("context default means no context")
        << QStringList{QStringLiteral("DOCKER_CONTEXT=default")} << Files{{cfg, R"({"currentContext":"default"})"}}
        << QStringList{varRun} << QStringList{QStringLiteral("unix:///var/run/docker.sock socket")} << QString()
        << QStringList{} << QStringLiteral("unix:///var/run/docker.sock") << QString();
    QTest::newRow("context TLS files and SkipTLSVerify")
        << QStringList{QStringLiteral("DOCKER_CONTEXT=remote")}
        << Files{{metaPath(QStringLiteral("remote")),
                  meta(QStringLiteral("remote"), QStringLiteral("tcp://r:2376"), true)},
                 {tlsPath(QStringLiteral("remote"), QStringLiteral("ca.pem")), "c"},
                 {tlsPath(QStringLiteral("remote"), QStringLiteral("cert.pem")), "c"},
                 {tlsPath(QStringLiteral("remote"), QStringLiteral("key.pem")), "k"}}
        << QStringList{} << QStringList{QStringLiteral("https://r:2376 env-context")}
        << QStringLiteral("tls verify=0 ca=%1 cert=%2 key=%3")
               .arg(tlsPath(QStringLiteral("remote"), QStringLiteral("ca.pem")),
                    tlsPath(QStringLiteral("remote"), QStringLiteral("cert.pem")),
                    tlsPath(QStringLiteral("remote"), QStringLiteral("key.pem")))
        << QStringList{} << QStringLiteral("https://r:2376") << QStringLiteral("https://r:2376");
    QTest::newRow("missing context dir") << QStringList{QStringLiteral("DOCKER_CONTEXT=gone")} << Files{}
                                         << QStringList{varRun}
                                         << QStringList{QStringLiteral("unix:///var/run/docker.sock socket")}
                                         << QString() << QStringList{QStringLiteral("\"gone\"")}
                                         << QStringLiteral("unix:///var/run/docker.sock") << QString();
    QTest::newRow("corrupt config.json") << QStringList{} << Files{{cfg, "{\"currentContext\": \"x\""}}
                                         << QStringList{varRun}
                                         << QStringList{QStringLiteral("unix:///var/run/docker.sock socket")}
                                         << QString() << QStringList{cfg}
                                         << QStringLiteral("unix:///var/run/docker.sock") << QString();
    QTest::newRow("config.json not an object")
        << QStringList{} << Files{{cfg, "[1,2]"}} << QStringList{varRun}
        << QStringList{QStringLiteral("unix:///var/run/docker.sock socket")} << QString() << QStringList{cfg}
        << QStringLiteral("unix:///var/run/docker.sock") << QString();
    QTest::newRow("currentContext not a string")
        << QStringList{} << Files{{cfg, R"({"currentContext":7})"}} << QStringList{varRun}
        << QStringList{QStringLiteral("unix:///var/run/docker.sock socket")} << QString() << QStringList{cfg}
        << QStringLiteral("unix:///var/run/docker.sock") << QString();
    QTest::newRow("empty config.json is fine")
        << QStringList{} << Files{{cfg, "  \n"}} << QStringList{varRun}
        << QStringList{QStringLiteral("unix:///var/run/docker.sock socket")} << QString() << QStringList{}
        << QStringLiteral("unix:///var/run/docker.sock") << QString();
    QTest::newRow("empty meta.json") << QStringList{QStringLiteral("DOCKER_CONTEXT=e")}
                                     << Files{{metaPath(QStringLiteral("e")), QByteArray()}} << QStringList{}
                                     << QStringList{QStringLiteral("unix:///var/run/docker.sock default")} << QString()
                                     << QStringList{metaPath(QStringLiteral("e"))}
                                     << QStringLiteral("unix:///var/run/docker.sock")
                                     << QStringLiteral("unix:///var/run/docker.sock");
    QTest::newRow("corrupt meta.json") << QStringList{QStringLiteral("DOCKER_CONTEXT=c")}
                                       << Files{{metaPath(QStringLiteral("c")), "{\"Endpoints\":{\"docker\":"}}
                                       << QStringList{varRun}
                                       << QStringList{QStringLiteral("unix:///var/run/docker.sock socket")} << QString()
                                       << QStringList{metaPath(QStringLiteral("c"))}
                                       << QStringLiteral("unix:///var/run/docker.sock") << QString();
    QTest::newRow("meta.json without a docker host")
        << QStringList{QStringLiteral("DOCKER_CONTEXT=k8s")}
        << Files{{metaPath(QStringLiteral("k8s")), R"({"Name":"k8s","Endpoints":{"kubernetes":{}}})"}}
        << QStringList{varRun} << QStringList{QStringLiteral("unix:///var/run/docker.sock socket")} << QString()
        << QStringList{QStringLiteral("Endpoints.docker.Host")} << QStringLiteral("unix:///var/run/docker.sock")
        << QString();
    // An ssh host is a remote (remotes_data), not a socket and not a problem.
    QTest::newRow("context with an ssh host")
        << QStringList{QStringLiteral("DOCKER_CONTEXT=s")}
        << Files{{metaPath(QStringLiteral("s")), meta(QStringLiteral("s"), QStringLiteral("ssh://u@h"))}}
        << QStringList{} << QStringList{QStringLiteral("unix:///var/run/docker.sock default")} << QString()
        << QStringList{} << QStringLiteral("unix:///var/run/docker.sock")
        << QStringLiteral("unix:///var/run/docker.sock");
}

void TestDockerDiscovery::discover()
{
    QFETCH(QStringList, vars);
    QFETCH(Files, files);
    QFETCH(QStringList, sockets);
    QFETCH(QStringList, expected);
    QFETCH(QString, firstTls);
    QFETCH(QStringList, problems);
    QFETCH(QString, pickDocker);
    QFETCH(QString, pickPodman);

    const DiscoveryResult r = discoverEndpoints(makeEnv(vars, files, sockets));
    QStringList got;
    for (const EndpointCandidate &c : r.candidates) {
        got << c.endpoint.toUrl() + QLatin1Char(' ') + sourceName(c.source);
        QVERIFY(!c.origin.isEmpty());
    }
    QCOMPARE(got, expected);
    if (!firstTls.isEmpty())
        QCOMPARE(tlsSummary(r.candidates.first().endpoint), firstTls);

    QVERIFY(problemsAre(r, problems));

    const auto docker = pickEndpoint(r, QStringLiteral("docker"));
    QCOMPARE(docker ? docker->endpoint.toUrl() : QString(), pickDocker);
    const auto podman = pickEndpoint(r, QStringLiteral("podman"));
    QCOMPARE(podman ? podman->endpoint.toUrl() : QString(), pickPodman);
}

void TestDockerDiscovery::remotes_data()
{
    QTest::addColumn<QStringList>("vars");
    QTest::addColumn<Files>("files");
    QTest::addColumn<QStringList>("expected"); // "URL IDENTITY FLAVOUR | ORIGIN"
    QTest::addColumn<QStringList>("problems");
    const QString conns = kHome + QStringLiteral("/.config/containers/podman-connections.json");
    const QString conf = kHome + QStringLiteral("/.config/containers/containers.conf");
    QTest::newRow("ssh DOCKER_HOST") << QStringList{QStringLiteral("DOCKER_HOST=ssh://me@box")} << Files{}
                                     << QStringList{QStringLiteral("ssh://me@box   | DOCKER_HOST")} << QStringList{};
    QTest::newRow("ssh CONTAINER_HOST")
        << QStringList{QStringLiteral("CONTAINER_HOST=ssh://core@h:2222/run/podman/podman.sock")} << Files{}
        << QStringList{QStringLiteral("ssh://core@h:2222/run/podman/podman.sock  podman | CONTAINER_HOST")}
        << QStringList{};
    QTest::newRow("ssh context") << QStringList{QStringLiteral("DOCKER_CONTEXT=s")}
                                 << Files{{metaPath(QStringLiteral("s")),
                                           meta(QStringLiteral("s"), QStringLiteral("ssh://u@h"))}}
                                 << QStringList{QStringLiteral("ssh://u@h   | context \"s\" (DOCKER_CONTEXT)")}
                                 << QStringList{};
    QTest::newRow("podman 5 connections")
        << QStringList{} << Files{{conns, R"({"Connection":{"Default":"m","Connections":{
                 "m":{"URI":"ssh://core@127.0.0.1:40111/run/user/1000/podman/podman.sock","Identity":"/home/u/.ssh/m","IsMachine":true},
                 "local":{"URI":"unix:///run/podman/podman.sock"}}},"Farm":{}})"}}
        << QStringList{QStringLiteral("ssh://core@127.0.0.1:40111/run/user/1000/podman/podman.sock /home/u/.ssh/m "
                                      "podman | Podman connection \"m\"")}
        << QStringList{};
    QTest::newRow("podman 4 service destinations")
        << QStringList{}
        << Files{{conf,
                  "[containers]\nlog_size_max = -1\n[engine]\nactive_service = \"b\"\n"
                  "[engine.service_destinations]\n  [engine.service_destinations.b]\n"
                  "  uri = \"ssh://root@build:22/run/podman/podman.sock\"\n  identity = '/keys/b'\n"
                  "[engine.service_destinations.\"c d\"]\nuri=\"ssh://c@d\"\n[network]\nuri = \"ssh://not@this\"\n"}}
        << QStringList{QStringLiteral("ssh://root@build:22/run/podman/podman.sock /keys/b podman | Podman connection "
                                      "\"b\" (") +
                           conf + QStringLiteral(")"),
                       QStringLiteral("ssh://c@d  podman | Podman connection \"c d\" (") + conf + QStringLiteral(")")}
        << QStringList{};
    QTest::newRow("the same host twice is offered once")
        << QStringList{QStringLiteral("DOCKER_HOST=ssh://me@box"), QStringLiteral("CONTAINER_HOST=ssh://me@box")}
        << Files{} << QStringList{QStringLiteral("ssh://me@box   | DOCKER_HOST")} << QStringList{};
    QTest::newRow("hostile host is a problem")
        << QStringList{QStringLiteral("DOCKER_HOST=ssh://-oProxyCommand=x")} << Files{} << QStringList{}
        << QStringList{QStringLiteral("DOCKER_HOST")};
    QTest::newRow("corrupt connections file")
        << QStringList{} << Files{{conns, "{\"Connection\": {"}} << QStringList{} << QStringList{conns};
    QTest::newRow("empty and garbage") << QStringList{}
                                       << Files{{conns, ""}, {conf, "\x01\x02[engine.service_destinations.x\nuri="}}
                                       << QStringList{} << QStringList{};
}

void TestDockerDiscovery::remotes()
{
    QFETCH(QStringList, vars);
    QFETCH(Files, files);
    QFETCH(QStringList, expected);
    QFETCH(QStringList, problems);
    const DiscoveryResult r = discoverEndpoints(makeEnv(vars, files, {}));
    QStringList got;
    for (const RemoteCandidate &c : r.remotes)
        got << c.url + QLatin1Char(' ') + c.identity + QLatin1Char(' ') + c.flavour + QStringLiteral(" | ") + c.origin;
    QCOMPARE(got, expected);
    QVERIFY(problemsAre(r, problems));
}

void TestDockerDiscovery::windowsPipes()
{
    DiscoveryEnvironment e = makeEnv({}, {}, {});
    e.windows = true;
    const DiscoveryResult r = discoverEndpoints(e);
    QCOMPARE(r.candidates.size(), 2);
    QCOMPARE(r.candidates.at(0).endpoint.toUrl(), QStringLiteral("npipe:////./pipe/docker_engine"));
    QCOMPARE(r.candidates.at(0).endpoint.path, QStringLiteral("docker_engine"));
    QCOMPARE(pickEndpoint(r, QStringLiteral("podman"))->endpoint.path, QStringLiteral("podman-machine-default"));
}

void TestDockerDiscovery::systemEnvironmentDoesNotCrash()
{
    // Whatever this machine has, discovery answers with at least the platform default.
    const DiscoveryResult r = discoverEndpoints(DiscoveryEnvironment::system());
    QVERIFY(!r.candidates.isEmpty());
}

QTEST_GUILESS_MAIN(TestDockerDiscovery)
#include "tst_dockerdiscovery.moc"
