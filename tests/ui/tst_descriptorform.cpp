// The New session dialog's form reads a GPU request, the environment and the mounts the way
// sandbarctl does: through the provider's descriptor fields and createSpecFromOptions.
#include "TestSupport.h"
#include "main/DescriptorForm.h"
#include "providers/docker/DockerFactory.h"
#include "providers/local/LocalProvider.h"

#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;

class TestDescriptorForm : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void gpus_data();
    void gpus();
    void envAndMountsTakeOneEntryALine();
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

// The environment and the mounts are several lines, each one a variable or a folder.
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
        auto *env = form.findChild<QPlainTextEdit *>(QStringLiteral("field_env"));
        auto *mounts = form.findChild<QPlainTextEdit *>(QStringLiteral("field_mounts"));
        QVERIFY(env && mounts);
        env->setPlainText(QStringLiteral("A=1\n\nB=two words\n"));
        mounts->setPlainText(dir.path() + QStringLiteral(":/in:ro\n") + dir.path() + QStringLiteral(":/out"));
        const auto values = form.values();
        QVERIFY_RESULT(values);
        const CreateSpec spec = createSpecFromOptions(*values);
        QCOMPARE(spec.env, (QStringList{QStringLiteral("A=1"), QStringLiteral("B=two words")}));
        QCOMPARE(spec.mounts.size(), 2);
        QVERIFY(spec.mounts.at(0).readOnly);
        QCOMPARE(spec.mounts.at(1).sessionPath, QStringLiteral("/out"));
        QVERIFY(!spec.mounts.at(1).readOnly);

        env->setPlainText(QStringLiteral("A=1\nnot a variable"));
        const auto bad = form.values();
        QVERIFY(!bad.ok());
        QVERIFY2(bad.message().startsWith(QStringLiteral("Environment: ")), qPrintable(bad.message()));
    }
}

QTEST_MAIN(TestDescriptorForm)
#include "tst_descriptorform.moc"
