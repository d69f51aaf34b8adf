// A full disk under the audit log, the cost ledger and a download, and a read-only config
// folder, made for real in a private mount namespace (a 1 MiB tmpfs, a read-only bind
// mount): each write fails with a clear error and a code, nothing committed before is
// lost, nothing crashes, and reads go on working.
#include "FaultKit.h"
#include "audit/AuditLog.h"
#include "cloud/CloudClient.h"
#include "cloud/Transfers.h"
#include "costs/CostLedger.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QNetworkRequest>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;
using namespace sandbar::test;
using namespace sandbar::test::faults;

namespace {

// One file over HTTP/1.1 with its length, to every connection.
class OneFileServer : public QObject
{
public:
    explicit OneFileServer(QByteArray body)
        : m_body(std::move(body))
    {
        m_server.listen(QHostAddress::LocalHost);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] {
                    if (!s->readAll().contains("\r\n\r\n"))
                        return;
                    s->write("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: " +
                             QByteArray::number(m_body.size()) + "\r\nConnection: close\r\n\r\n");
                    s->write(m_body);
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    quint16 port() const { return m_server.serverPort(); }

private:
    QTcpServer m_server;
    QByteArray m_body;
};

QStringList filesIn(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
}

} // namespace

class TestFaultsStorage : public QObject
{
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> m_root;
    QStringList m_mounts;

    QString tmpfs(const QString &name)
    {
        const QString dir = m_root->filePath(name);
        const QString error = mountTmpfs(dir, "1m");
        if (error.isEmpty())
            m_mounts.prepend(dir);
        return error.isEmpty() ? dir : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        SANDBAR_REQUIRE(namespaceError().isEmpty(), namespaceError());
        m_root = std::make_unique<QTemporaryDir>();
        QVERIFY(m_root->isValid());
    }

    void cleanupTestCase()
    {
        for (const QString &m : std::as_const(m_mounts))
            unmount(m);
    }

    void auditAndLedgerOnFullDisk()
    {
        const QString cfg = tmpfs(QStringLiteral("full-cfg"));
        QVERIFY(!cfg.isEmpty());
        audit::AuditLog log(cfg);
        log.setFlushDelay(0);
        costs::CostLedger ledger(cfg);
        QVERIFY(log.isOpen());
        QVERIFY(ledger.isOpen());
        const QDate today = QDate::currentDate();
        for (int i = 0; i < 20; ++i)
            QVERIFY_RESULT(log.append(audit::makeEntry(audit::Action::ExecRun, QStringLiteral("acct"),
                                                       QStringLiteral("docker"), QStringLiteral("s%1").arg(i))));
        for (int i = 0; i < 3; ++i)
            QVERIFY_RESULT(ledger.addSpend(QStringLiteral("acct"), today, 1.25));

        QVERIFY(fillDisk(cfg + QStringLiteral("/filler")) > 0);

        // Each commit adds a page to the write-ahead log: on a full disk one must fail.
        int written = 20;
        VoidResult failed;
        for (int i = 0; i < 500 && failed.ok(); ++i) {
            failed = log.append(audit::makeEntry(audit::Action::ExecRun, QStringLiteral("acct"),
                                                 QStringLiteral("docker"), QStringLiteral("full-%1").arg(i)));
            if (failed.ok())
                ++written;
        }
        QVERIFY2(!failed.ok(), "500 audit rows went onto a full disk");
        QCOMPARE(failed.code(), ErrorCode::Unavailable);
        QVERIFY2(failed.message().contains(QLatin1String("full"), Qt::CaseInsensitive), qPrintable(failed.message()));
        QCOMPARE(log.pendingCount(), 1); // kept for the next try, not dropped

        double spent = 3 * 1.25;
        VoidResult ledgerFailed;
        for (int i = 0; i < 500 && ledgerFailed.ok(); ++i) {
            ledgerFailed = ledger.addSpend(QStringLiteral("acct"), today, 0.5);
            if (ledgerFailed.ok())
                spent += 0.5;
        }
        QVERIFY2(!ledgerFailed.ok(), "500 ledger rows went onto a full disk");
        QVERIFY2(ledgerFailed.message().contains(QLatin1String("full"), Qt::CaseInsensitive),
                 qPrintable(ledgerFailed.message()));
        QCOMPARE(ledgerFailed.code(), ErrorCode::Unavailable);

        // Reads still work, and everything committed before is there.
        auto page = audit::readAuditFile(log.path(), {});
        QVERIFY_RESULT(page);
        QCOMPARE(page->total, qint64(written));
        auto sum = ledger.spend(QStringLiteral("acct"), today);
        QVERIFY_RESULT(sum);
        QCOMPARE(*sum, spent);
        // So does sandbarctl, which also reports that it could not write.
        const CtlRun ctl = runCtl(cfg, {QStringLiteral("--json"), QStringLiteral("audit")}, m_root->path());
        QVERIFY2(ctl.exitCode >= 0, "sandbarctl crashed or hung on a full disk");
        QVERIFY2(ctl.out.count(QLatin1String("\"action\"")) >= 20, qPrintable(ctl.out + ctl.err));

        // Room again: the kept row is written once, none twice.
        QVERIFY(QFile::remove(cfg + QStringLiteral("/filler")));
        QVERIFY_RESULT(log.flush());
        QCOMPARE(log.pendingCount(), 0);
        page = audit::readAuditFile(log.path(), {});
        QVERIFY_RESULT(page);
        QCOMPARE(page->total, qint64(written + 1));
        QVERIFY_RESULT(ledger.addSpend(QStringLiteral("acct"), today, 0.5));
        QCOMPARE(*ledger.spend(QStringLiteral("acct"), today), spent + 0.5);
    }

