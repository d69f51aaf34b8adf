// The German translation is complete, in step with the code (lupdate over the sources finds
// nothing new), compiled into the app, and used: the main window and the new-session dialog
// show German, and so does sandbarctl under LANG=de_DE.UTF-8.

#include "FakeProvider.h"
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "dialogs/NewSessionDialog.h"
#include "main/MainWindow.h"
#include "wiring/Translations.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QProcess>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace sandbar;

namespace {

struct TsMessage {
    QString context;
    QString source;
    QStringList translations; // one, or the plural forms
    bool unfinished = false;
};

QList<TsMessage> readTs(const QString &path)
{
    QList<TsMessage> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    QXmlStreamReader xml(&f);
    QString context;
    TsMessage m;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("name"))
                context = xml.readElementText();
            else if (name == QLatin1String("message"))
                m = TsMessage{context, {}, {}, false};
            else if (name == QLatin1String("source"))
                m.source = xml.readElementText();
            else if (name == QLatin1String("translation")) {
                const QString type = xml.attributes().value(QLatin1String("type")).toString();
                m.unfinished = type == QLatin1String("unfinished") || type == QLatin1String("vanished") ||
                               type == QLatin1String("obsolete");
                // Either plain text or <numerusform> children.
                QString text;
                while (!xml.atEnd()) {
                    xml.readNext();
                    if (xml.isCharacters())
                        text += xml.text();
                    else if (xml.isStartElement() && xml.name() == QLatin1String("numerusform"))
                        m.translations << xml.readElementText();
                    else if (xml.isEndElement() && xml.name() == QLatin1String("translation"))
                        break;
                }
                if (m.translations.isEmpty())
                    m.translations << text;
            }
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            out << m;
        }
    }
    return out;
}

// Texts a person reads in a widget tree (actions, labels, buttons, tabs, group titles).
QStringList visibleTexts(QWidget *root)
{
    QStringList out;
    for (auto *a : root->findChildren<QAction *>())
        out << a->text();
    for (auto *l : root->findChildren<QLabel *>())
        out << l->text();
    for (auto *b : root->findChildren<QAbstractButton *>())
        out << b->text();
    for (auto *g : root->findChildren<QGroupBox *>())
        out << g->title();
    for (auto *t : root->findChildren<QTabWidget *>()) {
        for (int i = 0; i < t->count(); ++i)
            out << t->tabText(i);
    }
    out << root->windowTitle();
    out.removeAll(QString());
    return out;
}

} // namespace

class TestTranslations final : public QObject
{
    Q_OBJECT
    QList<TsMessage> m_ts;
    // English sources whose German differs, for spotting English left in a window.
    QHash<QString, QString> m_english;

private Q_SLOTS:
    void initTestCase()
    {
        m_ts = readTs(QStringLiteral(SANDBAR_TS_FILE));
        QVERIFY2(m_ts.size() > 500, qPrintable(QStringLiteral("%1 messages read").arg(m_ts.size())));
        for (const auto &m : std::as_const(m_ts)) {
            if (!m.unfinished && m.translations.value(0) != m.source && m.source.size() > 3)
                m_english.insert(m.source, m.translations.value(0));
        }
    }

    void everyMessageIsTranslated()
    {
        QStringList missing;
        for (const auto &m : std::as_const(m_ts)) {
            const bool empty =
                std::any_of(m.translations.begin(), m.translations.end(), [](const QString &t) { return t.isEmpty(); });
            if (m.unfinished || empty)
                missing << m.context + QStringLiteral(": ") + m.source;
        }
        QVERIFY2(missing.isEmpty(), qPrintable(missing.mid(0, 20).join(QLatin1Char('\n'))));
    }

