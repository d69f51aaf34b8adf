// The New session dialog's form reads a GPU request, the environment and the mounts the way
// sandbarctl does: through the provider's descriptor fields and createSpecFromOptions.
#include "TestSupport.h"
#include "dialogs/DescriptorForm.h"
#include "dialogs/ListFieldEditor.h"
#include "providers/docker/DockerFactory.h"
#include "providers/local/LocalProvider.h"

#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace sandbar;

class TestDescriptorForm : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void gpus_data();
    void gpus();
    void envAndMountsTakeOneEntryALine();
    void tablesTakeRowsFromTheButtons();
    void otherListsGetOneColumn();
    void prefillAndStoredSecrets();
};

void TestDescriptorForm::gpus_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<QString>("error"); // the start of the form's one-line error
    const QString uuid = QStringLiteral("GPU-11111111-2222-3333-4444-555555555555");
    for (const auto &p : {QStringLiteral("docker"), QStringLiteral("local")}) {
        const auto row = [&p](const char *name) {
            return &QTest::newRow(qPrintable(QString(p + QLatin1Char(' ') + QLatin1String(name))));
        };
        *row("empty") << p << QString() << 0 << QStringList() << QString();
        *row("all") << p << QStringLiteral("all") << -1 << QStringList() << QString();
        *row("count") << p << QStringLiteral("2") << 2 << QStringList() << QString();
        *row("uuids") << p << (uuid + QStringLiteral(", 3")) << 2 << QStringList{uuid, QStringLiteral("3")}
                      << QString();
        *row("garbage") << p << QStringLiteral("lots") << 0 << QStringList()
                        << QStringLiteral("GPUs: 'lots' is not all, a number of GPUs");
        *row("bad uuid") << p << QStringLiteral("GPU-12") << 0 << QStringList()
                         << QStringLiteral("GPUs: 'GPU-12' is not a GPU UUID");
    }
}

void TestDescriptorForm::gpus()
{
    QFETCH(QString, provider);
    QFETCH(QString, text);
    QFETCH(int, gpus);
    QFETCH(QStringList, ids);
    QFETCH(QString, error);
    const ProviderDescriptor d = provider == QLatin1String("docker") ? docker::makeDescriptor(docker::Flavour::Docker)
                                                                     : local::LocalProvider::staticDescriptor();
    ui::DescriptorForm form;
    form.setFields(d.createOptions);
    auto *edit = form.findChild<QLineEdit *>(QStringLiteral("field_gpus"));
    QVERIFY(edit);
    QCOMPARE(edit->placeholderText(), QStringLiteral("none"));
    // Required fields (the image) filled in, so that only the GPU field can be wrong.
    for (auto *other : form.findChildren<QLineEdit *>()) {
        if (other != edit && other->objectName() == QLatin1String("field_image"))
            other->setText(QStringLiteral("busybox"));
    }
    QTest::keyClicks(edit, text);
    const auto values = form.values();
    if (!error.isEmpty()) {
        QVERIFY(!values.ok());
        QCOMPARE(values.code(), ErrorCode::InvalidArgument);
        QVERIFY2(values.message().startsWith(error), qPrintable(values.message()));
        return;
    }
    QVERIFY_RESULT(values);
    const CreateSpec spec = createSpecFromOptions(*values);
    QCOMPARE(spec.gpus, gpus);
    QCOMPARE(spec.gpuUuids, ids);
}

// The environment and the mounts are tables, a row per variable or folder.
void TestDescriptorForm::envAndMountsTakeOneEntryALine()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const ProviderDescriptor &d :
         {docker::makeDescriptor(docker::Flavour::Docker), local::LocalProvider::staticDescriptor()}) {
        ui::DescriptorForm form;
        form.setFields(d.createOptions);
        if (auto *image = form.findChild<QLineEdit *>(QStringLiteral("field_image")))
            image->setText(QStringLiteral("busybox"));
        auto *env = form.findChild<ui::ListFieldEditor *>(QStringLiteral("field_env"));
        auto *mounts = form.findChild<ui::ListFieldEditor *>(QStringLiteral("field_mounts"));
        QVERIFY(env && mounts);
        env->setEntries({QStringLiteral("A=1"), QStringLiteral("B=two words")});
        mounts->setEntries({dir.path() + QStringLiteral(":/in:ro"), dir.path() + QStringLiteral(":/out")});
        QCOMPARE(env->rowCount(), 2);
        const auto values = form.values();
        QVERIFY_RESULT(values);
        const CreateSpec spec = createSpecFromOptions(*values);
        QCOMPARE(spec.env, (QStringList{QStringLiteral("A=1"), QStringLiteral("B=two words")}));
        QCOMPARE(spec.mounts.size(), 2);
        QVERIFY(spec.mounts.at(0).readOnly);
        QCOMPARE(spec.mounts.at(1).sessionPath, QStringLiteral("/out"));
        QVERIFY(!spec.mounts.at(1).readOnly);

        env->table()->item(1, 0)->setText(QStringLiteral("not a variable"));
        const auto bad = form.values();
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().startsWith(QStringLiteral("Environment: ")), qPrintable(bad.message()));
    }
}

