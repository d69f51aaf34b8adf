// The New session dialog: the cost per hour before creating, a one-hour time limit unless
// changed ("No limit" asks first), environment and mounts as table rows (mounts read-only by
// default), "New session like this", and creating in place: progress (a replayed image pull),
// then closing on success, or the error inline with the form as it was.
#include "CatalogFixture.h"
#include "FakeProvider.h"
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "dialogs/DescriptorForm.h"
#include "dialogs/ListFieldEditor.h"
#include "dialogs/NewSessionDialog.h"
#include "providers/docker/DockerFactory.h"
#include "providers/docker/PullProgress.h"
#include "providers/e2b/E2bFactory.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace sandbar;

namespace {

// A priced cloud: the shared create options, made by a MemoryProvider the test steers.
class CloudFactory final : public ProviderFactory
{
public:
    CloudFactory()
    {
        const auto field = [](const char *key, const char *label, FieldType type) {
            FieldDescriptor f;
            f.key = QLatin1String(key);
            f.label = QLatin1String(label);
            f.type = type;
            return f;
        };
        m_desc.id = QStringLiteral("fakecloud");
        m_desc.displayName = QStringLiteral("Fake cloud");
        m_desc.selfHosted = false;
        auto image = field("image", "Image", FieldType::String);
        image.required = true;
        auto ttl = field("ttl", "Time limit", FieldType::Duration);
        ttl.minimum = 0;
        auto cpus = field("cpus", "CPUs", FieldType::Number);
        auto memory = field("memory", "Memory", FieldType::Bytes);
        m_desc.createOptions = {image,
                                cpus,
                                memory,
                                ttl,
                                field("env", "Environment", FieldType::Env),
                                field("mounts", "Mounts", FieldType::Mounts),
                                labelsOption(),
                                field("network", "Network", FieldType::Boolean)};
        m_desc.capabilities = Capability::Exec;
    }
    const ProviderDescriptor &descriptor() const override { return m_desc; }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const override
    {
        return std::unique_ptr<Provider>(std::make_unique<test::MemoryProvider>(m_desc, account.name));
    }

private:
    ProviderDescriptor m_desc;
};

} // namespace

class TestNewSessionDialog : public QObject
{
    Q_OBJECT
    QTemporaryDir m_config;
    ProviderFactories m_factories;
    test::MemorySecretStore m_secrets;
    std::unique_ptr<AccountStore> m_accounts;
    std::unique_ptr<test::MemoryProvider> m_cloud;