    // Runs lupdate over the sources into a copy: a string added to the code without a
    // translation shows up there as unfinished (run the update_translations target, then
    // translate it).
    void translationFollowsTheCode()
    {
        QTemporaryDir dir;
        const QString copy = dir.filePath(QStringLiteral("sandbar_de.ts"));
        QVERIFY(QFile::copy(QStringLiteral(SANDBAR_TS_FILE), copy));
        QProcess lupdate;
        QStringList args{QStringLiteral("-no-obsolete"), QStringLiteral("-locations"), QStringLiteral("none")};
        args << QStringLiteral(SANDBAR_TR_DIRS).split(QLatin1Char('|'));
        args << QStringLiteral("-ts") << copy;
        lupdate.start(QStringLiteral(SANDBAR_LUPDATE), args);
        QVERIFY(lupdate.waitForFinished(120000));
        QCOMPARE(lupdate.exitCode(), 0);
        QStringList fresh;
        int count = 0;
        for (const auto &m : readTs(copy)) {
            ++count;
            if (m.unfinished)
                fresh << m.context + QStringLiteral(": ") + m.source;
        }
        QVERIFY2(fresh.isEmpty(), qPrintable(QStringLiteral("untranslated strings in the code:\n") +
                                             fresh.mid(0, 30).join(QLatin1Char('\n'))));
        QCOMPARE(count, m_ts.size()); // nothing the code dropped is still carried
    }

    void windowsSpeakGerman()
    {
        installTranslations(*qApp, QLocale(QLocale::German, QLocale::Germany));
        QTemporaryDir dir;
        ProviderFactories factories;
        factories.add(std::make_unique<test::MemoryProviderFactory>());
        test::MemorySecretStore secrets;
        AccountStore accounts(dir.path(), factories, secrets);
        SessionRegistry registry(accounts, factories);
        Account a;
        a.name = QStringLiteral("lab");
        a.provider = QStringLiteral("memory");
        QVERIFY_RESULT(test::await<void>([&](Callback<void> cb) { accounts.add(a, {}, cb); }));

        ui::MainWindow w(accounts, registry, factories);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto english = [this](QWidget *root) {
            QStringList left;
            for (const QString &t : visibleTexts(root)) {
                if (m_english.contains(t))
                    left << t;
            }
            return left;
        };
        QStringList left = english(&w);
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("English in the main window: ") + left.join(u" | ")));
        // Spot checks that the German is what the window shows, not merely "not English".
        bool found = false;
        for (auto *act : w.findChildren<QAction *>())
            found = found || act->text() == m_english.value(QStringLiteral("New session…"));
        QVERIFY(found);

        ui::NewSessionDialog dlg(accounts, factories, QStringLiteral("lab"), &w);
        dlg.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dlg));
        left = english(&dlg);
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("English in the new-session dialog: ") + left.join(u" | ")));
    }

    void sandbarctlSpeaksGerman_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("english");
        QTest::newRow("help") << QStringList{QStringLiteral("--help")} << QStringLiteral("Commands:");
        // A command's own message, translated in the context lupdate gives the command files'
        // free functions ("sandbar::cli"), which their tr() once did not use.
        QTest::newRow("audit error") << QStringList{QStringLiteral("audit"), QStringLiteral("--limit"),
                                                    QStringLiteral("0")}
                                     << QStringLiteral("--limit needs a positive number");
    }
    void sandbarctlSpeaksGerman()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, english);
        QProcess ctl;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LANG"), QStringLiteral("de_DE.UTF-8"));
        env.remove(QStringLiteral("LC_ALL"));
        env.remove(QStringLiteral("LC_MESSAGES"));
        env.remove(QStringLiteral("LANGUAGE"));
        QTemporaryDir dir;
        env.insert(QStringLiteral("SANDBAR_CONFIG_DIR"), dir.path());
        ctl.setProcessEnvironment(env);
        ctl.start(QStringLiteral(SANDBARCTL_PATH), args);
        QVERIFY(ctl.waitForFinished(60000));
        const QString out = QString::fromUtf8(ctl.readAllStandardOutput() + ctl.readAllStandardError());
        const QString german = m_english.value(english);
        QVERIFY2(!german.isEmpty(), qPrintable(english));
        QVERIFY2(out.contains(german), qPrintable(out.left(600)));
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
