// The Logs tab over a log stream the test drives (FakeLogStream through MemoryProvider).
#include "FakeProvider.h"
#include "MemoryProvider.h"
#include "TestSupport.h"
#include "detail/LogsView.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QToolButton>
#include <QtTest>

using namespace sandbar;
using namespace sandbar::test;
using sandbar::ui::LogsView;

namespace {
ProviderDescriptor logsDescriptor()
{
    ProviderDescriptor d;
    d.id = QStringLiteral("memory");
    d.displayName = QStringLiteral("Memory");
    d.capabilities = Capability::Logs;
    return d;
}

SessionInfo runningSession()
{
    SessionInfo s;
    s.id = QStringLiteral("m0001");
    s.name = QStringLiteral("agent box");
    s.account = QStringLiteral("mem");
    s.state = SessionState::Running;
    return s;
}

QColor colorOfBlock(const QTextBlock &block)
{
    for (auto it = block.begin(); !it.atEnd(); ++it)
        return it.fragment().charFormat().foreground().color();
    return {};
}
} // namespace

class TestLogsView : public QObject
{
    Q_OBJECT

    std::unique_ptr<MemoryProvider> m_provider;
    QList<QPointer<FakeLogStream>> m_streams;
    QList<LogOptions> m_options;

    FakeLogStream *last() const { return m_streams.isEmpty() ? nullptr : m_streams.last().data(); }
    QPlainTextEdit *textOf(LogsView &v) const { return v.findChild<QPlainTextEdit *>(QStringLiteral("logText")); }

private Q_SLOTS:
    void init()
    {
        m_streams.clear();
        m_options.clear();
        m_provider = std::make_unique<MemoryProvider>(logsDescriptor(), QStringLiteral("mem"));
        m_provider->logsHook = [this](const QString &, const LogOptions &o) {
            auto s = std::make_unique<FakeLogStream>();
            m_streams << s.get();
            m_options << o;
            return std::unique_ptr<LogStream>(std::move(s));
        };
    }

    void followsFromTheLastThousandLines()
    {
        LogsView v(m_provider.get(), runningSession());
        QCOMPARE(v.objectName(), QStringLiteral("logsView"));
        QVERIFY(last());
        QCOMPARE(last()->starts, 1);
        QVERIFY(m_options.last().follow);
        QCOMPARE(m_options.last().tail, LogsView::kInitialTail);
        QVERIFY(!m_options.last().timestamps);
        QCOMPARE(textOf(v)->maximumBlockCount(), LogsView::kMaxLines);
        QVERIFY(textOf(v)->isReadOnly());
        for (auto *w : v.findChildren<QWidget *>()) {
            // Qt's own parts (a line edit's clear button, scroll bars) are named by Qt.
            if (w->objectName().isEmpty() || w->objectName().startsWith(QLatin1String("qt_")))
                continue;
            if (qobject_cast<QAbstractButton *>(w) || qobject_cast<QLineEdit *>(w) || qobject_cast<QPlainTextEdit *>(w))
                QVERIFY2(!w->accessibleName().isEmpty(), qPrintable(w->objectName()));
        }
    }

    void linesAppearAndStderrIsColoured()
    {
        LogsView v(m_provider.get(), runningSession());
        Q_EMIT last()->data("out one\nout ", 1);
        Q_EMIT last()->data("two\n", 1);
        Q_EMIT last()->data("\x1b[31mbad thing\x1b[0m\n", 2);
        QCOMPARE(textOf(v)->toPlainText(), QStringLiteral("out one\nout two\nbad thing"));
        const QTextDocument *doc = textOf(v)->document();
        QCOMPARE(doc->blockCount(), 3);
        QCOMPARE(colorOfBlock(doc->findBlockByNumber(2)), LogsView::stderrColor());
        QVERIFY(colorOfBlock(doc->findBlockByNumber(0)) != LogsView::stderrColor());
        QCOMPARE(v.keptLines(), 3);
    }

    void splitUtf8Survives()
    {
        LogsView v(m_provider.get(), runningSession());
        const QByteArray text = QStringLiteral("grüße 😀 done\n").toUtf8();
        // Every byte on its own: the two- and four-byte characters arrive in pieces.
        for (char c : text)
            Q_EMIT last()->data(QByteArray(1, c), 1);
        QCOMPARE(textOf(v)->toPlainText(), QStringLiteral("grüße 😀 done"));
        QVERIFY(!textOf(v)->toPlainText().contains(QChar::ReplacementCharacter));
    }

    void unfinishedLineShowsAfterAMoment()
    {
        LogsView v(m_provider.get(), runningSession());
        v.setPartialLineDelay(std::chrono::milliseconds(20));
        Q_EMIT last()->data("$ prompt", 0);
        QVERIFY(textOf(v)->toPlainText().isEmpty());
        QVERIFY(waitUntil([&] { return textOf(v)->toPlainText() == QStringLiteral("$ prompt"); }, 2000));
        QCOMPARE(LogsView::cleanLine(QStringLiteral("10%\r50%\r100%\r")), QStringLiteral("100%"));
    }

