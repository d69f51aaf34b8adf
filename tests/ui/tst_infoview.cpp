// The Info tab: identity, resources, labels, mounts, forwarded ports (Open, Copy) and the
// provider's JSON.
#include "TestSupport.h"
#include "detail/InfoView.h"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QToolButton>
#include <QUrl>
#include <QtTest>

using namespace sandbar;
using sandbar::ui::InfoView;

namespace {
SessionInfo sampleSession()
{
    SessionInfo s;
    s.id = QStringLiteral("3f9a1c2b7d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4");
    s.name = QStringLiteral("web-agent");
    s.account = QStringLiteral("docker-local");
    s.provider = QStringLiteral("docker");
    s.image = QStringLiteral("node:22-bookworm");
    s.state = SessionState::Running;
    s.statusText = QStringLiteral("Up 12 minutes");
    s.created = QDateTime(QDate(2026, 12, 1), QTime(9, 30), QTimeZone::utc());
    s.ttlSeconds = 7200;
    s.expiresAt = s.created.addSecs(s.ttlSeconds);
    s.cpus = 2;
    s.memoryBytes = qint64(4) << 30;
    s.network = true;
    s.labels = {{QStringLiteral("dev.sandbar.app"), QStringLiteral("sandbar")},
                {QStringLiteral("dev.sandbar.account"), QStringLiteral("docker-local")},
                {QStringLiteral("team"), QStringLiteral("frontend")}};
    s.mounts = {MountSpec{QStringLiteral("/home/ana/src/shop"), QStringLiteral("/workspace"), false},
                MountSpec{QStringLiteral("/home/ana/.npmrc"), QStringLiteral("/home/node/.npmrc"), true}};
    s.endpoints = {SessionEndpoint{QStringLiteral("8080/tcp"), QStringLiteral("http://127.0.0.1:49153"), 8080, 49153},
                   SessionEndpoint{QStringLiteral("5173/tcp"), QStringLiteral("http://127.0.0.1:5173"), 5173, 5173}};
    s.rawJson = R"({"Id":"3f9a1c2b","Config":{"Image":"node:22-bookworm","Tty":false},)"
                R"("HostConfig":{"PortBindings":{"8080/tcp":[{"HostIp":"127.0.0.1","HostPort":""}]}}})";
    return s;
}

QString formValue(InfoView &v, const QString &label)
{
    for (auto *l : v.findChildren<QLabel *>()) {
        if (l->accessibleName() == label)
            return l->text();
    }
    return {};
}
} // namespace

// Stands in for the browser: QDesktopServices hands it http URLs.
class UrlCatcher : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> urls;
public Q_SLOTS:
    void open(const QUrl &url) { urls << url; }
};