    void downloadOnFullDisk()
    {
        const QString dir = tmpfs(QStringLiteral("full-dl"));
        QVERIFY(!dir.isEmpty());
        const QString target = dir + QStringLiteral("/model.bin");
        const QByteArray old(100 * 1024, 'o');
        QVERIFY(writeAll(target, old));
        // Twice the file system's size: the disk fills halfway through.
        QByteArray body(2 * 1024 * 1024, '\0');
        for (qsizetype i = 0; i < body.size(); ++i)
            body[i] = char(i * 31 % 251);
        OneFileServer server(body);
        QVERIFY(server.port() != 0);

        cloud::CloudClient::Options options;
        options.service = QStringLiteral("Test");
        options.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(server.port()));
        cloud::CloudClient client(options);
        cloud::HttpDownloadJob job(
            &client, cloud::HttpTarget{QUrl(QStringLiteral("http://127.0.0.1:%1/f").arg(server.port()))}, target);
        std::optional<VoidResult> result;
        connect(&job, &TransferJob::finished, this, [&](const VoidResult &r) { result = r; });
        job.start();
        QVERIFY2(waitUntil([&] { return result.has_value(); }, 30000), "the download never ended");
        QVERIFY2(!result->ok(), "a 2 MiB download fit on a 1 MiB disk");
        QVERIFY(!errorCodeName(result->code()).isEmpty());
        QVERIFY2(result->message().contains(target), qPrintable(result->message()));
        QVERIFY2(result->message().contains(QLatin1String("space"), Qt::CaseInsensitive),
                 qPrintable(result->message()));
        // The old file is whole and nothing half-written is left beside it.
        QCOMPARE(readAll(target), old);
        QCOMPARE(filesIn(dir), QStringList{QStringLiteral("model.bin")});
    }

    void readOnlyConfigFolder()
    {
        const QString cfg = m_root->filePath(QStringLiteral("ro-cfg"));
        const QString home = m_root->filePath(QStringLiteral("ro-home"));
        QDir().mkpath(home);
        const QStringList add1 = {QStringLiteral("accounts"),
                                  QStringLiteral("add"),
                                  QStringLiteral("d1"),
                                  QStringLiteral("--provider"),
                                  QStringLiteral("docker"),
                                  QStringLiteral("--endpoint"),
                                  QStringLiteral("unix:///nonexistent/one.sock")};
        CtlRun r = runCtl(cfg, add1, home);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QByteArray iniBefore = readAll(cfg + QStringLiteral("/sandbar.ini"));
        QVERIFY(iniBefore.contains("d1"));

        const QString error = bindReadOnly(cfg);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_mounts.prepend(cfg);
        QVERIFY(!QFile(cfg + QStringLiteral("/probe")).open(QIODevice::WriteOnly));

        // Adding an account fails, says why, and does not pretend it worked.
        QStringList add2 = add1;
        add2[2] = QStringLiteral("d2");
        r = runCtl(cfg, add2, home);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("could not be written")), qPrintable(r.err));
        // Reads work: the accounts, and the audit log with its earlier row.
        r = runCtl(cfg, {QStringLiteral("accounts"), QStringLiteral("list")}, home);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QLatin1String("d1")));
        QVERIFY(!r.out.contains(QLatin1String("d2")));
        r = runCtl(cfg, {QStringLiteral("audit")}, home);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("account.added")), qPrintable(r.out + r.err));
        QVERIFY2(r.err.contains(QLatin1String("read-only")), qPrintable(r.err));

        // In process: the store refuses the account and does not list it afterwards.
        audit::AuditLog log(cfg);
        log.setFlushDelay(0);
        QVERIFY(log.isOpen());
        auto appended = log.append(audit::makeEntry(audit::Action::ExecRun, QStringLiteral("d1"),
                                                    QStringLiteral("docker"), QStringLiteral("s")));
        QVERIFY(!appended.ok());
        QVERIFY2(appended.message().contains(QLatin1String("readonly"), Qt::CaseInsensitive),
                 qPrintable(appended.message()));
        auto page = audit::readAuditFile(log.path(), {});
        QVERIFY_RESULT(page);
        QVERIFY(page->total >= 1);

        unmount(cfg);
        m_mounts.removeOne(cfg);
        QCOMPARE(readAll(cfg + QStringLiteral("/sandbar.ini")), iniBefore);
    }
};

int main(int argc, char **argv)
{
    enterPrivateMountNamespace();
    QCoreApplication app(argc, argv);
    TestFaultsStorage t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_faults_storage.moc"