// + adds a row (a mount read-only unless unticked), − removes the selected one; every
// button has an accessible name.
void TestDescriptorForm::tablesTakeRowsFromTheButtons()
{
    QTemporaryDir dir;
    ui::DescriptorForm form;
    form.setFields(docker::makeDescriptor(docker::Flavour::Docker).createOptions);
    QSignalSpy changed(&form, &ui::DescriptorForm::changed);
    auto *mounts = form.findChild<ui::ListFieldEditor *>(QStringLiteral("field_mounts"));
    form.findChild<QToolButton *>(QStringLiteral("add_mounts"))->click();
    QCOMPARE(mounts->rowCount(), 1);
    QVERIFY(!changed.isEmpty());
    mounts->table()->item(0, 0)->setText(dir.path());
    mounts->table()->item(0, 2)->setText(QStringLiteral("/data"));
    QCOMPARE(mounts->table()->item(0, 3)->checkState(), Qt::Checked);
    QVERIFY(mounts->table()->cellWidget(0, 1)); // Browse…
    QCOMPARE(mounts->entries(), QStringList{dir.path() + QStringLiteral(":/data:ro")});
    auto *env = form.findChild<ui::ListFieldEditor *>(QStringLiteral("field_env"));
    form.findChild<QToolButton *>(QStringLiteral("add_env"))->click();
    form.findChild<QToolButton *>(QStringLiteral("add_env"))->click();
    env->table()->item(0, 0)->setText(QStringLiteral("KEEP"));
    env->table()->item(0, 1)->setText(QStringLiteral("1"));
    env->table()->item(1, 0)->setText(QStringLiteral("DROP"));
    env->table()->setCurrentCell(1, 0);
    form.findChild<QToolButton *>(QStringLiteral("remove_env"))->click();
    QCOMPARE(env->entries(), QStringList{QStringLiteral("KEEP=1")});
    for (auto *b : form.findChildren<QToolButton *>(QRegularExpression(QStringLiteral("^(add|remove)_"))))
        QVERIFY2(!b->accessibleName().isEmpty(), qPrintable(b->objectName()));
}

// A list option that is neither environment nor mounts (ports, ...) is one column of texts.
void TestDescriptorForm::otherListsGetOneColumn()
{
    FieldDescriptor ports;
    ports.key = QStringLiteral("ports");
    ports.label = QStringLiteral("Ports");
    ports.type = FieldType::String;
    ui::ListFieldEditor list(ports);
    QCOMPARE(list.table()->columnCount(), 1);
    list.setEntries({QStringLiteral("8080"), QStringLiteral("3000:3000/udp")});
    list.addRow();
    QCOMPARE(list.entries(), (QStringList{QStringLiteral("8080"), QStringLiteral("3000:3000/udp")}));
}

void TestDescriptorForm::prefillAndStoredSecrets()
{
    const ProviderDescriptor d = docker::makeDescriptor(docker::Flavour::Docker);
    ui::DescriptorForm form;
    form.setFields(d.createOptions);
    form.setValues({{QStringLiteral("cpus"), 1.5},
                    {QStringLiteral("memory"), qint64(512) << 20},
                    {QStringLiteral("network"), true},
                    {QStringLiteral("env"), QStringList{QStringLiteral("A=1")}}});
    QCOMPARE(form.findChild<QLineEdit *>(QStringLiteral("field_memory"))->text(), QStringLiteral("512M"));
    QCOMPARE(form.findChild<QLineEdit *>(QStringLiteral("field_cpus"))->text(), QStringLiteral("1.5"));
    form.findChild<QLineEdit *>(QStringLiteral("field_image"))->setText(QStringLiteral("busybox"));
    const auto v = form.values();
    QVERIFY_RESULT(v);
    QCOMPARE(v->value(QStringLiteral("memory")).toLongLong(), qint64(512) << 20);
    QCOMPARE(v->value(QStringLiteral("env")).toStringList(), QStringList{QStringLiteral("A=1")});
    QVERIFY(v->value(QStringLiteral("network")).toBool());
}

QTEST_MAIN(TestDescriptorForm)
#include "tst_descriptorform.moc"