class TestInfoView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsIdentityAndResources()
    {
        InfoView v;
        QCOMPARE(v.objectName(), QStringLiteral("infoView"));
        v.setSession(sampleSession(), Capability::Ports | Capability::Mounts);
        QCOMPARE(formValue(v, QStringLiteral("Name")), QStringLiteral("web-agent"));
        QCOMPARE(formValue(v, QStringLiteral("Image")), QStringLiteral("node:22-bookworm"));
        QVERIFY(formValue(v, QStringLiteral("State")).contains(QLatin1String("Up 12 minutes")));
        QVERIFY(formValue(v, QStringLiteral("Memory")).contains(QLatin1String("4")));
        QCOMPARE(formValue(v, QStringLiteral("Network")), QStringLiteral("on"));
        auto *labels = v.findChild<QTableWidget *>(QStringLiteral("labelsTable"));
        QCOMPARE(labels->rowCount(), 3);
        auto *mounts = v.findChild<QTableWidget *>(QStringLiteral("mountsTable"));
        QCOMPARE(mounts->rowCount(), 2);
        QCOMPARE(mounts->item(1, 2)->text(), QStringLiteral("read-only"));
    }

    void endpointsOpenAndCopy()
    {
        InfoView v;
        v.setSession(sampleSession(), Capability::Ports);
        auto *table = v.findChild<QTableWidget *>(QStringLiteral("endpointsTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("8080/tcp"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("http://127.0.0.1:49153"));

        auto *copy = qobject_cast<QPushButton *>(table->cellWidget(1, 3));
        QVERIFY(copy);
        QVERIFY(!copy->accessibleName().isEmpty());
        QApplication::clipboard()->clear();
        copy->click();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("http://127.0.0.1:5173"));

        // Open goes through QDesktopServices: a handler for http stands in for the browser.
        UrlCatcher catcher;
        QDesktopServices::setUrlHandler(QStringLiteral("http"), &catcher, "open");
        QSignalSpy opened(&v, &InfoView::endpointOpened);
        auto *open = qobject_cast<QPushButton *>(table->cellWidget(0, 2));
        QVERIFY(open && open->isEnabled());
        open->click();
        QDesktopServices::unsetUrlHandler(QStringLiteral("http"));
        QCOMPARE(opened.size(), 1);
        QCOMPARE(opened.first().first().toString(), QStringLiteral("http://127.0.0.1:49153"));
        QCOMPARE(catcher.urls, QList<QUrl>{QUrl(QStringLiteral("http://127.0.0.1:49153"))});
    }

    void noPortsSaysWhy()
    {
        InfoView v;
        SessionInfo s = sampleSession();
        s.endpoints.clear();
        v.setSession(s, {});
        auto *table = v.findChild<QTableWidget *>(QStringLiteral("endpointsTable"));
        QCOMPARE(table->rowCount(), 0);
        QVERIFY(!table->isVisibleTo(&v));
        bool said = false;
        for (auto *l : v.findChildren<QLabel *>())
            said = said || l->text().contains(QLatin1String("does not forward ports"));
        QVERIFY(said);
    }

    void rawJsonIsPrettyAndCollapsible()
    {
        InfoView v;
        v.setSession(sampleSession(), Capability::Ports);
        auto *raw = v.findChild<QPlainTextEdit *>(QStringLiteral("rawJson"));
        QVERIFY(raw);
        QVERIFY(raw->isReadOnly());
        QCOMPARE(raw->font().family(), QFontDatabase::systemFont(QFontDatabase::FixedFont).family());
        QVERIFY(raw->toPlainText().contains(QLatin1String("\n    \"Config\": {")));
        QVERIFY(!raw->isVisibleTo(&v));
        v.setRawJsonExpanded(true);
        QVERIFY(raw->isVisibleTo(&v));
        v.findChild<QPushButton *>(QStringLiteral("copyRawJson"))->click();
        QCOMPARE(QApplication::clipboard()->text(), raw->toPlainText());
        QCOMPARE(InfoView::prettyJson("not json"), QStringLiteral("not json"));

        // A refresh keeps it open; a session without JSON hides the section.
        v.setSession(sampleSession(), Capability::Ports);
        QVERIFY(raw->isVisibleTo(&v));
        SessionInfo bare = sampleSession();
        bare.rawJson.clear();
        v.setSession(bare, Capability::Ports);
        QVERIFY(!raw->isVisibleTo(&v));
        QVERIFY(!v.findChild<QToolButton *>(QStringLiteral("rawJsonToggle"))->isVisibleTo(&v));
    }

    void everyControlHasAName()
    {
        InfoView v;
        v.setSession(sampleSession(), Capability::Ports | Capability::Mounts);
        for (auto *w : v.findChildren<QWidget *>()) {
            // Qt's own parts (a scroll area's, a header's) are named by Qt's accessibility.
            if (w->objectName().isEmpty() || w->objectName().startsWith(QLatin1String("qt_")))
                continue;
            if (qobject_cast<QAbstractButton *>(w) || qobject_cast<QTableWidget *>(w) ||
                qobject_cast<QPlainTextEdit *>(w))
                QVERIFY2(!w->accessibleName().isEmpty(), qPrintable(w->objectName()));
        }
    }

    void screenshot()
    {
        InfoView v;
        v.resize(760, 1180);
        v.setSession(sampleSession(), Capability::Ports | Capability::Mounts);
        v.setRawJsonExpanded(true);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const QPixmap shot = v.grab();
        QVERIFY(!shot.isNull());
        if (const QString out = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR"); !out.isEmpty())
            QVERIFY(shot.save(out + QStringLiteral("/infoview.png")));
    }
};

QTEST_MAIN(TestInfoView)
#include "tst_infoview.moc"
