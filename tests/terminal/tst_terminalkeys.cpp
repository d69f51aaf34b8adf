// The key mapping table, and what libvterm then sends for it.
#include "terminal/KeyMapper.h"
#include "terminal/TerminalScreen.h"

#include <QTest>

using namespace sandbar;

Q_DECLARE_METATYPE(sandbar::KeyPlatform)

namespace {
// Applies an action to a screen the way TerminalView does and returns the bytes sent.
QByteArray encode(const KeyAction &a)
{
    TerminalScreen screen(80, 24);
    QByteArray out;
    QObject ctx;
    QObject::connect(&screen, &TerminalScreen::output, &ctx, [&out](const QByteArray &b) { out += b; });
    switch (a.kind) {
    case KeyAction::Kind::Key: screen.sendKey(a.key, a.mod); break;
    case KeyAction::Kind::Char: screen.sendChar(a.codepoint, a.mod); break;
    case KeyAction::Kind::Text:
        for (char32_t c : a.text.toUcs4())
            screen.sendChar(uint32_t(c));
        break;
    case KeyAction::Kind::Raw: screen.sendRaw(a.raw); break;
    default: out = "<" + QByteArray::number(int(a.kind)) + ">"; break;
    }
    return out;
}
} // namespace

class TestTerminalKeys : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void table_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<int>("mods");
        QTest::addColumn<QString>("text");
        QTest::addColumn<KeyPlatform>("platform");
        QTest::addColumn<QByteArray>("bytes");
        const auto L = KeyPlatform::Linux;
        const auto M = KeyPlatform::MacOS;
        const auto W = KeyPlatform::Windows;
        const int C = Qt::ControlModifier, S = Qt::ShiftModifier, A = Qt::AltModifier, Me = Qt::MetaModifier;
        const QByteArray copy = "<" + QByteArray::number(int(KeyAction::Kind::Copy)) + ">";
        const QByteArray paste = "<" + QByteArray::number(int(KeyAction::Kind::Paste)) + ">";
        const QByteArray none = "<" + QByteArray::number(int(KeyAction::Kind::None)) + ">";
        const QByteArray zin = "<" + QByteArray::number(int(KeyAction::Kind::ZoomIn)) + ">";
        const QByteArray zout = "<" + QByteArray::number(int(KeyAction::Kind::ZoomOut)) + ">";
        const QByteArray zreset = "<" + QByteArray::number(int(KeyAction::Kind::ZoomReset)) + ">";
        const QByteArray pgup = "<" + QByteArray::number(int(KeyAction::Kind::ScrollPageUp)) + ">";

        QTest::newRow("letter") << int(Qt::Key_A) << 0 << "a" << L << QByteArray("a");
        QTest::newRow("shift letter") << int(Qt::Key_A) << S << "A" << L << QByteArray("A");
        QTest::newRow("utf8 text") << int(Qt::Key_unknown) << 0 << QString::fromUtf8("\xc3\xa9") << L
                                   << QByteArray("\xc3\xa9");
        QTest::newRow("empty text") << int(Qt::Key_unknown) << 0 << "" << L << none;
        QTest::newRow("modifier alone") << int(Qt::Key_Shift) << S << "" << L << none;
        QTest::newRow("enter") << int(Qt::Key_Return) << 0 << "\r" << L << QByteArray("\r");
        QTest::newRow("keypad enter") << int(Qt::Key_Enter) << int(Qt::KeypadModifier) << "\r" << L << QByteArray("\r");
        QTest::newRow("tab") << int(Qt::Key_Tab) << 0 << "\t" << L << QByteArray("\t");
        QTest::newRow("backtab") << int(Qt::Key_Backtab) << S << "" << L << QByteArray("\x1b[Z");
        QTest::newRow("backspace") << int(Qt::Key_Backspace) << 0 << "\b" << L << QByteArray("\x7f");
        QTest::newRow("escape") << int(Qt::Key_Escape) << 0 << "\x1b" << L << QByteArray("\x1b");
        QTest::newRow("up") << int(Qt::Key_Up) << 0 << "" << L << QByteArray("\x1b[A");
        QTest::newRow("down") << int(Qt::Key_Down) << 0 << "" << L << QByteArray("\x1b[B");
        QTest::newRow("right") << int(Qt::Key_Right) << 0 << "" << L << QByteArray("\x1b[C");
        QTest::newRow("left") << int(Qt::Key_Left) << 0 << "" << L << QByteArray("\x1b[D");
        QTest::newRow("ctrl left") << int(Qt::Key_Left) << C << "" << L << QByteArray("\x1b[1;5D");
        QTest::newRow("shift up") << int(Qt::Key_Up) << S << "" << L << QByteArray("\x1b[1;2A");
        QTest::newRow("home") << int(Qt::Key_Home) << 0 << "" << L << QByteArray("\x1b[H");
        QTest::newRow("end") << int(Qt::Key_End) << 0 << "" << L << QByteArray("\x1b[F");
        QTest::newRow("pgup") << int(Qt::Key_PageUp) << 0 << "" << L << QByteArray("\x1b[5~");
        QTest::newRow("pgdn") << int(Qt::Key_PageDown) << 0 << "" << L << QByteArray("\x1b[6~");
        QTest::newRow("insert") << int(Qt::Key_Insert) << 0 << "" << L << QByteArray("\x1b[2~");
        QTest::newRow("delete") << int(Qt::Key_Delete) << 0 << "" << L << QByteArray("\x1b[3~");
        QTest::newRow("F1") << int(Qt::Key_F1) << 0 << "" << L << QByteArray("\x1bOP");
        QTest::newRow("F5") << int(Qt::Key_F5) << 0 << "" << L << QByteArray("\x1b[15~");
        QTest::newRow("F12") << int(Qt::Key_F12) << 0 << "" << L << QByteArray("\x1b[24~");
        QTest::newRow("ctrl c") << int(Qt::Key_C) << C << "\x03" << L << QByteArray("\x03");
        QTest::newRow("ctrl d") << int(Qt::Key_D) << C << "\x04" << L << QByteArray("\x04");
        QTest::newRow("ctrl z windows") << int(Qt::Key_Z) << C << "\x1a" << W << QByteArray("\x1a");
        QTest::newRow("ctrl i is tab") << int(Qt::Key_I) << C << "\t" << L << QByteArray("\t");
        QTest::newRow("ctrl m is cr") << int(Qt::Key_M) << C << "\r" << L << QByteArray("\r");
        QTest::newRow("ctrl space") << int(Qt::Key_Space) << C << "" << L << QByteArray(1, '\0');
        QTest::newRow("ctrl [") << int(Qt::Key_BracketLeft) << C << "\x1b" << L << QByteArray("\x1b");
        QTest::newRow("ctrl backslash") << int(Qt::Key_Backslash) << C << "\x1c" << L << QByteArray("\x1c");
        QTest::newRow("ctrl alt x") << int(Qt::Key_X) << (C | A) << "" << L << QByteArray("\x1b\x18");
        QTest::newRow("alt b (meta)") << int(Qt::Key_B) << A << "b" << L
                                      << QByteArray("\x1b"
                                                    "b");
        QTest::newRow("alt shift b") << int(Qt::Key_B) << (A | S) << "B" << L
                                     << QByteArray("\x1b"
                                                   "B");
        QTest::newRow("alt no text") << int(Qt::Key_F) << A << "" << L
                                     << QByteArray("\x1b"
                                                   "f");
        QTest::newRow("alt enter") << int(Qt::Key_Return) << A << "\r" << L << QByteArray("\x1b\r");
        QTest::newRow("ctrl shift c copies") << int(Qt::Key_C) << (C | S) << "\x03" << L << copy;
        QTest::newRow("ctrl shift v pastes") << int(Qt::Key_V) << (C | S) << "\x16" << L << paste;
        QTest::newRow("ctrl shift c copies (win)") << int(Qt::Key_C) << (C | S) << "" << W << copy;
        QTest::newRow("shift insert pastes") << int(Qt::Key_Insert) << S << "" << L << paste;
        QTest::newRow("ctrl v is literal") << int(Qt::Key_V) << C << "\x16" << L << QByteArray("\x16");
        QTest::newRow("ctrl plus") << int(Qt::Key_Plus) << C << "+" << L << zin;
        QTest::newRow("ctrl equal") << int(Qt::Key_Equal) << C << "=" << L << zin;
        QTest::newRow("ctrl minus") << int(Qt::Key_Minus) << C << "-" << L << zout;
        QTest::newRow("ctrl 0") << int(Qt::Key_0) << C << "0" << L << zreset;
        QTest::newRow("shift pgup scrolls") << int(Qt::Key_PageUp) << S << "" << L << pgup;
        QTest::newRow("mac cmd c copies") << int(Qt::Key_C) << C << "c" << M << copy;
        QTest::newRow("mac cmd v pastes") << int(Qt::Key_V) << C << "v" << M << paste;
        QTest::newRow("mac cmd q is not ours") << int(Qt::Key_Q) << C << "q" << M << none;
        QTest::newRow("mac ctrl c interrupts") << int(Qt::Key_C) << Me << "\x03" << M << QByteArray("\x03");
        QTest::newRow("mac cmd plus") << int(Qt::Key_Plus) << C << "+" << M << zin;
        QTest::newRow("mac option meta") << int(Qt::Key_X) << A << "x" << M
                                         << QByteArray("\x1b"
                                                       "x");
    }

    void table()
    {
        QFETCH(int, key);
        QFETCH(int, mods);
        QFETCH(QString, text);
        QFETCH(KeyPlatform, platform);
        QFETCH(QByteArray, bytes);
        const KeyAction a = mapKey(key, Qt::KeyboardModifiers(mods), text, platform);
        QCOMPARE(encode(a), bytes);
    }

    void ctrlLetterIsLowercase()
    {
        // libvterm makes control codes only from lowercase letters.
        const KeyAction a =
            mapKey(Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier, QStringLiteral("\x01"), KeyPlatform::MacOS);
        QCOMPARE(a.kind, KeyAction::Kind::None); // Command+Shift+A on macOS is the app's
        const KeyAction b = mapKey(Qt::Key_A, Qt::ControlModifier, QStringLiteral("\x01"), KeyPlatform::Linux);
        QCOMPARE(b.kind, KeyAction::Kind::Char);
        QCOMPARE(b.codepoint, uint32_t('a'));
        QCOMPARE(b.mod, VTERM_MOD_CTRL);
    }
};

QTEST_GUILESS_MAIN(TestTerminalKeys)
#include "tst_terminalkeys.moc"
