// Every create option of every registered provider reaches the CreateSpec the provider gets, from
// the New session form and from sandbarctl alike (both go through parseFieldValues and
// createSpecFromOptions), and a bad value gives one error naming the field.
#include "TestSupport.h"
#include "dialogs/DescriptorForm.h"
#include "dialogs/ListFieldEditor.h"
#include "wiring/AppServices.h"
#include "wiring/cli/CliCreateOptions.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDirIterator>
#include <QFile>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;

namespace {

// Keys every provider spells alike (createSpecFromOptions puts them in named fields).
const QStringList kShared = {
    QLatin1String(createkeys::Image),     QLatin1String(createkeys::Cpus),   QLatin1String(createkeys::Memory),
    QLatin1String(createkeys::PidsLimit), QLatin1String(createkeys::Ttl),    QLatin1String(createkeys::Network),
    QLatin1String(createkeys::User),      QLatin1String(createkeys::Gpus),   QLatin1String(createkeys::Name),
    QLatin1String(createkeys::Env),       QLatin1String(createkeys::Mounts), QLatin1String(createkeys::ReadOnlyMounts),
    QLatin1String(createkeys::Ports),     QLatin1String(createkeys::Labels)};

// The source folder of a provider of the list (ProviderList.cmake), relative to core/.
QString providerFolder(const QString &id)
{
    for (const QString &pair : QStringLiteral(SANDBAR_PROVIDER_FOLDER_OF).split(QLatin1Char(','))) {
        if (pair.section(QLatin1Char('='), 0, 0) == id)
            return pair.section(QLatin1Char('='), 1);
    }
    return {};
}

// Whether the provider's own code reads a create option from CreateSpec::options: a
// provider's create() reads its keys as options.value(QStringLiteral("key")), and a key that
// no code of its folder reads (as Local's "pids" once was) would reach nothing.
bool folderReadsOption(const QString &id, const QString &key)
{
    const QString folder = providerFolder(id);
    if (folder.isEmpty())
        return false;
    const QByteArray needle = "value(QStringLiteral(\"" + key.toUtf8() + "\")";
    QDirIterator it(QStringLiteral(SANDBAR_SOURCE_DIR "/core/") + folder, {QStringLiteral("*.cpp")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile f(it.next());
        if (f.open(QIODevice::ReadOnly) && f.readAll().contains(needle))
            return true;
    }
    return false;
}

const ProviderFactories &factories()
{
    static const ProviderFactories f = [] {
        ProviderFactories out;
        registerProviders(out);
        return out;
    }();
    return f;
}

// A good value for a field: the entries a person types (one per line or repeated option) and
// the typed value expected in CreateSpec::options.
struct Sample {
    QStringList entries;
    QVariant typed;
};

Sample sampleFor(const FieldDescriptor &f, const QTemporaryDir &dir)
{
    switch (f.type) {
    case FieldType::Integer: {
        qlonglong v = 64;
        if (f.minimum.isValid())
            v = qMax(v, f.minimum.toLongLong());
        if (f.maximum.isValid())
            v = qMin(v, f.maximum.toLongLong());
        return {{QString::number(v)}, v};
    }
    case FieldType::Number: return {{QStringLiteral("1.5")}, 1.5};
    case FieldType::Boolean:
        // The opposite of the default, so that the value is seen to arrive.
        return {{f.defaultValue.toBool() ? QStringLiteral("false") : QStringLiteral("true")}, !f.defaultValue.toBool()};
    case FieldType::Bytes: {
        // 256 MiB, or the field's minimum where it asks for more (Daytona counts whole GB).
        const qint64 mib = qMax<qint64>(256, f.minimum.isValid() ? (f.minimum.toLongLong() + (1 << 20) - 1) >> 20 : 0);
        return {{QStringLiteral("%1M").arg(mib)}, mib << 20};
    }
    case FieldType::Duration: return {{QStringLiteral("2h")}, qint64(7200)};
    case FieldType::Gpus: return {{QStringLiteral("2")}, QStringLiteral("2")};
    case FieldType::Choice: return {{f.choices.last()}, f.choices.last()};
    case FieldType::Env: {
        const QStringList env{QStringLiteral("A=1"), QStringLiteral("GREETING=hello world"), QStringLiteral("E=")};
        return {env, env};
    }
    case FieldType::Mounts:
        return {{dir.path() + QStringLiteral(":/data:ro"), dir.path() + QStringLiteral("/:/work")},
                QStringList{dir.path() + QStringLiteral(":/data:ro"), dir.path() + QStringLiteral(":/work")}};
    case FieldType::Ports:
        return {{QStringLiteral("8080"), QStringLiteral(" 3000:8080/UDP ")},
                QStringList{QStringLiteral("8080"), QStringLiteral("3000:8080/udp")}};
    case FieldType::Labels:
        return {{QStringLiteral("team=blue"), QStringLiteral(" reviewed ")},
                QStringList{QStringLiteral("team=blue"), QStringLiteral("reviewed")}};
    case FieldType::Path: {
        const QString path = QStringLiteral("/sample/") + f.key;
        return {{path}, path};
    }
    case FieldType::String:
    case FieldType::Secret:
    case FieldType::Url: break;
    }
    const QString text =
        f.key == QLatin1String(createkeys::User) ? QStringLiteral("1234:1234") : QStringLiteral("sample-") + f.key;
    return {{text}, text};
}

// The spec's named field for a shared key holds the sample.
void checkNamed(const CreateSpec &spec, const FieldDescriptor &f, const Sample &sample, const QTemporaryDir &dir)
{
    const QString &k = f.key;
    if (k == QLatin1String(createkeys::Image))
        QCOMPARE(spec.image, sample.typed.toString());
    else if (k == QLatin1String(createkeys::Cpus))
        QCOMPARE(spec.cpus.value_or(-1), 1.5);
    else if (k == QLatin1String(createkeys::Memory))
        QCOMPARE(spec.memoryBytes.value_or(-1), sample.typed.toLongLong());
    else if (k == QLatin1String(createkeys::PidsLimit))
        QCOMPARE(spec.pidsLimit.value_or(-1), sample.typed.toLongLong());
    else if (k == QLatin1String(createkeys::Ttl))
        QCOMPARE(spec.ttlSeconds, qint64(7200));
    else if (k == QLatin1String(createkeys::Network))
        QCOMPARE(spec.network, sample.typed.toBool());
    else if (k == QLatin1String(createkeys::User))
        QCOMPARE(spec.user, sample.typed.toString());
    else if (k == QLatin1String(createkeys::Gpus))
        QCOMPARE(spec.gpus, 2);
    else if (k == QLatin1String(createkeys::Name))
        QCOMPARE(spec.name, sample.typed.toString());
    else if (k == QLatin1String(createkeys::Env))
        QCOMPARE(spec.env, sample.typed.toStringList());
    else if (k == QLatin1String(createkeys::Mounts)) {
        QCOMPARE(spec.mounts.size(), 2);
        QCOMPARE(spec.mounts.at(0).hostPath, dir.path());
        QCOMPARE(spec.mounts.at(0).sessionPath, QStringLiteral("/data"));
        QVERIFY(spec.mounts.at(0).readOnly);
        QCOMPARE(spec.mounts.at(1).hostPath, dir.path());
        QCOMPARE(spec.mounts.at(1).sessionPath, QStringLiteral("/work"));
        QVERIFY(!spec.mounts.at(1).readOnly);
    } else if (k == QLatin1String(createkeys::Labels)) {
        QCOMPARE(spec.labels, (QMap<QString, QString>{{QStringLiteral("team"), QStringLiteral("blue")},
                                                      {QStringLiteral("reviewed"), QString()}}));
    } else if (k == QLatin1String(createkeys::Ports)) {
        QCOMPARE(spec.ports.size(), 2);
        QCOMPARE(spec.ports.at(0).sessionPort, 8080);
        QCOMPARE(spec.ports.at(0).hostPort, 0);
        QCOMPARE(spec.ports.at(0).protocol, QStringLiteral("tcp"));
        QCOMPARE(spec.ports.at(1).sessionPort, 8080);
        QCOMPARE(spec.ports.at(1).hostPort, 3000);
        QCOMPARE(spec.ports.at(1).protocol, QStringLiteral("udp"));
    }
}

// The New session dialog's path: the provider's form, filled in, then createSpecFromOptions.
Result<CreateSpec> throughForm(const ProviderDescriptor &d, const QString &key, const QStringList &entries)
{
    ui::DescriptorForm form;
    form.setFields(d.createOptions);
    for (const auto &f : d.createOptions) {
        if (f.required && f.key != key)
            form.findChild<QLineEdit *>(QStringLiteral("field_") + f.key)->setText(QStringLiteral("busybox"));
    }
    QWidget *w = form.findChild<QWidget *>(QStringLiteral("field_") + key);
    if (!w)
        return makeError(ErrorCode::NotFound, QStringLiteral("no editor for ") + key);
    if (auto *box = qobject_cast<QCheckBox *>(w))
        box->setChecked(entries.value(0) == QLatin1String("true"));
    else if (auto *combo = qobject_cast<QComboBox *>(w))
        combo->setCurrentText(entries.value(0));
    else if (auto *list = qobject_cast<ui::ListFieldEditor *>(w))
        list->setEntries(entries);
    else if (auto *line = qobject_cast<QLineEdit *>(w))
        line->setText(entries.value(0));
    auto values = form.values();
    if (!values)
        return values.error();
    return createSpecFromOptions(*values);
}

// sandbarctl's path: the options made from the descriptor, parseArgs, createSpecFromArgs (what
// `sessions create` runs before it calls the provider).
Result<CreateSpec> throughCli(const ProviderDescriptor &d, const QString &key, const QStringList &entries,
                              bool asText = false)
{
    const cli::CreateOptionsCli options = cli::createOptionsCli(d);
    QStringList args{QStringLiteral("--account"), QStringLiteral("acct")};
    for (const auto &f : d.createOptions) {
        if (f.required && f.key != key)
            args << QStringLiteral("--") + f.key << QStringLiteral("busybox");
    }
    for (const auto &f : options.fields) {
        if (f.key != key)
            continue;
        for (const QString &e : entries) {
            if (f.type == FieldType::Boolean && !asText && e == QLatin1String("true"))
                args << f.label;
            else
                args << f.label + QLatin1Char('=') + e;
        }
    }
    auto parsed = cli::parseArgs(args, options.spec);
    if (!parsed)
        return parsed.error();
    return cli::createSpecFromArgs(options, *parsed);
}

QString cliOption(const ProviderDescriptor &d, const QString &key)
{
    for (const auto &f : cli::createOptionsCli(d).fields) {
        if (f.key == key)
            return f.label;
    }
    return {};
}

} // namespace

class TestCreateOptions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void providersAreRegistered()
    {
        // Every provider of the list (core/providers/ProviderList.cmake), the five of today among them.
        const QStringList ids = factories().ids();
        QCOMPARE(ids.join(QLatin1Char(',')), QStringLiteral(SANDBAR_PROVIDER_IDS));
        for (const char *id : {"local", "docker", "podman", "e2b", "daytona"})
            QVERIFY2(ids.contains(QLatin1String(id)), id);
    }