    template <typename W>
    static W *child(QObject &parent, const char *name)
    {
        return parent.findChild<W *>(QLatin1String(name));
    }
    static void setImage(ui::NewSessionDialog &dlg, const QString &image)
    {
        child<QComboBox>(dlg, "image")->setCurrentText(image);
    }
    static void setField(ui::NewSessionDialog &dlg, const char *key, const QString &text)
    {
        auto *line = dlg.findChild<QLineEdit *>(QStringLiteral("field_") + QLatin1String(key));
        QVERIFY(line);
        line->setText(text);
    }
    static ui::ListFieldEditor *list(ui::NewSessionDialog &dlg, const char *key)
    {
        return dlg.findChild<ui::ListFieldEditor *>(QStringLiteral("field_") + QLatin1String(key));
    }
    void useCloud(ui::NewSessionDialog &dlg)
    {
        dlg.setProviderLookup([this](const QString &, Callback<Provider *> done) { done(m_cloud.get()); });
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("sandbar-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_newsessiondialog"));
        m_factories.add(std::make_unique<docker::DockerFactory>(docker::Flavour::Docker));
        m_factories.add(std::make_unique<CloudFactory>());
        m_factories.add(e2b::makeE2bFactory());
        m_accounts = std::make_unique<AccountStore>(m_config.path(), m_factories, m_secrets);
        Account eng{QStringLiteral("eng"),
                    QStringLiteral("docker"),
                    {{QStringLiteral("endpoint"), QStringLiteral("unix:///nonexistent/sandbar/docker.sock")}},
                    {},
                    {}};
        Account cloud{QStringLiteral("cloud"), QStringLiteral("fakecloud"), {}, {}, {}};
        Account e2bAccount{QStringLiteral("e2b-team"), QStringLiteral("e2b"), {}, {}, {}};
        for (const Account &a : {eng, cloud, e2bAccount}) {
            const QMap<QString, QString> secrets =
                a.provider == QLatin1String("e2b")
                    ? QMap<QString, QString>{{QStringLiteral("api-key"), QStringLiteral("k")}}
                    : QMap<QString, QString>{};
            QVERIFY_RESULT(test::await<void>([&](Callback<void> done) { m_accounts->add(a, secrets, done); }));
        }
        m_cloud = std::make_unique<test::MemoryProvider>(m_factories.find(QStringLiteral("fakecloud"))->descriptor(),
                                                         QStringLiteral("cloud"));
    }

    void init()
    {
        QSettings().remove(QStringLiteral("newSession"));
        m_cloud->createHook = {};
    }

    void costForACatalogProvider()
    {
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("cloud"));
        dlg.setCatalog(test::catalogPricing(QStringLiteral("fakecloud"), QStringLiteral("e2b")));
        setField(dlg, "cpus", QStringLiteral("2"));
        setField(dlg, "memory", QStringLiteral("4G"));
        const QString expected =
            QStringLiteral("$") + QString::number(test::kE2bUsdPerHour2x4, 'f', 3) + QStringLiteral("/h");
        QVERIFY2(dlg.costText().contains(expected), qPrintable(dlg.costText()));
        QVERIFY2(dlg.costText().contains(QStringLiteral("2 vCPU, 4 GiB")), qPrintable(dlg.costText()));
        // Follows the values as they change.
        setField(dlg, "cpus", QStringLiteral("4"));
        QVERIFY2(!dlg.costText().contains(expected), qPrintable(dlg.costText()));
    }

    void selfHostedCostsNothing()
    {
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("eng"));
        dlg.setCatalog(test::catalogPricing(QStringLiteral("fakecloud"), QStringLiteral("e2b")));
        QVERIFY2(dlg.costText().startsWith(QStringLiteral("$0.00/h — runs on your own machine")),
                 qPrintable(dlg.costText()));
        QVERIFY(dlg.costText().contains(QStringLiteral("Docker")));
    }

    void ttlDefaultsToAnHour()
    {
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("eng"));
        setImage(dlg, QStringLiteral("busybox"));
        const auto spec = dlg.spec();
        QVERIFY_RESULT(spec);
        QCOMPARE(spec->ttlSeconds, qint64(3600));
        QCOMPARE(spec->image, QStringLiteral("busybox"));
        QVERIFY(!spec->network); // off unless asked
    }

    // The time limit follows the provider's descriptor: E2B always ends a sandbox, so "No limit"
    // is not offered, and a cloud service's own words say who enforces the limit.
    void ttlFollowsTheProvider()
    {
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("e2b-team"));
        dlg.show();
        auto *ttl = child<QComboBox>(dlg, "ttl");
        auto *note = child<QLabel>(dlg, "ttlNote");
        QVERIFY(ttl && note);
        auto *view = qobject_cast<QListView *>(ttl->view());
        QVERIFY(view);
        QVERIFY(view->isRowHidden(ttl->findData(qint64(0))));
        QVERIFY(note->isVisible());
        QVERIFY2(note->text().contains(QLatin1String("plan")), qPrintable(note->text()));
        QCOMPARE(child<QComboBox>(dlg, "image")->lineEdit()->placeholderText(), QStringLiteral("base"));
        QVERIFY(dlg.spec()->ttlSeconds > 0);

        ui::NewSessionDialog docker(*m_accounts, m_factories, QStringLiteral("eng"));
        docker.show();
        auto *dockerTtl = child<QComboBox>(docker, "ttl");
        QVERIFY(!qobject_cast<QListView *>(dockerTtl->view())->isRowHidden(dockerTtl->findData(qint64(0))));
        QVERIFY(!child<QLabel>(docker, "ttlNote")->isVisible());
    }

    void noLimitAsksFirst()
    {
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("eng"));
        dlg.show();
        setImage(dlg, QStringLiteral("busybox"));
        auto *ttl = child<QComboBox>(dlg, "ttl");
        const int noLimit = ttl->findData(qint64(0));
        QVERIFY(noLimit >= 0);
        for (const auto answer : {QMessageBox::No, QMessageBox::Yes}) {
            ttl->setCurrentIndex(noLimit);
            QMessageBox *box = nullptr;
            QVERIFY(test::waitUntil(
                [&] {
                    box = dlg.findChild<QMessageBox *>(QStringLiteral("confirmNoLimit"));
                    return box && box->isVisible();
                },
                3000));
            QVERIFY(box->isModal());
            box->button(answer)->click();
            QVERIFY(
                test::waitUntil([&] { return !dlg.findChild<QMessageBox *>(QStringLiteral("confirmNoLimit")); }, 3000));
            QCOMPARE(dlg.spec()->ttlSeconds, answer == QMessageBox::Yes ? qint64(0) : qint64(3600));
            QCOMPARE(ttl->currentIndex() == noLimit, answer == QMessageBox::Yes);
        }
    }

    void envAndMountRowsMakeTheSpec()
    {
        QTemporaryDir dir;
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("eng"));
        setImage(dlg, QStringLiteral("busybox"));
        auto *env = list(dlg, "env");
        auto *mounts = list(dlg, "mounts");
        QVERIFY(env && mounts);
        for (const auto &[k, v] : {std::pair{"FIRST", "1"}, std::pair{"SECOND", "two words"}}) {
            const int row = env->addRow();
            env->table()->item(row, 0)->setText(QLatin1String(k));
            env->table()->item(row, 1)->setText(QLatin1String(v));
        }
        const int row = mounts->addRow();
        mounts->table()->item(row, 0)->setText(dir.path());
        mounts->table()->item(row, 2)->setText(QStringLiteral("/in"));
        const auto spec = dlg.spec();
        QVERIFY_RESULT(spec);
        QCOMPARE(spec->env, (QStringList{QStringLiteral("FIRST=1"), QStringLiteral("SECOND=two words")}));
        QCOMPARE(spec->mounts.size(), 1);
        QCOMPARE(spec->mounts.first().sessionPath, QStringLiteral("/in"));
        QVERIFY(spec->mounts.first().readOnly); // read-only unless unticked
        mounts->table()->item(row, 3)->setCheckState(Qt::Unchecked);
        QVERIFY(!dlg.spec()->mounts.first().readOnly);
    }

    // The person's labels as Key and Value rows: a row without a value is the key alone, and
    // one of Sandbar's own keys is refused in the form, naming the field.
    void labelRowsMakeTheSpec()
    {
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("eng"));
        setImage(dlg, QStringLiteral("busybox"));
        auto *labelRows = list(dlg, "labels");
        QVERIFY(labelRows);
        QCOMPARE(labelRows->table()->horizontalHeaderItem(0)->text(), QStringLiteral("Key"));
        for (const auto &[k, v] : {std::pair{"team", "blue"}, std::pair{"reviewed", ""}}) {
            const int row = labelRows->addRow();
            labelRows->table()->item(row, 0)->setText(QLatin1String(k));
            labelRows->table()->item(row, 1)->setText(QLatin1String(v));
        }
        QCOMPARE(labelRows->entries(), (QStringList{QStringLiteral("team=blue"), QStringLiteral("reviewed")}));
        const auto spec = dlg.spec();
        QVERIFY_RESULT(spec);
        QCOMPARE(spec->labels, (QMap<QString, QString>{{QStringLiteral("team"), QStringLiteral("blue")},
                                                       {QStringLiteral("reviewed"), QString()}}));
        labelRows->table()->item(0, 0)->setText(QStringLiteral("dev.sandbar.account"));
        const auto refused = dlg.spec();
        QVERIFY(!refused.ok());
        QVERIFY2(refused.message().contains(QStringLiteral("Labels")), qPrintable(refused.message()));
    }

    void prefillFromASession()
    {
        QTemporaryDir dir;
        SessionInfo s;
        s.account = QStringLiteral("eng");
        s.provider = QStringLiteral("docker");
        s.image = QStringLiteral("python:3.12-slim");
        s.cpus = 2;
        s.memoryBytes = qint64(1) << 30;
        s.network = true;
        s.ttlSeconds = 7200;
        s.mounts = {MountSpec{dir.path(), QStringLiteral("/work"), true}};
        s.rawJson =
            QJsonDocument(
                QJsonObject{{QStringLiteral("Config"),
                             QJsonObject{{QStringLiteral("Env"), QJsonArray{QStringLiteral("PATH=/usr/bin"),
                                                                            QStringLiteral("TOKEN_HINT=abc")}}}}})
                .toJson();
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("cloud"));
        dlg.prefill(s);
        QCOMPARE(dlg.accountName(), QStringLiteral("eng"));
        const auto spec = dlg.spec();
        QVERIFY_RESULT(spec);
        QCOMPARE(spec->image, s.image);
        QCOMPARE(spec->cpus.value_or(0), 2.0);
        QCOMPARE(spec->memoryBytes.value_or(0), qint64(1) << 30);
        QVERIFY(spec->network);
        QCOMPARE(spec->ttlSeconds, qint64(7200));
        QCOMPARE(spec->env, QStringList{QStringLiteral("TOKEN_HINT=abc")});
        QCOMPARE(spec->mounts.size(), 1);
        QVERIFY(spec->mounts.first().readOnly);
        QCOMPARE(spec->mounts.first().sessionPath, QStringLiteral("/work"));
    }

    void recentImagesAreOffered()
    {
        for (int i = 0; i < 12; ++i)
            ui::NewSessionDialog::rememberImage(QStringLiteral("img:%1").arg(i));
        ui::NewSessionDialog::rememberImage(QStringLiteral("img:5"));
        const QStringList recent = ui::NewSessionDialog::recentImages();
        QCOMPARE(recent.size(), 10);
        QCOMPARE(recent.first(), QStringLiteral("img:5"));
        QCOMPARE(recent.at(1), QStringLiteral("img:11"));
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("eng"));
        auto *image = child<QComboBox>(dlg, "image");
        QVERIFY(image->isEditable());
        QCOMPARE(image->findText(QStringLiteral("img:11")) >= 0, true);
        QCOMPARE(image->currentText(), QStringLiteral("img:5"));
    }

    // A failed create: said inline, the form editable again with everything as typed.
    void inlineErrorKeepsTheForm()
    {
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("cloud"));
        useCloud(dlg);
        m_cloud->createHook = [this](const CreateSpec &, Callback<SessionInfo> &done) {
            QTimer::singleShot(30, m_cloud.get(), [done]() {
                done(makeError(ErrorCode::LimitReached, QStringLiteral("quota exceeded")));
            });
            return true;
        };
        dlg.show();
        setImage(dlg, QStringLiteral("busybox"));
        setField(dlg, "cpus", QStringLiteral("2"));
        const int row = list(dlg, "env")->addRow();
        list(dlg, "env")->table()->item(row, 0)->setText(QStringLiteral("A"));
        child<QDialogButtonBox>(dlg, "")->button(QDialogButtonBox::Ok)->click();
        QVERIFY(dlg.isCreating());
        QVERIFY(child<QWidget>(dlg, "progressArea")->isVisible());
        QVERIFY(!child<QComboBox>(dlg, "image")->isEnabled());
        auto *error = child<QLabel>(dlg, "dialogError");
        QVERIFY(test::waitUntil([&] { return error->isVisible(); }, 5000));
        QVERIFY2(error->text().contains(QStringLiteral("quota exceeded")), qPrintable(error->text()));
        QVERIFY(dlg.isVisible());
        QVERIFY(!dlg.isCreating());
        QVERIFY(!child<QWidget>(dlg, "progressArea")->isVisible());
        QVERIFY(child<QComboBox>(dlg, "image")->isEnabled());
        QCOMPARE(child<QComboBox>(dlg, "image")->currentText(), QStringLiteral("busybox"));
        QCOMPARE(dlg.findChild<QLineEdit *>(QStringLiteral("field_cpus"))->text(), QStringLiteral("2"));
        QCOMPARE(list(dlg, "env")->entries(), QStringList{QStringLiteral("A=")});
    }

    // The provider's pull progress (a recorded /images/create stream replayed) shows in the
    // dialog; the dialog closes once the session exists.
    void pullProgressReplay()
    {
        QFile f(QStringLiteral(SANDBAR_PULL_REPLAY));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("cloud"));
        useCloud(dlg);
        m_cloud->createHook = [this, lines](const CreateSpec &spec, Callback<SessionInfo> &done) {
            auto parser = std::make_shared<docker::PullProgress>();
            auto next = std::make_shared<int>(0);
            auto *timer = new QTimer(m_cloud.get());
            timer->setInterval(2);
            QObject::connect(timer, &QTimer::timeout, m_cloud.get(), [this, timer, parser, next, lines, spec, done]() {
                if (*next < lines.size()) {
                    parser->feed(lines.at((*next)++) + '\n');
                    Q_EMIT m_cloud->createProgress(spec.name, parser->text(), parser->done(), parser->total());
                    return;
                }
                timer->deleteLater();
                Q_EMIT m_cloud->createProgress(spec.name, QStringLiteral("Creating…"), 0, 0);
                SessionInfo s;
                s.id = QStringLiteral("m0001");
                s.account = QStringLiteral("cloud");
                s.image = spec.image;
                done(s);
            });
            timer->start();
            return true;
        };
        QStringList seen;
        auto *text = child<QLabel>(dlg, "progressText");
        QSignalSpy created(&dlg, &ui::NewSessionDialog::created);
        dlg.show();
        setImage(dlg, QStringLiteral("python:3.12-slim"));
        child<QDialogButtonBox>(dlg, "")->button(QDialogButtonBox::Ok)->click();
        QVERIFY(test::waitUntil(
            [&] {
                if (seen.isEmpty() || seen.last() != text->text())
                    seen << text->text();
                return !created.isEmpty();
            },
            10000));
        QVERIFY(!dlg.isVisible());
        QCOMPARE(dlg.result(), int(QDialog::Accepted));
        static const QRegularExpression pct(QStringLiteral("^Pulling image… (\\d+)% \\((\\d+) MiB of (\\d+) MiB\\)$"));
        int last = -1;
        int percents = 0;
        for (const QString &t : seen) {
            const auto m = pct.match(t);
            if (!m.hasMatch())
                continue;
            QVERIFY2(m.captured(1).toInt() >= last, qPrintable(seen.join(QLatin1Char('\n'))));
            last = m.captured(1).toInt();
            ++percents;
        }
        QVERIFY2(percents >= 3, qPrintable(seen.join(QLatin1Char('\n'))));
        QCOMPARE(ui::NewSessionDialog::recentImages().value(0), QStringLiteral("python:3.12-slim"));
    }

    void accessibleNames()
    {
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("eng"));
        for (QWidget *w : dlg.findChildren<QWidget *>()) {
            if (!w->isVisibleTo(&dlg) || !(w->focusPolicy() & Qt::TabFocus) || qobject_cast<QDialogButtonBox *>(w))
                continue;
            if (qobject_cast<QPushButton *>(w) && w->parent() && qobject_cast<QDialogButtonBox *>(w->parent()))
                continue; // OK/Cancel are named by their text
            if (w->objectName() == QLatin1String("qt_scrollarea_viewport") ||
                (w->inherits("QLineEdit") && qobject_cast<QComboBox *>(w->parent())))
                continue;
            QVERIFY2(!w->accessibleName().isEmpty(), w->metaObject()->className());
        }
    }

    void screenshot()
    {
        QTemporaryDir dir;
        ui::NewSessionDialog dlg(*m_accounts, m_factories, QStringLiteral("eng"));
        dlg.setCatalog(test::catalogPricing(QStringLiteral("fakecloud"), QStringLiteral("e2b")));
        setImage(dlg, QStringLiteral("python:3.12-slim"));
        setField(dlg, "cpus", QStringLiteral("2"));
        setField(dlg, "memory", QStringLiteral("4G"));
        list(dlg, "env")
            ->setEntries(
                {QStringLiteral("OPENAI_BASE_URL=http://127.0.0.1:8000"), QStringLiteral("AGENT_MODE=review")});
        list(dlg, "mounts")->setEntries({dir.path() + QStringLiteral(":/workspace/src:ro")});
        dlg.resize(620, dlg.sizeHint().height());
        dlg.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dlg));
        QVERIFY(dlg.grab().save(QStringLiteral("/tmp/newsession.png")));
    }
};

QTEST_MAIN(TestNewSessionDialog)
#include "tst_newsessiondialog.moc"
