#include "KeyMapper.h"

#include <QList>

namespace sandbar {

KeyPlatform currentKeyPlatform()
{
#if defined(Q_OS_MACOS)
    return KeyPlatform::MacOS;
#elif defined(Q_OS_WIN)
    return KeyPlatform::Windows;
#else
    return KeyPlatform::Linux;
#endif
}

namespace {

KeyAction make(KeyAction::Kind kind)
{
    KeyAction a;
    a.kind = kind;
    return a;
}

KeyAction keyAction(VTermKey key, VTermModifier mod)
{
    KeyAction a = make(KeyAction::Kind::Key);
    a.key = key;
    a.mod = mod;
    return a;
}

KeyAction charAction(uint32_t cp, VTermModifier mod)
{
    KeyAction a = make(KeyAction::Kind::Char);
    a.codepoint = cp;
    a.mod = mod;
    return a;
}

KeyAction rawAction(QByteArray bytes, bool alt)
{
    KeyAction a = make(KeyAction::Kind::Raw);
    a.raw = alt ? QByteArray("\x1b") + bytes : std::move(bytes);
    return a;
}

VTermKey specialKey(int qtKey, bool keypad)
{
    if (keypad) {
        switch (qtKey) {
        case Qt::Key_Enter: return VTERM_KEY_ENTER; // libvterm's KP_ENTER is LF outside application mode
        case Qt::Key_Asterisk: return VTERM_KEY_KP_MULT;
        case Qt::Key_Plus: return VTERM_KEY_KP_PLUS;
        case Qt::Key_Minus: return VTERM_KEY_KP_MINUS;
        case Qt::Key_Slash: return VTERM_KEY_KP_DIVIDE;
        case Qt::Key_Period: return VTERM_KEY_KP_PERIOD;
        case Qt::Key_Comma: return VTERM_KEY_KP_COMMA;
        case Qt::Key_Equal: return VTERM_KEY_KP_EQUAL;
        default:
            if (qtKey >= Qt::Key_0 && qtKey <= Qt::Key_9)
                return VTermKey(VTERM_KEY_KP_0 + (qtKey - Qt::Key_0));
            break;
        }
    }
    switch (qtKey) {
    case Qt::Key_Return:
    case Qt::Key_Enter: return VTERM_KEY_ENTER;
    case Qt::Key_Tab:
    case Qt::Key_Backtab: return VTERM_KEY_TAB;
    case Qt::Key_Backspace: return VTERM_KEY_BACKSPACE;
    case Qt::Key_Escape: return VTERM_KEY_ESCAPE;
    case Qt::Key_Up: return VTERM_KEY_UP;
    case Qt::Key_Down: return VTERM_KEY_DOWN;
    case Qt::Key_Left: return VTERM_KEY_LEFT;
    case Qt::Key_Right: return VTERM_KEY_RIGHT;
    case Qt::Key_Insert: return VTERM_KEY_INS;
    case Qt::Key_Delete: return VTERM_KEY_DEL;
    case Qt::Key_Home: return VTERM_KEY_HOME;
    case Qt::Key_End: return VTERM_KEY_END;
    case Qt::Key_PageUp: return VTERM_KEY_PAGEUP;
    case Qt::Key_PageDown: return VTERM_KEY_PAGEDOWN;
    default:
        if (qtKey >= Qt::Key_F1 && qtKey <= Qt::Key_F35)
            return VTermKey(VTERM_KEY_FUNCTION(qtKey - Qt::Key_F1 + 1));
        return VTERM_KEY_NONE;
    }
}

// Ctrl with a non-letter: the bytes xterm sends, since libvterm would use CSI u for most,
// which shells and older programs do not understand.
QByteArray ctrlSymbol(int qtKey)
{
    switch (qtKey) {
    case Qt::Key_Space:
    case Qt::Key_At:
    case Qt::Key_2: return QByteArray(1, '\0');
    case Qt::Key_BracketLeft:
    case Qt::Key_3: return "\x1b";
    case Qt::Key_Backslash:
    case Qt::Key_4: return "\x1c";
    case Qt::Key_BracketRight:
    case Qt::Key_5: return "\x1d";
    case Qt::Key_AsciiCircum:
    case Qt::Key_6: return "\x1e";
    case Qt::Key_Underscore:
    case Qt::Key_Slash:
    case Qt::Key_7: return "\x1f";
    case Qt::Key_8:
    case Qt::Key_Question: return "\x7f";
    default: return {};
    }
}

} // namespace

// long by design: table (one case per key and modifier)
KeyAction mapKey(int qtKey, Qt::KeyboardModifiers modifiers, const QString &text, KeyPlatform platform)
{
    using K = KeyAction::Kind;
    const bool mac = platform == KeyPlatform::MacOS;
    const bool shift = modifiers & Qt::ShiftModifier;
    const bool alt = modifiers & Qt::AltModifier;
    const bool keypad = modifiers & Qt::KeypadModifier;
    // The modifier that gives the view's own shortcuts, and the terminal's Ctrl.
    const bool command = mac ? bool(modifiers & Qt::ControlModifier) : false;
    const bool ctrl = mac ? bool(modifiers & Qt::MetaModifier) : bool(modifiers & Qt::ControlModifier);

    // --- view shortcuts ---
    if (mac && command) {
        switch (qtKey) {
        case Qt::Key_C: return make(K::Copy);
        case Qt::Key_V: return make(K::Paste);
        case Qt::Key_F: return make(K::Find);
        case Qt::Key_Plus:
        case Qt::Key_Equal: return make(K::ZoomIn);
        case Qt::Key_Minus: return make(K::ZoomOut);
        case Qt::Key_0: return make(K::ZoomReset);
        case Qt::Key_Up: return make(K::ScrollTop);
        case Qt::Key_Down: return make(K::ScrollBottom);
        default: return make(K::None); // Command+anything else belongs to the application menus
        }
    }
    if (!mac && ctrl && shift && !alt) {
        if (qtKey == Qt::Key_C)
            return make(K::Copy);
        if (qtKey == Qt::Key_V)
            return make(K::Paste);
        if (qtKey == Qt::Key_F)
            return make(K::Find);
    }
    if (!mac && ctrl && !alt) {
        if (qtKey == Qt::Key_Plus || qtKey == Qt::Key_Equal)
            return make(K::ZoomIn);
        if (qtKey == Qt::Key_Minus && !keypad)
            return make(K::ZoomOut);
        if (qtKey == Qt::Key_0 && !keypad)
            return make(K::ZoomReset);
    }
    if (shift && !ctrl && !alt && !command) {
        if (qtKey == Qt::Key_Insert)
            return make(K::Paste);
        if (qtKey == Qt::Key_PageUp)
            return make(K::ScrollPageUp);
        if (qtKey == Qt::Key_PageDown)
            return make(K::ScrollPageDown);
        if (qtKey == Qt::Key_Home)
            return make(K::ScrollTop);
        if (qtKey == Qt::Key_End)
            return make(K::ScrollBottom);
    }

    int mod = VTERM_MOD_NONE;
    if (shift)
        mod |= VTERM_MOD_SHIFT;
    if (alt)
        mod |= VTERM_MOD_ALT;
    if (ctrl)
        mod |= VTERM_MOD_CTRL;

    // --- special keys ---
    const VTermKey special = specialKey(qtKey, keypad);
    if (special != VTERM_KEY_NONE) {
        if (qtKey == Qt::Key_Backtab)
            mod |= VTERM_MOD_SHIFT;
        return keyAction(special, VTermModifier(mod));
    }
    if (qtKey == Qt::Key_Shift || qtKey == Qt::Key_Control || qtKey == Qt::Key_Alt || qtKey == Qt::Key_Meta ||
        qtKey == Qt::Key_AltGr || qtKey == Qt::Key_CapsLock || qtKey == Qt::Key_NumLock)
        return make(K::None);

    // --- Ctrl combinations ---
    if (ctrl) {
        if (qtKey >= Qt::Key_A && qtKey <= Qt::Key_Z) {
            const char letter = char('a' + (qtKey - Qt::Key_A));
            // Ctrl+I, J, M would become CSI u in libvterm; send what every terminal sends.
            if (letter == 'i' || letter == 'j' || letter == 'm')
                return rawAction(QByteArray(1, char(letter & 0x1f)), alt);
            // libvterm turns only lowercase letters into control codes.
            return charAction(uint32_t(letter), VTermModifier(mod & ~VTERM_MOD_SHIFT));
        }
        const QByteArray sym = ctrlSymbol(qtKey);
        if (!sym.isEmpty())
            return rawAction(sym, alt);
    }

    // --- text ---
    QString t = text;
    // Qt gives control characters as text for Ctrl combinations; they are handled above.
    if (!t.isEmpty() && t.at(0).unicode() < 0x20)
        t.clear();
    if (t.isEmpty() && alt && qtKey >= Qt::Key_Space && qtKey <= Qt::Key_AsciiTilde) {
        // Some layouts give no text with Alt: fall back to the key itself.
        QChar c(qtKey);
        t = shift ? QString(c) : QString(c.toLower());
    }
    if (t.isEmpty())
        return make(K::None);
    if (alt || (ctrl && t.size() == 1)) {
        // Alt as Meta: libvterm prefixes ESC.
        const char32_t cp = t.toUcs4().value(0);
        return charAction(uint32_t(cp), VTermModifier(mod));
    }
    KeyAction a = make(K::Text);
    a.text = t;
    return a;
}

} // namespace sandbar
