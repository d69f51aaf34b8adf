// The man pages, help and completions are made from the command definitions (clispec), and the
// parser takes its options from them too; these tests hold the four together.
#include "TestSupport.h"
#include "catalog/Catalog.h"
#include "clispec/CliSpec.h"
#include "providers/ProviderFactory.h"
#include "wiring/AppServices.h"
#include "wiring/cli/CliCreateOptions.h"
#include "wiring/cli/CliSupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sandbar;

namespace {

QString docFile(const QString &name)
{
    return QStringLiteral(SANDBAR_DOC_DIR) + QLatin1Char('/') + name;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The page's text as a reader searches it: minus signs as hyphens, font changes gone.
QString plain(const QByteArray &roff)
{
    QString t = QString::fromUtf8(roff);
    t.replace(QLatin1String("\\-"), QLatin1String("-"));
    for (const char *font : {"\\fB", "\\fI", "\\fR", "\\&", "\\(em"})
        t.remove(QLatin1String(font));
    return t;
}

struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run run(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// A tool a check needs: on CI its absence fails the test (never a silent skip).
bool haveTool(const QString &name, QString &path)
{
    path = QStandardPaths::findExecutable(name);
    return !path.isEmpty();
}

bool onCi()
{
    return qEnvironmentVariable("CI") == QLatin1String("true");
}

} // namespace

class TstDocs : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyCommandAndOptionIsInTheManPage()
    {
        const QString page = plain(readAll(docFile(QStringLiteral("sandbarctl.1"))));
        QVERIFY2(!page.isEmpty(), "sandbarctl.1 was not generated (sandbar-docs target)");
        for (const char *section : {"NAME", "SYNOPSIS", "DESCRIPTION", "GLOBAL OPTIONS", "COMMANDS", "PROVIDERS",
                                    "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"})
            QVERIFY2(page.contains(QStringLiteral(".SH ") + QLatin1String(section)), section);
        for (const auto &o : clispec::globalOptions())
            QVERIFY2(page.contains(QLatin1String(o.name)), o.name);
        for (const auto &c : clispec::commands()) {
            if (c.hidden)
                continue;
            QVERIFY2(page.contains(QStringLiteral(".SS ") + QLatin1String(c.words) + QLatin1Char('\n')), c.words);
            // What the parser accepts for the command, each option in the page.
            const cli::OptionSpec spec = cli::optionSpecFor(QString::fromLatin1(c.words));
            for (const QString &o : spec.flags + spec.valued)
                QVERIFY2(page.contains(o), qPrintable(QLatin1String(c.words) + QLatin1Char(' ') + o));
            for (const auto &o : c.options)
                QVERIFY2(page.contains(QLatin1String(o.name)), o.name);
        }
        for (const auto &e : clispec::exitCodes())
            QVERIFY2(page.contains(QStringLiteral(".TP\n") + QLatin1String(e.code)), e.code);
        for (const auto &e : clispec::environment())
            QVERIFY2(page.contains(QLatin1String(e.name)), e.name);
    }

    // accounts add and sessions create also take what each provider's descriptor adds.
    void everyProviderOptionIsInTheManPage()
    {
        const QString page = plain(readAll(docFile(QStringLiteral("sandbarctl.1"))));
        ProviderFactories factories;
        registerProviders(factories);
        QVERIFY(!factories.all().empty());
        for (const auto &f : factories.all()) {
            const ProviderDescriptor &d = f->descriptor();
            const qsizetype at = page.indexOf(QStringLiteral(".SS ") + d.id + QLatin1Char(' '));
            QVERIFY2(at >= 0, qPrintable(d.id));
            const qsizetype end = page.indexOf(QLatin1String(".SS "), at + 1);
            const QString section = page.mid(at, end < 0 ? -1 : end - at);
            const cli::OptionSpec add = cli::accountsAddSpec(d);
            for (const QString &o : add.flags + add.valued) {
                if (o != QLatin1String("--provider"))
                    QVERIFY2(section.contains(QStringLiteral(".TP\n") + o), qPrintable(d.id + QLatin1Char(' ') + o));
            }
            const cli::OptionSpec create = cli::createOptionsCli(d).spec;
            for (const QString &o : create.flags + create.valued)
                QVERIFY2(page.contains(QStringLiteral(".TP\n") + o), qPrintable(d.id + QLatin1Char(' ') + o));
        }
    }

    // How each provider looks and where its prices are comes from its descriptor: a provider
    // with no badge colour, no documentation link or no catalog entry fails here, not in a
    // view that would fall back without a word.
    void everyProviderLooksAndPricesFromItsDescriptor()
    {
        const auto catalog = catalog::Catalog::shipped();
        QVERIFY_RESULT(catalog);
        ProviderFactories factories;
        registerProviders(factories);
        QVERIFY(!factories.all().empty());
        QSet<quint32> colours;
        for (const auto &f : factories.all()) {
            const ProviderDescriptor &d = f->descriptor();
            QVERIFY2(d.look.badgeRgb != 0 && d.look.badgeRgb <= 0xffffff, qPrintable(d.id));
            QVERIFY2(!colours.contains(d.look.badgeRgb), qPrintable(d.id + QStringLiteral(": colour taken")));
            colours.insert(d.look.badgeRgb);
            QVERIFY2(d.look.docsUrl.startsWith(QLatin1String("https://")), qPrintable(d.id));
            const catalog::ProviderEntry *e = catalog->find(d.catalogId());
            QVERIFY2(e, qPrintable(d.id + QStringLiteral(": no catalog entry ") + d.catalogId()));
            QCOMPARE(catalog->forProvider(d.catalogId(), d.id), e);
        }
    }

    // A provider of the list is named where people look for it: README's table of providers,
    // `sandbarctl help accounts add` and the man page.
    void everyProviderIsInReadmeHelpAndManPage()
    {
        const QString readme = QString::fromUtf8(readAll(QStringLiteral(SANDBAR_README)));
        const qsizetype at = readme.indexOf(QLatin1String("\n## Providers\n"));
        QVERIFY2(at >= 0, "README.md has no Providers section");
        const QString table = readme.mid(at, readme.indexOf(QLatin1String("\n## "), at + 1) - at);
        const Run help = run(QStringLiteral(SANDBARCTL_PATH),
                             {QStringLiteral("help"), QStringLiteral("accounts"), QStringLiteral("add")});
        QCOMPARE(help.code, 0);
        const QString helpText = QString::fromLocal8Bit(help.out).simplified();
        const QString page = plain(readAll(docFile(QStringLiteral("sandbarctl.1"))));
        ProviderFactories factories;
        registerProviders(factories);
        QVERIFY(!factories.all().empty());
        for (const auto &f : factories.all()) {
            const QString id = f->descriptor().id;
            QVERIFY2(table.contains(QStringLiteral("| `") + id + QStringLiteral("` |")), qPrintable(id));
            QVERIFY2(helpText.contains(QRegularExpression(QStringLiteral("\\b") + id + QStringLiteral("\\b"))),
                     qPrintable(id));
            QVERIFY2(page.contains(QStringLiteral(".SS ") + id + QLatin1Char(' ')), qPrintable(id));
        }
    }

    // ARCHITECTURE.md is the map of the code: the tree under "Layers and folders" names every
    // folder of core/, ui/ and app/ and every provider's folder, and no folder that is not there.
    void architectureMapsEveryFolder()
    {
        const QDir root(QStringLiteral(SANDBAR_SOURCE_DIR));
        const QString doc = QString::fromUtf8(readAll(root.filePath(QStringLiteral("ARCHITECTURE.md"))));
        const qsizetype from = doc.indexOf(QLatin1String("## Layers and folders"));
        QVERIFY2(from >= 0, "ARCHITECTURE.md has no Layers and folders section");
        const qsizetype open = doc.indexOf(QLatin1String("```"), from);
        const qsizetype close = doc.indexOf(QLatin1String("```"), open + 3);
        QVERIFY(open > 0 && close > open);
        // "  name/ other/   what they hold": the indent says the level, the names end with '/'.
        static const QRegularExpression entry(QStringLiteral("^( *)([a-z][a-z0-9_-]*/(?: [a-z][a-z0-9_-]*/)*)"));
        QSet<QString> named;
        QString path[3];
        for (const QString &line : doc.mid(open + 3, close - open - 3).split(QLatin1Char('\n'))) {
            const auto m = entry.match(line);
            const int level = int(m.capturedLength(1)) / 2;
            if (!m.hasMatch() || level > 2)
                continue;
            const QStringList names = m.captured(2).split(QLatin1Char(' '));
            for (const QString &name : names) {
                QString full;
                for (int i = 0; i < level; ++i)
                    full += path[i];
                named.insert(full + name);
            }
            path[level] = names.first();
        }
        QStringList expected;
        for (const char *top : {"core", "ui", "app"}) {
            const QString t = QLatin1String(top);
            for (const QString &d : QDir(root.filePath(t)).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
                expected << t + QLatin1Char('/') + d + QLatin1Char('/');
        }
        for (const QString &d :
             QDir(root.filePath(QStringLiteral("core/providers"))).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            expected << QStringLiteral("core/providers/") + d + QLatin1Char('/');
        for (const QString &e : expected)
            QVERIFY2(named.contains(e), qPrintable(QStringLiteral("ARCHITECTURE.md does not map ") + e));
        int checked = 0;
        for (const QString &n : named) {
            if (!n.startsWith(QLatin1String("core/")) && !n.startsWith(QLatin1String("ui/")) &&
                !n.startsWith(QLatin1String("app/")))
                continue;
            ++checked;
            QVERIFY2(QFileInfo(root.filePath(n)).isDir(),
                     qPrintable(QStringLiteral("ARCHITECTURE.md maps ") + n + QStringLiteral(", which is not there")));
        }
        QVERIFY(checked >= expected.size());
    }

    void theGuiPageHasItsOptions()
    {
        const QString page = plain(readAll(docFile(QStringLiteral("sandbar.1"))));
        QVERIFY2(!page.isEmpty(), "sandbar.1 was not generated");
        for (const auto &o : clispec::guiOptions())
            QVERIFY2(page.contains(QLatin1String(o.name)), o.name);
    }

    void helpListsEveryCommand()
    {
        const Run help = run(QStringLiteral(SANDBARCTL_PATH), {QStringLiteral("help")});
        QCOMPARE(help.code, 0);
        const QString text = QString::fromLocal8Bit(help.out);
        for (const auto &c : clispec::commands()) {
            if (c.hidden)
                continue;
            QVERIFY2(text.contains(QStringLiteral("  ") + QLatin1String(c.words)), c.words);
            const Run one =
                run(QStringLiteral(SANDBARCTL_PATH),
                    QStringList{QStringLiteral("help")} + QString::fromLatin1(c.words).split(QLatin1Char(' ')));
            QCOMPARE(one.code, 0);
            for (const auto &o : c.options)
                QVERIFY2(one.out.contains(o.name),
                         qPrintable(QLatin1String(c.words) + QLatin1Char(' ') + QLatin1String(o.name)));
        }
        QVERIFY(!text.contains(QLatin1String("__complete")));
        const Run unknown = run(QStringLiteral(SANDBARCTL_PATH), {QStringLiteral("help"), QStringLiteral("nope")});
        QCOMPARE(unknown.code, 2);
    }

    // The parser takes exactly the options the definitions list: each is accepted, others are not.
    void theParserTakesTheListedOptions()
    {
        for (const auto &c : clispec::commands()) {
            const cli::OptionSpec spec = cli::optionSpecFor(QString::fromLatin1(c.words));
            for (const auto &o : c.options) {
                if (o.providerDependent)
                    continue;
                QStringList args{QLatin1String(o.name)};
                if (o.value)
                    args << QStringLiteral("x");
                const auto parsed = cli::parseArgs(args, spec);
                QVERIFY2(parsed.ok(), qPrintable(QLatin1String(c.words) + QLatin1Char(' ') + QLatin1String(o.name)));
                QVERIFY(parsed->has(QLatin1String(o.name)));
            }
            QVERIFY(!cli::parseArgs({QStringLiteral("--no-such-option")}, spec).ok());
            QCOMPARE(cli::parseArgs({QStringLiteral("--"), QStringLiteral("x")}, spec).ok(), c.allowRest);
        }
    }

    void theManPagesHaveNoWarnings_data()
    {
        QTest::addColumn<QString>("page");
        QTest::newRow("sandbarctl") << QStringLiteral("sandbarctl.1");
        QTest::newRow("sandbar") << QStringLiteral("sandbar.1");
    }

    void theManPagesHaveNoWarnings()
    {
        QFETCH(QString, page);
        QString groff;
        if (!haveTool(QStringLiteral("groff"), groff)) {
            if (onCi())
                QFAIL("groff is not installed (groff-base)");
            QSKIP("groff is not installed (groff-base)");
        }
        const Run r = run(groff, {QStringLiteral("-man"), QStringLiteral("-ww"), QStringLiteral("-z"), docFile(page)});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QString man;
        if (haveTool(QStringLiteral("man"), man)) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("MANWIDTH"), QStringLiteral("80"));
            p.setProcessEnvironment(env);
            p.start(man, {QStringLiteral("--warnings"), QStringLiteral("-E"), QStringLiteral("UTF-8"),
                          QStringLiteral("-l"), docFile(page + QStringLiteral(".gz"))});
            QVERIFY(p.waitForFinished(60000));
            const QByteArray err = p.readAllStandardError();
            QVERIFY2(err.isEmpty(), err.constData());
            QVERIFY(p.readAllStandardOutput().contains("EXIT STATUS"));
        }
    }

    // gzip -n: no name or time in the header, so a rebuild gives the same bytes.
    void thePagesAreGzippedReproducibly()
    {
        for (const char *page : {"sandbarctl.1.gz", "sandbar.1.gz"}) {
            const QByteArray gz = readAll(docFile(QLatin1String(page)));
            QVERIFY2(gz.size() > 10, page);
            QCOMPARE(quint8(gz.at(0)), quint8(0x1f));
            QCOMPARE(quint8(gz.at(1)), quint8(0x8b));
            QCOMPARE(int(gz.at(3)) & 0x08, 0); // FNAME
            QCOMPARE(gz.mid(4, 4), QByteArray(4, '\0'));
        }
    }

    void theCompletionsParse_data()
    {
        QTest::addColumn<QString>("shell");
        QTest::addColumn<QString>("file");
        QTest::newRow("bash") << QStringLiteral("bash") << QStringLiteral("sandbarctl");
        QTest::newRow("zsh") << QStringLiteral("zsh") << QStringLiteral("_sandbarctl");
        QTest::newRow("fish") << QStringLiteral("fish") << QStringLiteral("sandbarctl.fish");
    }

    void theCompletionsParse()
    {
        QFETCH(QString, shell);
        QFETCH(QString, file);
        QString path;
        if (!haveTool(shell, path)) {
            if (onCi())
                QFAIL(qPrintable(shell + QStringLiteral(" is not installed (scripts/install-deps.sh test)")));
            QSKIP(qPrintable(shell + QStringLiteral(" is not installed")));
        }
        const Run r = run(path, {QStringLiteral("-n"), docFile(file)});
        QVERIFY2(r.code == 0 && r.err.isEmpty(), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TstDocs)
#include "tst_docs.moc"
