// The account dialog: fields built from the provider's descriptor, secrets masked and kept
// apart from the settings, input errors shown inline without closing the dialog; edit mode with
// secrets kept in the keychain unless replaced; Test connection against a fake engine; engines
// found on this computer as one-click choices, there and on the first-start panel.

#include "FakeProvider.h"
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "main/Dialogs.h"
#include "providers/docker/DockerFactory.h"
#include "providers/local/LocalProvider.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace sandbar;

namespace {

// A provider whose health answers like an engine: 12 ms later for a good endpoint, an error
// for one containing "bad". It keeps the config it was made with (secrets in memory only).
class ProbeFactory final : public ProviderFactory
{
public:
    ProbeFactory()
    {
        m_desc.id = QStringLiteral("probe");
        m_desc.displayName = QStringLiteral("Probe cloud");
        m_desc.description = QStringLiteral("A cloud that answers health checks (test).");
        m_desc.selfHosted = false;
        FieldDescriptor endpoint;
        endpoint.key = QStringLiteral("endpoint");
        endpoint.label = QStringLiteral("Endpoint");
        endpoint.type = FieldType::Url;
        FieldDescriptor token;
        token.key = QStringLiteral("token");
        token.label = QStringLiteral("API token");
        token.type = FieldType::Secret;
        token.secret = true;
        token.required = true;
        m_desc.accountFields = {endpoint, token};
    }
    const ProviderDescriptor &descriptor() const override { return m_desc; }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const override
    {
        lastConfig = account;
        auto p = std::make_unique<test::MemoryProvider>(m_desc, account.name);
        const bool bad = account.settings.value(QStringLiteral("endpoint")).toString().contains(QStringLiteral("bad"));
        auto *raw = p.get();
        p->healthHook = [bad, raw](Callback<HealthInfo> done) {
            QTimer::singleShot(12, raw, [bad, done]() {
                if (bad)
                    return done(makeError(ErrorCode::Unavailable, QStringLiteral("connection refused")));
                HealthInfo h;
                h.serverName = QStringLiteral("Docker Engine");
                h.version = QStringLiteral("20.10.24");
                done(h);
            });
        };
        return std::unique_ptr<Provider>(std::move(p));
    }
    mutable AccountConfig lastConfig;

private:
    ProviderDescriptor m_desc;
};

const QString kDockerEndpoint = QStringLiteral("unix:///tmp/sandbar-test/docker.sock");
const QString kPodmanEndpoint = QStringLiteral("unix:///run/user/1000/podman/podman.sock");
const AccountChoice kFoundDocker{QStringLiteral("docker"),
                                 {{QStringLiteral("endpoint"), kDockerEndpoint}},
                                 QStringLiteral("Docker — /tmp/sandbar-test/docker.sock (DOCKER_HOST)")};
const AccountChoice kFoundPodman{QStringLiteral("podman"),
                                 {{QStringLiteral("endpoint"), kPodmanEndpoint}},
                                 QStringLiteral("Podman — /run/user/1000/podman/podman.sock")};

} // namespace

class TestAccountDialog : public QObject
{
    Q_OBJECT
    ProviderFactories m_factories;
    ProbeFactory *m_probe = nullptr;

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
        m_factories.add(std::make_unique<docker::DockerFactory>(docker::Flavour::Podman));
        m_factories.add(std::make_unique<local::LocalProviderFactory>());
        auto probe = std::make_unique<ProbeFactory>();
        m_probe = probe.get();
        m_factories.add(std::move(probe));
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
        dlg.findChild<QLineEdit *>(QStringLiteral("field_token"))->setText(QStringLiteral("sbtest-secret-dialog-123"));
        auto a = dlg.account();
        QVERIFY_RESULT(a);
        QCOMPARE(a->name, QStringLiteral("cloud-1"));
        QCOMPARE(a->provider, QStringLiteral("fake"));
        QCOMPARE(a->settings.value(QStringLiteral("endpoint")).toString(), QStringLiteral("https://api.example.test"));
        QVERIFY(!a->settings.contains(QStringLiteral("token")));
        for (const QVariant &v : a->settings)
            QVERIFY(!v.toString().contains(QStringLiteral("sbtest-secret-dialog")));
        QCOMPARE(dlg.secrets().value(QStringLiteral("token")), QStringLiteral("sbtest-secret-dialog-123"));
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

