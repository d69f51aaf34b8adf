// The Info tab's Snapshots section over a provider with snapshots (MemoryProvider): the list,
// saving with a comment (none asked where the provider keeps none), restoring the selected one
// after the confirmation, errors said.
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "detail/SnapshotsView.h"

#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace sandbar;
using namespace sandbar::test;
using sandbar::ui::SnapshotsView;

namespace {
ProviderDescriptor snapshotsDescriptor()
{
    ProviderDescriptor d;
    d.id = QStringLiteral("memory");
    d.displayName = QStringLiteral("Memory");
    d.capabilities = Capability::Snapshots;
    return d;
}
} // namespace

class TestSnapshotsView : public QObject
{
    Q_OBJECT
    std::unique_ptr<MemoryProvider> m_provider;

private Q_SLOTS:
    void init()
    {
        m_provider = std::make_unique<MemoryProvider>(snapshotsDescriptor(), QStringLiteral("mem"));
        SessionInfo s;
        s.id = QStringLiteral("m1");
        s.state = SessionState::Running;
        m_provider->inject(s);
    }

    // A service that keeps no comment (Vercel): no comment field, its own words as Details.
    void noCommentFieldWhereNoneIsKept()
    {
        m_provider->keepsSnapshotComments = false;
        SnapshotsView v(m_provider.get(), QStringLiteral("m1"));
        v.show();
        QVERIFY(waitUntil([&] { return v.statusText().contains(QStringLiteral("No snapshots")); }, 5000));
        QVERIFY(!v.findChild<QLineEdit *>(QStringLiteral("snapshotComment"))->isVisible());
        QCOMPARE(v.table()->horizontalHeaderItem(2)->text(), QStringLiteral("Details"));
        v.findChild<QPushButton *>(QStringLiteral("saveSnapshotButton"))->click();
        QVERIFY(waitUntil([&] { return v.table()->rowCount() == 1; }, 5000));
    }

    void savesListsAndRestores()
    {
        SnapshotsView v(m_provider.get(), QStringLiteral("m1"));
        v.show();
        QVERIFY(waitUntil([&] { return v.statusText().contains(QStringLiteral("No snapshots")); }, 5000));
        auto *comment = v.findChild<QLineEdit *>(QStringLiteral("snapshotComment"));
        auto *restore = v.findChild<QPushButton *>(QStringLiteral("restoreSnapshotButton"));
        QVERIFY(comment && restore);
        QVERIFY(!restore->isEnabled()); // nothing selected
        comment->setText(QStringLiteral("before the upgrade"));
        v.findChild<QPushButton *>(QStringLiteral("saveSnapshotButton"))->click();
        QVERIFY(waitUntil([&] { return v.table()->rowCount() == 1; }, 5000));
        QCOMPARE(v.table()->item(0, 0)->text(), QStringLiteral("snap-1"));
        QCOMPARE(v.table()->item(0, 2)->text(), QStringLiteral("before the upgrade"));
        QVERIFY(comment->text().isEmpty());
        QVERIFY(v.statusText().contains(QStringLiteral("snap-1")));

        v.table()->selectRow(0);
        QVERIFY(restore->isEnabled());
        restore->click();
        // Nothing happens before the confirmation is answered.
        auto *box = v.findChild<QMessageBox *>(QStringLiteral("restoreSnapshotConfirm"));
        QVERIFY(box);
        QVERIFY(!m_provider->calls.contains(QStringLiteral("restoreSnapshot")));
        box->button(QMessageBox::Yes)->click();
        QVERIFY(waitUntil([&] { return v.statusText().contains(QStringLiteral("Restored")); }, 5000));
        QVERIFY(m_provider->calls.contains(QStringLiteral("restoreSnapshot")));
    }

    void errorsAreSaid()
    {
        SnapshotsView v(m_provider.get(), QStringLiteral("gone"));
        v.show();
        QVERIFY(waitUntil([&] { return v.statusText().contains(QStringLiteral("could not be listed")); }, 5000));
        v.findChild<QPushButton *>(QStringLiteral("saveSnapshotButton"))->click();
        QVERIFY(waitUntil([&] { return v.statusText().contains(QStringLiteral("failed")); }, 5000));
        QVERIFY(v.findChild<QPushButton *>(QStringLiteral("saveSnapshotButton"))->isEnabled());
    }
};

QTEST_MAIN(TestSnapshotsView)
#include "tst_snapshotsview.moc"
