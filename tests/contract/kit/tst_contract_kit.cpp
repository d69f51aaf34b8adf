// The contract-server kit's pieces: HTTP parsing, multipart streaming, fault rules,
// route patterns and sandbox path mapping.

#include "kit/Faults.h"
#include "kit/HttpParser.h"
#include "kit/Multipart.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace contract;

class TestContractKit : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parser_data();
    void parser();
    void parserPipelining();
    void parserSpoolsLargeBodies();
    void multipart();
    void multipartErrors();
    void faultGrammar();
    void faultMatching();
    void routePatterns();
    void pathMapping();
};

void TestContractKit::parser_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<int>("state");
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    const int head = int(HttpParser::State::Head);
    const int bodyState = int(HttpParser::State::Body);
    const int complete = int(HttpParser::State::Complete);
    const int error = int(HttpParser::State::Error);
    QTest::newRow("empty") << QByteArray() << head << 0 << QByteArray();
    QTest::newRow("truncated head") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\n") << head << 0 << QByteArray();
    QTest::newRow("garbage") << QByteArray("\x01\x02 garbage\r\n\r\n") << error << 400 << QByteArray();
    QTest::newRow("no version") << QByteArray("GET /\r\nHost: x\r\n\r\n") << error << 400 << QByteArray();
    QTest::newRow("http/2") << QByteArray("GET / HTTP/2.0\r\nHost: x\r\n\r\n") << error << 505 << QByteArray();
    QTest::newRow("no host") << QByteArray("GET / HTTP/1.1\r\n\r\n") << error << 400 << QByteArray();
    QTest::newRow("absolute target") << QByteArray("GET http://x/ HTTP/1.1\r\nHost: x\r\n\r\n") << error << 400
                                     << QByteArray();
    QTest::newRow("bad header") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n") << error << 400
                                << QByteArray();
    QTest::newRow("content-length") << QByteArray("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
                                    << complete << 0 << QByteArray("hello");
    QTest::newRow("truncated body") << QByteArray("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhello")
                                    << bodyState << 0 << QByteArray();
    QTest::newRow("negative length") << QByteArray("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n") << error
                                     << 400 << QByteArray();
    QTest::newRow("length and chunked")
        << QByteArray("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n") << error
        << 400 << QByteArray();
    QTest::newRow("chunked") << QByteArray("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                                           "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nTrailer: x\r\n\r\n")
                             << complete << 0 << QByteArray("hello world");
    QTest::newRow("chunked truncated")
        << QByteArray("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel") << bodyState << 0
        << QByteArray();
    QTest::newRow("bad chunk size") << QByteArray(
                                           "POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                    << error << 400 << QByteArray();
    QTest::newRow("gzip transfer") << QByteArray("POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n")
                                   << error << 501 << QByteArray();
    QTest::newRow("huge header") << QByteArray("GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + QByteArray(70000, 'a')) << error
                                 << 431 << QByteArray();
    QTest::newRow("huge complete header")
        << QByteArray("GET / HTTP/1.1\r\nHost: a\r\nX-Big: " + QByteArray(70000, 'a') + "\r\n\r\n") << error << 431
        << QByteArray();
}

void TestContractKit::parser()
{
    QFETCH(QByteArray, input);
    QFETCH(int, state);
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    HttpParser parser;
    QByteArray data = input;
    QCOMPARE(int(parser.feed(data)), state);
    if (status)
        QCOMPARE(parser.errorStatus(), status);
    if (state == int(HttpParser::State::Complete))
        QCOMPARE(parser.request().body, body);
}

void TestContractKit::parserPipelining()
{
    HttpParser parser;
    QByteArray data = "GET /a%20b?x=1&y=%3D HTTP/1.1\r\nhost: h\r\nX-Thing: One\r\nExpect: 100-continue\r\n\r\n"
                      "GET /second HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n";
    QCOMPARE(parser.feed(data), HttpParser::State::Complete);
    const Request &r = parser.request();
    QCOMPARE(r.path, QStringLiteral("/a b"));
    QCOMPARE(r.queryValue(QStringLiteral("y")), QStringLiteral("="));
    QCOMPARE(r.header("x-thing"), QByteArray("One"));
    QCOMPARE(r.header("HOST"), QByteArray("h"));
    QVERIFY(parser.keepAlive());
    parser.reset();
    QCOMPARE(parser.feed(data), HttpParser::State::Complete);
    QCOMPARE(parser.request().path, QStringLiteral("/second"));
    QVERIFY(!parser.keepAlive());
    QVERIFY(data.isEmpty());

    // Expect: 100-continue is seen as soon as the head is in.
    HttpParser waiting;
    QByteArray head = "PUT /x HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n";
    QCOMPARE(waiting.feed(head), HttpParser::State::Body);
    QVERIFY(waiting.wantsContinue());
}

void TestContractKit::parserSpoolsLargeBodies()
{
    HttpParser parser;
    const qint64 size = Request::kMemoryLimit + 1024 * 1024;
    QByteArray data = "POST /files HTTP/1.1\r\nHost: h\r\nContent-Length: " + QByteArray::number(size) + "\r\n\r\n";
    QCOMPARE(parser.feed(data), HttpParser::State::Body);
    const QByteArray chunk(64 * 1024, 'z');
    qint64 sent = 0;
    while (sent < size) {
        QByteArray piece = chunk.left(int(qMin<qint64>(chunk.size(), size - sent)));
        sent += piece.size();
        parser.feed(piece);
    }
    QCOMPARE(parser.state(), HttpParser::State::Complete);
    QVERIFY(parser.request().body.isEmpty());
    QVERIFY(!parser.request().bodyFile.isEmpty());
    QCOMPARE(QFileInfo(parser.request().bodyFile).size(), size);
    const QString spool = parser.request().bodyFile;
    parser.reset();
    QVERIFY(!QFile::exists(spool));
}

void TestContractKit::multipart()
{
    // A part whose content holds almost-boundaries, a large part, and a form field.
    const QByteArray tricky = "line\r\n--boundar not quite\r\n--boundarX\r\n";
    QByteArray big(3 * 1024 * 1024 + 17, '\0');
    for (int i = 0; i < big.size(); ++i)
        big[i] = char(i * 7 % 251);
    QByteArray body = "preamble\r\n--boundary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                      "Content-Type: text/plain\r\n\r\n" +
                      tricky +
                      "\r\n--boundary\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n\r\n" +
                      big + "\r\n--boundary\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nskip me" +
                      "\r\n--boundary--\r\nepilogue";
    QBuffer in(&body);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QList<QByteArray> contents;
    QStringList names;
    QBuffer *sinkBuffer = nullptr;
    QString error;
    const bool ok = MultipartReader::read(
        in, "boundary",
        [&](const MultipartPart &part) -> QIODevice * {
            names.append(part.name + QLatin1Char(':') + part.fileName);
            if (part.name != QLatin1String("file"))
                return nullptr;
            delete sinkBuffer;
            sinkBuffer = new QBuffer;
            sinkBuffer->open(QIODevice::WriteOnly);
            return sinkBuffer;
        },
        [&](const MultipartPart &part, qint64 size) {
            if (part.name == QLatin1String("file")) {
                contents.append(sinkBuffer->data());
                if (size != sinkBuffer->data().size())
                    return false;
            }
            return true;
        },
        &error);
    delete sinkBuffer;
    QVERIFY2(ok, qPrintable(error));
    QCOMPARE(names,
             (QStringList{QStringLiteral("file:a.txt"), QStringLiteral("file:big.bin"), QStringLiteral("note:")}));
    QCOMPARE(contents.size(), 2);
    QCOMPARE(contents.at(0), tricky);
    QVERIFY(contents.at(1) == big);
}

void TestContractKit::multipartErrors()
{
    auto parse = [](QByteArray body, const QByteArray &boundary) {
        QBuffer in(&body);
        in.open(QIODevice::ReadOnly);
        QString error;
        const bool ok = MultipartReader::read(in, boundary, nullptr, nullptr, &error);
        return ok ? QString() : error;
    };
    QVERIFY(!parse("no boundary here", "b").isEmpty());
    QVERIFY(!parse("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\ncut off", "b").isEmpty());
    QVERIFY(!parse("--b\r\nContent-Disposition: form-data", "b").isEmpty());
    QVERIFY(!parse("--b--", "").isEmpty());
    QVERIFY(parse("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--b--", "b").isEmpty());
}

void TestContractKit::faultGrammar()
{
    auto rules =
        Faults::parseList(QStringLiteral("lost-reply x1@POST:/sandboxes, 429@GET:/v2/sandboxes;slow:800@*,"
                                         "reset:10@/files*,ws-close:50x2@/ws,truncate@POST:/process.Process/Start"));
    QVERIFY2(rules.ok(), qPrintable(rules.ok() ? QString() : rules.message()));
    QCOMPARE(rules->size(), 6);
    QCOMPARE(rules->at(0).kind, FaultKind::LostReply);
    QCOMPARE(rules->at(0).times, 1);
    QCOMPARE(rules->at(0).method, QByteArray("POST"));
    QCOMPARE(rules->at(1).kind, FaultKind::Status429);
    QCOMPARE(rules->at(2).kind, FaultKind::Slow);
    QCOMPARE(rules->at(2).argument, 800);
    QCOMPARE(rules->at(2).path, QStringLiteral("*"));
    QCOMPARE(rules->at(3).kind, FaultKind::Reset);
    QVERIFY(rules->at(3).prefix);
    QCOMPARE(rules->at(3).path, QStringLiteral("/files"));
    QCOMPARE(rules->at(4).times, 2);
    QCOMPARE(rules->at(4).argument, 50);
    for (const char *bad : {"500", "boom@/x", "500@x", "slow@/x", "slow:abc@/x", "500x@/x"})
        QVERIFY2(!Faults::parseList(QString::fromLatin1(bad)).ok(), bad);
    QVERIFY(Faults::parseList(QString()).ok());

    const QJsonObject json =
        QJsonDocument::fromJson(R"({"rules":[{"method":"post","path":"/sandboxes*","fault":"503","times":2}]})")
            .object();
    auto fromJson = Faults::parseJson(json);
    QVERIFY(fromJson.ok());
    QCOMPARE(fromJson->at(0).kind, FaultKind::Status503);
    QCOMPARE(fromJson->at(0).method, QByteArray("POST"));
    QVERIFY(!Faults::parseJson(QJsonObject{{QStringLiteral("rules"),
                                            QJsonArray{QJsonObject{{QStringLiteral("path"), QStringLiteral("x")},
                                                                   {QStringLiteral("fault"), QStringLiteral("500")}}}}})
                 .ok());
    QVERIFY(!Faults::parseJson(QJsonObject{}).ok());
}

void TestContractKit::faultMatching()
{
    Faults faults;
    faults.add(*Faults::parseList(QStringLiteral("500x2@POST:/sandboxes,503@/v2/sandboxes/*")));
    QVERIFY(!faults.take("GET", QStringLiteral("/sandboxes")));
    QVERIFY(!faults.take("POST", QStringLiteral("/sandboxes/x")));
    QCOMPARE(faults.take("POST", QStringLiteral("/sandboxes"))->kind, FaultKind::Status500);
    QVERIFY(faults.take("POST", QStringLiteral("/sandboxes")));
    QVERIFY(!faults.take("POST", QStringLiteral("/sandboxes"))); // used up
    QVERIFY(!faults.take("GET", QStringLiteral("/v2/sandboxes")));
    QCOMPARE(faults.take("GET", QStringLiteral("/v2/sandboxes/abc/logs"))->kind, FaultKind::Status503);
    QCOMPARE(faults.toJson().at(0).toObject().value(QStringLiteral("hits")).toInt(), 2);
    faults.clear();
    QVERIFY(faults.isEmpty());
}

void TestContractKit::routePatterns()
{
    QHash<QString, QString> params;
    QVERIFY(
        Server::matchPattern(QStringLiteral("/sandboxes/{id}/pause"), QStringLiteral("/sandboxes/abc/pause"), &params));
    QCOMPARE(params.value(QStringLiteral("id")), QStringLiteral("abc"));
    QVERIFY(!Server::matchPattern(QStringLiteral("/sandboxes/{id}"), QStringLiteral("/sandboxes/"), &params));
    QVERIFY(!Server::matchPattern(QStringLiteral("/sandboxes/{id}"), QStringLiteral("/sandboxes/a/b"), &params));
    QVERIFY(Server::matchPattern(QStringLiteral("/toolbox/{id}/files/{rest*}"), QStringLiteral("/toolbox/s1/files/a/b"),
                                 &params));
    QCOMPARE(params.value(QStringLiteral("rest")), QStringLiteral("a/b"));
}

void TestContractKit::pathMapping()
{
    QTemporaryDir dir;
    const QString home = dir.path() + QStringLiteral("/home");
    const QString tmp = dir.path() + QStringLiteral("/tmp");
    QDir().mkpath(home + QStringLiteral("/sub"));
    QDir().mkpath(tmp);
    QFile::link(QStringLiteral("/etc"), home + QStringLiteral("/etc-link"));
    QFile::link(home + QStringLiteral("/sub"), home + QStringLiteral("/inside-link"));
    QFile::link(QStringLiteral("/nonexistent-target"), home + QStringLiteral("/dangling"));
    auto map = [&](const char *p) { return Sandbox::mapInto(home, tmp, QString::fromLatin1(p)); };
    QCOMPARE(*map("/home/user/x.txt"), home + QStringLiteral("/x.txt"));
    QCOMPARE(*map("x.txt"), home + QStringLiteral("/x.txt"));
    QCOMPARE(*map("~/a/b"), home + QStringLiteral("/a/b"));
    QCOMPARE(*map("/home/user"), home);
    QCOMPARE(*map("/tmp/t"), tmp + QStringLiteral("/t"));
    QCOMPARE(*map("/home/user/sub/../y"), home + QStringLiteral("/y"));
    QCOMPARE(*map("/home/user/inside-link/z"), home + QStringLiteral("/inside-link/z"));
    for (const char *bad :
         {"/etc/passwd", "/home/user/../../etc/passwd", "../x", "/tmp/../etc", "/home/user/etc-link/passwd",
          "/home/user/etc-link", "/home/user/dangling", "/home/userx", ""})
        QVERIFY2(!map(bad).ok(), bad);
}

QTEST_GUILESS_MAIN(TestContractKit)
#include "tst_contract_kit.moc"