    // Edit mode: the name is fixed, a stored secret is never shown and is kept unless replaced.
    void editKeepsAndReplacesSecrets()
    {
        Account existing;
        existing.name = QStringLiteral("cloud-1");
        existing.provider = QStringLiteral("fake");
        existing.settings = {{QStringLiteral("endpoint"), QStringLiteral("https://api.example.test")},
                             {QStringLiteral("region"), QStringLiteral("us")}};
        existing.secretKeys = {QStringLiteral("token")};
        ui::AccountDialog dlg(m_factories, existing);
        QVERIFY(dlg.isEditing());
        auto *name = dlg.findChildren<QLineEdit *>().first();
        QCOMPARE(name->text(), QStringLiteral("cloud-1"));
        QVERIFY(name->isReadOnly());
        QCOMPARE(dlg.findChild<QLineEdit *>(QStringLiteral("field_endpoint"))->text(),
                 QStringLiteral("https://api.example.test"));
        QCOMPARE(dlg.findChild<QComboBox *>(QStringLiteral("field_region"))->currentText(), QStringLiteral("us"));
        auto *token = dlg.findChild<QLineEdit *>(QStringLiteral("field_token"));
        QVERIFY(token && token->isHidden());
        auto *stored = dlg.findChild<QWidget *>(QStringLiteral("stored_token"));
        QVERIFY(stored && !stored->isHidden());
        QVERIFY(stored->findChild<QLabel *>()->text().contains(QStringLiteral("stored in keychain")));

        // Unchanged: nothing to write, the stored secret kept.
        auto kept = dlg.account();
        QVERIFY_RESULT(kept);
        QCOMPARE(kept->secretKeys, QStringList{QStringLiteral("token")});
        QVERIFY(dlg.secrets().isEmpty());
        QCOMPARE(dlg.keptSecrets(), QStringList{QStringLiteral("token")});

        // Replace…: an empty masked input; required again until typed.
        dlg.findChild<QPushButton *>(QStringLiteral("replace_token"))->click();
        QVERIFY(!token->isHidden());
        QVERIFY(token->text().isEmpty());
        QCOMPARE(token->echoMode(), QLineEdit::Password);
        QVERIFY(stored->isHidden());
        QVERIFY(!dlg.account().ok());
        token->setText(QStringLiteral("sbtest-secret-dialognew-456"));
        auto replaced = dlg.account();
        QVERIFY_RESULT(replaced);
        QCOMPARE(replaced->secretKeys, QStringList{QStringLiteral("token")});
        QVERIFY(dlg.keptSecrets().isEmpty());
        QCOMPARE(dlg.secrets(),
                 (QMap<QString, QString>{{QStringLiteral("token"), QStringLiteral("sbtest-secret-dialognew-456")}}));
        for (const QVariant &v : replaced->settings)
            QVERIFY(!v.toString().contains(QStringLiteral("sbtest-secret-dialognew")));
    }

    // Test connection: a temporary provider from the form's values (the secret in memory),
    // health() answered asynchronously: the engine and the latency, or the error.
    void testConnectionShowsLatencyOrError()
    {
        ui::AccountDialog dlg(m_factories);
        dlg.setDiscovery({});
        choose(dlg, QStringLiteral("Probe cloud"));
        dlg.findChild<QLineEdit *>(QStringLiteral("field_endpoint"))->setText(QStringLiteral("https://good.test"));
        dlg.findChild<QLineEdit *>(QStringLiteral("field_token"))->setText(QStringLiteral("sbtest-secret-probe-1"));
        auto *result = dlg.findChild<QLabel *>(QStringLiteral("testResult"));
        auto *spinner = dlg.findChild<QProgressBar *>();
        QSignalSpy tested(&dlg, &ui::AccountDialog::connectionTested);
        dlg.findChild<QPushButton *>(QStringLiteral("testConnection"))->click();
        QVERIFY(!spinner->isHidden()); // not answered yet: the UI thread was not held
        QVERIFY(tested.isEmpty());
        QVERIFY(test::waitUntil([&] { return !tested.isEmpty(); }, 5000));
        QVERIFY(tested.first().at(0).toBool());
        static const QRegularExpression connected(QStringLiteral("^Connected — Docker Engine 20\\.10\\.24, \\d+ ms$"));
        QVERIFY2(connected.match(result->text()).hasMatch(), qPrintable(result->text()));
        QVERIFY(spinner->isHidden());
        QCOMPARE(m_probe->lastConfig.secrets.value(QStringLiteral("token")), QStringLiteral("sbtest-secret-probe-1"));

        dlg.findChild<QLineEdit *>(QStringLiteral("field_endpoint"))->setText(QStringLiteral("https://bad.test"));
        QVERIFY(result->text().isEmpty()); // the old answer does not describe the new values
        tested.clear();
        dlg.testConnection();
        QVERIFY(test::waitUntil([&] { return !tested.isEmpty(); }, 5000));
        QVERIFY(!tested.first().at(0).toBool());
        QCOMPARE(result->text(), QStringLiteral("Could not connect: connection refused"));
    }