    void everyKeyHasAReader()
    {
        for (const auto &factory : factories().all()) {
            const ProviderDescriptor &d = factory->descriptor();
            for (const auto &f : d.createOptions)
                QVERIFY2(kShared.contains(f.key) || folderReadsOption(d.id, f.key),
                         qPrintable(d.id + QStringLiteral(": nothing reads the create option ") + f.key));
        }
    }

    void everyOptionReachesTheSpec_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("cli");
        int rows = 0;
        for (const auto &factory : factories().all()) {
            const ProviderDescriptor &d = factory->descriptor();
            QVERIFY(!d.createOptions.isEmpty());
            for (const auto &f : d.createOptions) {
                for (const bool cli : {false, true}) {
                    QTest::addRow("%s %s %s", qPrintable(d.id), qPrintable(f.key), cli ? "sandbarctl" : "dialog")
                        << d.id << f.key << cli;
                    ++rows;
                }
            }
        }
        QVERIFY(rows >= 2 * (13 + 13 + 8));
    }
    void everyOptionReachesTheSpec()
    {
        QFETCH(QString, provider);
        QFETCH(QString, key);
        QFETCH(bool, cli);
        const ProviderDescriptor &d = factories().find(provider)->descriptor();
        const FieldDescriptor *f = d.createOption(key);
        QVERIFY(f);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const Sample sample = sampleFor(*f, dir);
        const auto spec = cli ? throughCli(d, key, sample.entries) : throughForm(d, key, sample.entries);
        QVERIFY_RESULT(spec);
        QCOMPARE(spec->options.value(key), sample.typed);
        checkNamed(*spec, *f, sample, dir);
    }

    void badValuesNameTheField_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("cli");
        int rows = 0;
        for (const auto &factory : factories().all()) {
            const ProviderDescriptor &d = factory->descriptor();
            for (const auto &f : d.createOptions) {
                QStringList bad;
                switch (f.type) {
                case FieldType::Integer:
                case FieldType::Number: bad = {QStringLiteral("many"), QStringLiteral("-5")}; break;
                case FieldType::Bytes: bad = {QStringLiteral("lots"), QStringLiteral("1k")}; break;
                case FieldType::Duration: bad = {QStringLiteral("soon")}; break;
                case FieldType::Gpus: bad = {QStringLiteral("two"), QStringLiteral("GPU-12")}; break;
                case FieldType::Env: bad = {QStringLiteral("NOEQUALS"), QStringLiteral("=1")}; break;
                case FieldType::Mounts:
                    bad = {QStringLiteral("/tmp"), QStringLiteral("/tmp:relative"),
                           QStringLiteral("/nonexistent/sandbar-host:/data")};
                    break;
                case FieldType::Labels:
                    bad = {QStringLiteral("=blue"), QStringLiteral("two words=x"), QStringLiteral("sandbar=other"),
                           QStringLiteral("dev.sandbar.account=other"), QStringLiteral("sandbar-ttl=1")};
                    break;
                case FieldType::Ports:
                    bad = {QStringLiteral("http"), QStringLiteral("0"), QStringLiteral("65536"),
                           QStringLiteral("1:2:3"), QStringLiteral("8080/sctp")};
                    break;
                default: break;
                }
                for (const QString &b : bad) {
                    for (const bool cli : {false, true}) {
                        QTest::addRow("%s %s '%s' %s", qPrintable(d.id), qPrintable(f.key), qPrintable(b),
                                      cli ? "sandbarctl" : "dialog")
                            << d.id << f.key << b << cli;
                        ++rows;
                    }
                }
            }
        }
        QVERIFY(rows > 0);
    }
    void badValuesNameTheField()
    {
        QFETCH(QString, provider);
        QFETCH(QString, key);
        QFETCH(QString, text);
        QFETCH(bool, cli);
        const ProviderDescriptor &d = factories().find(provider)->descriptor();
        const auto spec = cli ? throughCli(d, key, {text}) : throughForm(d, key, {text});
        QVERIFY(!spec.ok());
        QCOMPARE(spec.code(), ErrorCode::InvalidArgument);
        const QString name = cli ? cliOption(d, key) : d.createOption(key)->label;
        QVERIFY2(spec.message().startsWith(name + QLatin1Char(' ')) ||
                     spec.message().startsWith(name + QLatin1Char(':')),
                 qPrintable(spec.message()));
        QVERIFY2(!spec.message().contains(QLatin1Char('\n')), qPrintable(spec.message()));
    }

    // What only a command line can get wrong: yes/no and choices as text, a value given twice.
    void cliOnlyErrors()
    {
        const ProviderDescriptor &d = factories().find(QStringLiteral("docker"))->descriptor();
        auto r = throughCli(d, QStringLiteral("network"), {QStringLiteral("maybe")}, true);
        QVERIFY(!r.ok());
        QVERIFY2(r.message().startsWith(QStringLiteral("--network: ")), qPrintable(r.message()));
        r = throughCli(d, QStringLiteral("cpus"), {QStringLiteral("1"), QStringLiteral("2")});
        QVERIFY(!r.ok());
        QVERIFY2(r.message().startsWith(QStringLiteral("--cpus ")), qPrintable(r.message()));
        const cli::CreateOptionsCli options = cli::createOptionsCli(d);
        QVERIFY(!cli::parseArgs({QStringLiteral("--bogus"), QStringLiteral("1")}, options.spec).ok());
    }

    // README.md's spellings: --memory-mib, --mount, repeated --env, --network (and =no), --name,
    // --image and --gpus even where the provider has no such option. Cloud services have no
    // host folders to mount, so the providers checked are those with mounts.
    void documentedSpellings_data()
    {
        QTest::addColumn<QString>("provider");
        for (const auto &factory : factories().all())
            if (factory->descriptor().createOption(QLatin1String(createkeys::Mounts)))
                QTest::newRow(qPrintable(factory->descriptor().id)) << factory->descriptor().id;
    }
    void documentedSpellings()
    {
        QFETCH(QString, provider);
        const ProviderDescriptor &d = factories().find(provider)->descriptor();
        QTemporaryDir dir;
        const cli::CreateOptionsCli options = cli::createOptionsCli(d);
        QVERIFY2(options.usage.contains(QStringLiteral("--mount HOST:PATH[:ro]]...")), qPrintable(options.usage));
        QVERIFY2(options.usage.contains(QStringLiteral("--memory-mib")), qPrintable(options.usage));
        auto parsed = cli::parseArgs({QStringLiteral("--account"),
                                      QStringLiteral("a"),
                                      QStringLiteral("--image"),
                                      QStringLiteral("busybox"),
                                      QStringLiteral("--cpus"),
                                      QStringLiteral("0.5"),
                                      QStringLiteral("--memory-mib"),
                                      QStringLiteral("128"),
                                      QStringLiteral("--ttl"),
                                      QStringLiteral("900"),
                                      QStringLiteral("--env"),
                                      QStringLiteral("A=1"),
                                      QStringLiteral("--env=B=x=y"),
                                      QStringLiteral("--mount"),
                                      dir.path() + QStringLiteral(":/hostdata:ro"),
                                      QStringLiteral("--mount"),
                                      dir.path() + QStringLiteral(":/rw"),
                                      QStringLiteral("--network"),
                                      QStringLiteral("--name"),
                                      QStringLiteral("box"),
                                      QStringLiteral("--gpus"),
                                      QStringLiteral("all")},
                                     options.spec);
        QVERIFY_RESULT(parsed);
        const auto spec = cli::createSpecFromArgs(options, *parsed);
        QVERIFY_RESULT(spec);
        QCOMPARE(spec->image, QStringLiteral("busybox"));
        QCOMPARE(spec->cpus.value_or(0), 0.5);
        QCOMPARE(spec->memoryBytes.value_or(0), qint64(128) << 20);
        QCOMPARE(spec->ttlSeconds, qint64(900));
        QCOMPARE(spec->env, (QStringList{QStringLiteral("A=1"), QStringLiteral("B=x=y")}));
        QCOMPARE(spec->mounts.size(), 2);
        QCOMPARE(spec->mounts.at(0).sessionPath, QStringLiteral("/hostdata"));
        QVERIFY(spec->mounts.at(0).readOnly);
        QCOMPARE(spec->mounts.at(1).sessionPath, QStringLiteral("/rw"));
        QVERIFY(!spec->mounts.at(1).readOnly);
        QVERIFY(spec->network);
        QCOMPARE(spec->name, QStringLiteral("box"));
        QCOMPARE(spec->gpus, -1);

        auto off = cli::parseArgs({QStringLiteral("--image=busybox"), QStringLiteral("--network=no")}, options.spec);
        QVERIFY_RESULT(off);
        QVERIFY(!cli::createSpecFromArgs(options, *off)->network);
    }

    // --label KEY[=VALUE], repeated, is the person's labels on every provider; a provider that
    // keeps only a few (Vercel: five tags, three of them Sandbar's) refuses more, naming --label.
    void labelsFromTheCommandLine()
    {
        for (const auto &factory : factories().all()) {
            const ProviderDescriptor &d = factory->descriptor();
            const FieldDescriptor *field = d.createOption(QLatin1String(createkeys::Labels));
            QVERIFY2(field, qPrintable(d.id + QStringLiteral(" has no labels option")));
            const cli::CreateOptionsCli options = cli::createOptionsCli(d);
            QVERIFY2(options.usage.contains(QStringLiteral("[--label KEY[=VALUE]]...")), qPrintable(options.usage));
            auto parsed = cli::parseArgs({QStringLiteral("--image=busybox"), QStringLiteral("--label"),
                                          QStringLiteral("team=blue green"), QStringLiteral("--label=reviewed")},
                                         options.spec);
            QVERIFY_RESULT(parsed);
            const auto spec = cli::createSpecFromArgs(options, *parsed);
            QVERIFY_RESULT(spec);
            QCOMPARE(spec->labels, (QMap<QString, QString>{{QStringLiteral("team"), QStringLiteral("blue green")},
                                                           {QStringLiteral("reviewed"), QString()}}));
            if (!field->maximum.isValid())
                continue;
            QStringList args{QStringLiteral("--image=busybox")};
            for (int i = 0; i <= field->maximum.toInt(); ++i)
                args << QStringLiteral("--label") << QStringLiteral("k%1=v").arg(i);
            auto tooMany = cli::parseArgs(args, options.spec);
            QVERIFY_RESULT(tooMany);
            const auto refused = cli::createSpecFromArgs(options, *tooMany);
            QVERIFY(!refused.ok());
            QVERIFY2(refused.message().startsWith(QStringLiteral("--label")), qPrintable(refused.message()));
        }
        QCOMPARE(
            factories().find(QStringLiteral("vercel"))->descriptor().createOption(QStringLiteral("labels"))->maximum,
            QVariant(2));
    }

    // The provider's read-only-mounts option makes every mount read-only, in the spec itself.
    void readOnlyMountsOption()
    {
        QTemporaryDir dir;
        const CreateSpec s =
            createSpecFromOptions({{QLatin1String(createkeys::Mounts), QStringList{dir.path() + QStringLiteral(":/a")}},
                                   {QLatin1String(createkeys::ReadOnlyMounts), true}});
        QCOMPARE(s.mounts.size(), 1);
        QVERIFY(s.mounts.first().readOnly);
    }

    // The one parser of a forwarded port, for the form, sandbarctl and createSpecFromOptions.
    void portSpecs_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("hostPort");
        QTest::addColumn<int>("sessionPort");
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<QString>("canonical");
        const QString tcp = QStringLiteral("tcp");
        const auto S = [](const char *text) { return QString::fromLatin1(text); };
        QTest::newRow("session port") << S("8080") << true << 0 << 8080 << tcp << S("8080");
        QTest::newRow("host:session") << S("3000:8080") << true << 3000 << 8080 << tcp << S("3000:8080");
        QTest::newRow("udp") << S("3000:8080/udp") << true << 3000 << 8080 << S("udp") << S("3000:8080/udp");
        QTest::newRow("explicit tcp") << S("8080/tcp") << true << 0 << 8080 << tcp << S("8080");
        QTest::newRow("blanks") << S("  9000 ") << true << 0 << 9000 << tcp << S("9000");
        QTest::newRow("lowest, highest") << S("1:65535") << true << 1 << 65535 << tcp << S("1:65535");
        for (const char *bad : {"",
                                "   ",
                                "http",
                                "80a",
                                "-1",
                                "0",
                                "0:8080",
                                "8080:0",
                                "65536",
                                "3000:65536",
                                "99999999999",
                                "1:2:3",
                                "127.0.0.1:3000:8080",
                                ":8080",
                                "8080:",
                                "8080/sctp",
                                "8080/",
                                "/tcp",
                                "8 080",
                                "+80"})
            QTest::addRow("bad '%s'", bad) << QString::fromLatin1(bad) << false << 0 << 0 << QString() << QString();
    }
    void portSpecs()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        const auto p = parsePortSpec(text);
        QCOMPARE(p.ok(), ok);
        if (!ok) {
            QCOMPARE(p.code(), ErrorCode::InvalidArgument);
            QVERIFY(!p.message().isEmpty());
            return;
        }
        QFETCH(int, hostPort);
        QFETCH(int, sessionPort);
        QFETCH(QString, protocol);
        QFETCH(QString, canonical);
        QCOMPARE(p->hostPort, hostPort);
        QCOMPARE(p->sessionPort, sessionPort);
        QCOMPARE(p->protocol, protocol);
        QCOMPARE(portSpecText(*p), canonical);
    }

    // sandbarctl: --ports repeated, one port each.
    void portsFromTheCommandLine()
    {
        const ProviderDescriptor &d = factories().find(QStringLiteral("docker"))->descriptor();
        QVERIFY(d.capabilities.testFlag(Capability::Ports));
        const auto spec =
            throughCli(d, QLatin1String(createkeys::Ports), {QStringLiteral("8080"), QStringLiteral("127:5432/udp")});
        QVERIFY_RESULT(spec);
        QCOMPARE(spec->ports.size(), 2);
        QCOMPARE(portSpecText(spec->ports.at(1)), QStringLiteral("127:5432/udp"));
        // Local forwards through slirp4netns: the same option, the same spelling.
        const ProviderDescriptor &local = factories().find(QStringLiteral("local"))->descriptor();
        QVERIFY(local.capabilities.testFlag(Capability::Ports));
        QVERIFY(local.createOption(QLatin1String(createkeys::Ports)));
    }

    // Local's keys before they were shared ("pids", "mount"), and env/mounts saved as text.
    void oldKeysStillRead()
    {
        QTemporaryDir dir;
        const CreateSpec s =
            createSpecFromOptions({{QStringLiteral("pids"), 64},
                                   {QStringLiteral("mount"), QString(dir.path() + QStringLiteral(":/a:ro"))},
                                   {QLatin1String(createkeys::Env), QStringLiteral("A=1\nB=2\n")}});
        QCOMPARE(s.pidsLimit.value_or(0), qint64(64));
        QCOMPARE(s.mounts.size(), 1);
        QVERIFY(s.mounts.first().readOnly);
        QCOMPARE(s.env, (QStringList{QStringLiteral("A=1"), QStringLiteral("B=2")}));
    }

    void parseMountSpec_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("readOnly");
        const auto row = [](const char *name, const char *text, bool ok, const char *host = "", const char *path = "",
                            bool readOnly = false) {
            QTest::newRow(name) << QString::fromUtf8(text) << ok << QString::fromUtf8(host) << QString::fromUtf8(path)
                                << readOnly;
        };
        row("plain", "/h:/s", true, "/h", "/s");
        row("ro", "/h:/s:ro", true, "/h", "/s", true);
        row("rw", "/h:/s:rw", true, "/h", "/s");
        row("relative host", "data:/s", true, "data", "/s");
        row("drive letter", "C:\\data:/s", true, "C:\\data", "/s");
        row("empty", "", false);
        row("no path", "/h", false);
        row("truncated", "/h:", false);
        row("only ro", "/h:ro", false);
        row("relative path", "/h:s", false);
        row("garbage", ":::", false);
    }
    void parseMountSpec()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        const auto m = sandbar::parseMountSpec(text);
        QCOMPARE(m.ok(), ok);
        if (!ok) {
            QCOMPARE(m.code(), ErrorCode::InvalidArgument);
            return;
        }
        QTEST(m->hostPath, "host");
        QTEST(m->sessionPath, "path");
        QTEST(m->readOnly, "readOnly");
    }
};

QTEST_MAIN(TestCreateOptions)
#include "tst_createoptions.moc"
