#include "TestSupport.h"
#include "net/Endpoint.h"

#include <QTest>

using namespace sandbar;
using namespace sandbar::net;

Q_DECLARE_METATYPE(sandbar::ErrorCode)

class TestEndpoint : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data();
    void parse();
    void tlsFlagAfterParse();
};

void TestEndpoint::parse_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("pathOrHost");
    QTest::addColumn<int>("port");
    QTest::addColumn<bool>("tls");
    QTest::addColumn<QString>("canonical");

    const auto unix = int(Endpoint::Kind::Unix);
    const auto pipe = int(Endpoint::Kind::NamedPipe);
    const auto tcp = int(Endpoint::Kind::Tcp);
    const auto none = ErrorCode::Internal;
    QTest::newRow("unix") << QStringLiteral("unix:///var/run/docker.sock") << true << none << unix
                          << QStringLiteral("/var/run/docker.sock") << 0 << false
                          << QStringLiteral("unix:///var/run/docker.sock");
    QTest::newRow("unix with spaces around")
        << QStringLiteral("  unix:///run/podman/podman.sock\n") << true << none << unix
        << QStringLiteral("/run/podman/podman.sock") << 0 << false << QStringLiteral("unix:///run/podman/podman.sock");
    QTest::newRow("npipe") << QStringLiteral("npipe:////./pipe/docker_engine") << true << none << pipe
                           << QStringLiteral("docker_engine") << 0 << false
                           << QStringLiteral("npipe:////./pipe/docker_engine");
    QTest::newRow("npipe backslashes") << QStringLiteral("npipe://\\\\.\\pipe\\podman-machine-default") << true << none
                                       << pipe << QStringLiteral("podman-machine-default") << 0 << false
                                       << QStringLiteral("npipe:////./pipe/podman-machine-default");
    QTest::newRow("tcp") << QStringLiteral("tcp://10.0.0.5:2375") << true << none << tcp << QStringLiteral("10.0.0.5")
                         << 2375 << false << QStringLiteral("tcp://10.0.0.5:2375");
    QTest::newRow("tcp default port") << QStringLiteral("tcp://docker.example") << true << none << tcp
                                      << QStringLiteral("docker.example") << 2375 << false
                                      << QStringLiteral("tcp://docker.example:2375");
    QTest::newRow("tcp trailing slash") << QStringLiteral("tcp://h:1/") << true << none << tcp << QStringLiteral("h")
                                        << 1 << false << QStringLiteral("tcp://h:1");
    QTest::newRow("tcp ipv6") << QStringLiteral("tcp://[::1]:2375") << true << none << tcp << QStringLiteral("::1")
                              << 2375 << false << QStringLiteral("tcp://[::1]:2375");
    QTest::newRow("http") << QStringLiteral("http://127.0.0.1:8080") << true << none << tcp
                          << QStringLiteral("127.0.0.1") << 8080 << false << QStringLiteral("tcp://127.0.0.1:8080");
    QTest::newRow("https") << QStringLiteral("HTTPS://h:2376") << true << none << tcp << QStringLiteral("h") << 2376
                           << true << QStringLiteral("https://h:2376");
    QTest::newRow("https default port") << QStringLiteral("https://h") << true << none << tcp << QStringLiteral("h")
                                        << 443 << true << QStringLiteral("https://h:443");

    QTest::newRow("empty") << QString() << false << ErrorCode::InvalidArgument << 0 << QString() << 0 << false
                           << QString();
    QTest::newRow("no scheme") << QStringLiteral("/var/run/docker.sock") << false << ErrorCode::InvalidArgument << 0
                               << QString() << 0 << false << QString();
    QTest::newRow("unix without path") << QStringLiteral("unix://") << false << ErrorCode::InvalidArgument << 0
                                       << QString() << 0 << false << QString();
    QTest::newRow("remote pipe") << QStringLiteral("npipe:////server/pipe/docker_engine") << false
                                 << ErrorCode::InvalidArgument << 0 << QString() << 0 << false << QString();
    QTest::newRow("ssh") << QStringLiteral("ssh://me@host") << false << ErrorCode::Unsupported << 0 << QString() << 0
                         << false << QString();
    QTest::newRow("unknown scheme") << QStringLiteral("fd://") << false << ErrorCode::InvalidArgument << 0 << QString()
                                    << 0 << false << QString();
    QTest::newRow("tcp without host") << QStringLiteral("tcp://:2375") << false << ErrorCode::InvalidArgument << 0
                                      << QString() << 0 << false << QString();
    QTest::newRow("bad port") << QStringLiteral("tcp://h:99999") << false << ErrorCode::InvalidArgument << 0
                              << QString() << 0 << false << QString();
    QTest::newRow("port not a number") << QStringLiteral("tcp://h:abc") << false << ErrorCode::InvalidArgument << 0
                                       << QString() << 0 << false << QString();
    QTest::newRow("tcp with path") << QStringLiteral("tcp://h:2375/prefix") << false << ErrorCode::InvalidArgument << 0
                                   << QString() << 0 << false << QString();
    QTest::newRow("garbage") << QStringLiteral("\x01\x02://\x03") << false << ErrorCode::InvalidArgument << 0
                             << QString() << 0 << false << QString();
}

void TestEndpoint::parse()
{
    QFETCH(QString, url);
    QFETCH(bool, ok);
    QFETCH(ErrorCode, code);
    QFETCH(int, kind);
    QFETCH(QString, pathOrHost);
    QFETCH(int, port);
    QFETCH(bool, tls);
    QFETCH(QString, canonical);

    const auto r = Endpoint::parse(url);
    QCOMPARE(r.ok(), ok);
    if (!ok) {
        QCOMPARE(r.code(), code);
        QVERIFY(!r.message().isEmpty());
        return;
    }
    QCOMPARE(int(r->kind), kind);
    QCOMPARE(r->kind == Endpoint::Kind::Tcp ? r->host : r->path, pathOrHost);
    QCOMPARE(int(r->port), port);
    QCOMPARE(r->tls, tls);
    QCOMPARE(r->toUrl(), canonical);
    // The canonical form parses back to the same endpoint.
    const auto again = Endpoint::parse(r->toUrl());
    QVERIFY_RESULT(again);
    QCOMPARE(again->toUrl(), canonical);
}

void TestEndpoint::tlsFlagAfterParse()
{
    auto r = Endpoint::parse(QStringLiteral("tcp://h:2376"));
    QVERIFY_RESULT(r);
    r->tls = true;
    QCOMPARE(r->display(), QStringLiteral("https://h:2376"));
}

QTEST_GUILESS_MAIN(TestEndpoint)
#include "tst_endpoint.moc"
