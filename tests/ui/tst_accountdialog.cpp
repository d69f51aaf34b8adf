// The add-account dialog: fields built from the provider's descriptor, secrets masked and kept
// apart from the settings, input errors shown inline without closing the dialog.

#include "FakeProvider.h"
#include "TestSupport.h"
#include "main/Dialogs.h"
#include "providers/docker/DockerFactory.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>

using namespace sandbar;

class TestAccountDialog : public QObject
{
    Q_OBJECT
    ProviderFactories m_factories;

    static void choose(ui::AddAccountDialog &dlg, const QString &providerName)
    {
        auto *provider = dlg.findChildren<QComboBox *>().first();
        provider->setCurrentIndex(provider->findText(providerName));
        QCOMPARE(provider->currentText(), providerName);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_factories.add(std::make_unique<docker::DockerFactory>(docker::Flavour::Docker));
        m_factories.add(std::make_unique<test::DescriptorOnlyFactory>());
    }

    void fieldsFollowTheProvider()
    {
        ui::AddAccountDialog dlg(m_factories);
        choose(dlg, QStringLiteral("Fake cloud"));
        QVERIFY(dlg.findChild<QLineEdit *>(QStringLiteral("field_endpoint")));
        auto *token = dlg.findChild<QLineEdit *>(QStringLiteral("field_token"));
        QVERIFY(token);
        QCOMPARE(token->echoMode(), QLineEdit::Password); // masked
        QVERIFY(dlg.findChild<QComboBox *>(QStringLiteral("field_region")));
        // Another provider: its own fields, the old ones gone.
        choose(dlg, factoryName(QStringLiteral("docker")));
        QTRY_VERIFY(!dlg.findChild<QLineEdit *>(QStringLiteral("field_token")));
        QVERIFY(dlg.findChild<QWidget *>(QStringLiteral("field_endpoint")));
    }

    void secretsStayOutOfSettings()
    {
        ui::AddAccountDialog dlg(m_factories);
        choose(dlg, QStringLiteral("Fake cloud"));
        dlg.findChildren<QLineEdit *>().first()->setText(QStringLiteral("cloud-1")); // the name
        dlg.findChild<QLineEdit *>(QStringLiteral("field_endpoint"))
            ->setText(QStringLiteral("https://api.example.test"));
        auto missing = dlg.account();
        QVERIFY(!missing.ok()); // the required token
        QVERIFY2(missing.message().contains(QStringLiteral("API token")), qPrintable(missing.message()));
        dlg.findChild<QLineEdit *>(QStringLiteral("field_token"))->setText(QStringLiteral("sk-secret-123"));
        auto a = dlg.account();
        QVERIFY_RESULT(a);
        QCOMPARE(a->name, QStringLiteral("cloud-1"));
        QCOMPARE(a->provider, QStringLiteral("fake"));
        QCOMPARE(a->settings.value(QStringLiteral("endpoint")).toString(), QStringLiteral("https://api.example.test"));
        QVERIFY(!a->settings.contains(QStringLiteral("token")));
        for (const QVariant &v : a->settings)
            QVERIFY(!v.toString().contains(QStringLiteral("sk-secret")));
        QCOMPARE(dlg.secrets().value(QStringLiteral("token")), QStringLiteral("sk-secret-123"));
    }

    // OK with bad input keeps the dialog open and says what is wrong above the buttons.
    void errorsInline()
    {
        ui::AddAccountDialog dlg(m_factories);
        dlg.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dlg));
        choose(dlg, QStringLiteral("Fake cloud"));
        dlg.findChildren<QLineEdit *>().first()->setText(QStringLiteral("bad name/with slash"));
        auto *ok = dlg.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        ok->click();
        auto *error = dlg.findChild<QLabel *>(QStringLiteral("dialogError"));
        QVERIFY(error);
        QTRY_VERIFY(error->isVisible());
        QVERIFY(!error->text().isEmpty());
        QVERIFY(dlg.isVisible());
        QCOMPARE(dlg.result(), int(QDialog::Rejected));
    }

private:
    QString factoryName(const QString &id) const { return m_factories.find(id)->descriptor().displayName; }
};

QTEST_MAIN(TestAccountDialog)
#include "tst_accountdialog.moc"