    void filterAndClear()
    {
        LogsView v(m_provider.get(), runningSession());
        Q_EMIT last()->data("alpha\nbeta\nALPHABET\n", 1);
        auto *filter = v.findChild<QLineEdit *>(QStringLiteral("logFilter"));
        filter->setText(QStringLiteral("alpha"));
        QCOMPARE(textOf(v)->toPlainText(), QStringLiteral("alpha\nALPHABET"));
        Q_EMIT last()->data("gamma\nalpha2\n", 1);
        QCOMPARE(textOf(v)->toPlainText(), QStringLiteral("alpha\nALPHABET\nalpha2"));
        filter->clear();
        QCOMPARE(textOf(v)->toPlainText(), QStringLiteral("alpha\nbeta\nALPHABET\ngamma\nalpha2"));
        QCOMPARE(v.keptText(), QStringLiteral("alpha\nbeta\nALPHABET\ngamma\nalpha2\n"));
        v.findChild<QPushButton *>(QStringLiteral("clearButton"))->click();
        QVERIFY(textOf(v)->toPlainText().isEmpty());
        QCOMPARE(v.keptLines(), 0);
        Q_EMIT last()->data("after clear\n", 1);
        QCOMPARE(textOf(v)->toPlainText(), QStringLiteral("after clear"));
    }

    void keepsAtMostMaxLines()
    {
        LogsView v(m_provider.get(), runningSession());
        QByteArray many;
        for (int i = 0; i < LogsView::kMaxLines + 500; ++i)
            many += "line " + QByteArray::number(i) + '\n';
        Q_EMIT last()->data(many, 1);
        QCOMPARE(v.keptLines(), LogsView::kMaxLines);
        QVERIFY(textOf(v)->document()->blockCount() <= LogsView::kMaxLines);
        QVERIFY(v.keptText().startsWith(QLatin1String("line 500\n")));
    }

    void timestampsRestartTheStream()
    {
        LogsView v(m_provider.get(), runningSession());
        FakeLogStream *first = last();
        Q_EMIT first->data("old\n", 1);
        v.findChild<QToolButton *>(QStringLiteral("timestampsButton"))->click();
        QCOMPARE(m_streams.size(), 2);
        QVERIFY(first == nullptr || first->stops == 1 || m_streams.first().isNull());
        QVERIFY(m_options.last().timestamps);
        QCOMPARE(m_options.last().tail, LogsView::kInitialTail);
        QVERIFY(textOf(v)->toPlainText().isEmpty());
        Q_EMIT last()->data("2026-12-01T10:00:00Z new\n", 1);
        QCOMPARE(textOf(v)->toPlainText(), QStringLiteral("2026-12-01T10:00:00Z new"));
    }

    void reconnectsWithBackoffWhileRunning()
    {
        LogsView v(m_provider.get(), runningSession());
        v.setReconnectBackoff(std::chrono::milliseconds(10), std::chrono::milliseconds(40));
        Q_EMIT last()->data("before\n", 1);
        Q_EMIT last()->finished(makeError(ErrorCode::Unavailable, QStringLiteral("connection reset")));
        QVERIFY(waitUntil([&] { return m_streams.size() == 2; }, 2000));
        QCOMPARE(m_options.last().tail, 0); // what it had is still on screen
        QCOMPARE(last()->starts, 1);
        Q_EMIT last()->data("after\n", 1);
        QVERIFY(textOf(v)->toPlainText().startsWith(QLatin1String("before\n")));
        QVERIFY(textOf(v)->toPlainText().endsWith(QLatin1String("\nafter")));

        // A session that stopped is not reconnected to, nor is a log that ended cleanly.
        v.setSessionState(SessionState::Stopped);
        Q_EMIT last()->finished(makeError(ErrorCode::Unavailable, QStringLiteral("gone")));
        QVERIFY(!waitUntil([&] { return m_streams.size() > 2; }, 200));
        auto *status = v.findChild<QLabel *>(QStringLiteral("logStatus"));
        QVERIFY2(status->text().contains(QLatin1String("gone")), qPrintable(status->text()));
    }

    void unsupportedProviderSaysSo()
    {
        ProviderDescriptor d = logsDescriptor();
        d.capabilities = {};
        MemoryProvider plain(d, QStringLiteral("mem"));
        LogsView v(&plain, runningSession());
        auto *status = v.findChild<QLabel *>(QStringLiteral("logStatus"));
        QVERIFY(!status->text().isEmpty());
    }

    void screenshot()
    {
        LogsView v(m_provider.get(), runningSession());
        v.resize(820, 420);
        Q_EMIT last()->data("Starting dev server on :8080\nCompiled 42 modules in 1.3 s\n", 1);
        Q_EMIT last()->data("warning: package.json has no \"license\" field\n", 2);
        Q_EMIT last()->data("GET / 200 4 ms\nGET /api/health 200 1 ms\n", 1);
        Q_EMIT last()->data("error: ENOENT: no such file, open '/workspace/.env'\n", 2);
        Q_EMIT last()->data("Tests: 118 passed, 0 failed ✓\n", 1);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const QPixmap shot = v.grab();
        QVERIFY(!shot.isNull());
        // SANDBAR_SCREENSHOT_DIR=/tmp writes it for a person to look at.
        if (const QString out = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR"); !out.isEmpty())
            QVERIFY(shot.save(out + QStringLiteral("/logsview.png")));
    }
};

QTEST_MAIN(TestLogsView)
#include "tst_logsview.moc"