    // Engines found here are offered first; a click picks the provider and fills the endpoint.
    void discoveredEngineClickFillsTheForm()
    {
        ui::AccountDialog dlg(m_factories);
        dlg.setDiscovery([] { return QList<AccountChoice>{kFoundDocker, kFoundPodman}; });
        QSignalSpy found(&dlg, &ui::AccountDialog::enginesDiscovered);
        choose(dlg, QStringLiteral("Fake cloud"));
        QVERIFY(test::waitUntil([&] { return !found.isEmpty(); }, 5000));
        QCOMPARE(found.first().at(0).toInt(), 2);
        auto *podman = dlg.findChild<QPushButton *>(QStringLiteral("engine_") + kPodmanEndpoint);
        QVERIFY(podman);
        QVERIFY(!podman->accessibleName().isEmpty());
        podman->click();
        QCOMPARE(dlg.findChildren<QComboBox *>().first()->currentData().toString(), QStringLiteral("podman"));
        QCOMPARE(dlg.findChild<QLineEdit *>(QStringLiteral("field_endpoint"))->text(), kPodmanEndpoint);
        auto a = dlg.account();
        QVERIFY_RESULT(a);
        QCOMPARE(a->provider, QStringLiteral("podman"));
        QCOMPARE(a->settings.value(QStringLiteral("endpoint")).toString(), kPodmanEndpoint);
    }

    // No account yet: one click for the Local sandbox or each engine found, or the full dialog.
    void firstStartPanelOffersOneClickAccounts()
    {
        ui::FirstStartPanel panel(m_factories);
        panel.setDiscovery([] { return QList<AccountChoice>{kFoundDocker}; });
        QSignalSpy chosen(&panel, &ui::FirstStartPanel::chosen);
        QSignalSpy another(&panel, &ui::FirstStartPanel::addAnotherRequested);
        auto *local = panel.findChild<QPushButton *>(QStringLiteral("choice_local"));
        QVERIFY(local);
        QVERIFY(local->text().contains(QStringLiteral("Local sandbox")));
        QVERIFY(test::waitUntil([&] { return panel.findChild<QPushButton *>(QStringLiteral("choice_docker")); }, 5000));
        panel.findChild<QPushButton *>(QStringLiteral("choice_docker"))->click();
        QCOMPARE(chosen.size(), 1);
        const auto docker = chosen.takeFirst().at(0).value<Account>();
        QCOMPARE(docker.provider, QStringLiteral("docker"));
        QCOMPARE(docker.settings.value(QStringLiteral("endpoint")).toString(), kDockerEndpoint);
        QVERIFY_RESULT(AccountStore::validateName(docker.name));
        local->click();
        QCOMPARE(chosen.takeFirst().at(0).value<Account>().provider, QStringLiteral("local"));
        panel.findChild<QPushButton *>(QStringLiteral("addAnother"))->click();
        QCOMPARE(another.size(), 1);
        panel.resize(640, 420);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.grab().save(QStringLiteral("/tmp/firststart.png")));
    }

    void screenshotEditMode()
    {
        Account existing;
        existing.name = QStringLiteral("probe-eu");
        existing.provider = QStringLiteral("probe");
        existing.settings = {{QStringLiteral("endpoint"), QStringLiteral("https://good.test")}};
        existing.secretKeys = {QStringLiteral("token")};
        ui::AccountDialog dlg(m_factories, existing);
        QSignalSpy tested(&dlg, &ui::AccountDialog::connectionTested);
        dlg.resize(560, dlg.sizeHint().height());
        dlg.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dlg));
        dlg.testConnection();
        QVERIFY(test::waitUntil([&] { return !tested.isEmpty(); }, 5000));
        QVERIFY(dlg.grab().save(QStringLiteral("/tmp/accountdialog-edit.png")));
    }

private:
    QString factoryName(const QString &id) const { return m_factories.find(id)->descriptor().displayName; }
};

QTEST_MAIN(TestAccountDialog)
#include "tst_accountdialog.moc"
