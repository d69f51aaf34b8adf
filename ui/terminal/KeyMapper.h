#pragma once

#include <QByteArray>
#include <QString>
#include <Qt>
#include <vterm.h>

namespace sandbar {

// What one key press means to a terminal: a key or character for libvterm's encoder, raw
// bytes, or a view command (copy, paste, zoom...). A pure function of the key so the whole
// table can be tested without widgets.
struct KeyAction {
    enum class Kind {
        None, // not for the terminal (let the window have it)
        Key,  // vterm_keyboard_key(key, mod)
        Char, // vterm_keyboard_unichar(codepoint, mod)
        Text, // typed text, sent character by character without modifiers
        Raw,  // bytes sent as they are
        Copy,
        Paste,
        ZoomIn,
        ZoomOut,
        ZoomReset,
        Find,
        ScrollPageUp,
        ScrollPageDown,
        ScrollTop,
        ScrollBottom,
    };
    Kind kind = Kind::None;
    VTermKey key = VTERM_KEY_NONE;
    uint32_t codepoint = 0;
    VTermModifier mod = VTERM_MOD_NONE;
    QString text;
    QByteArray raw;

    friend bool operator==(const KeyAction &a, const KeyAction &b)
    {
        return a.kind == b.kind && a.key == b.key && a.codepoint == b.codepoint && a.mod == b.mod && a.text == b.text &&
               a.raw == b.raw;
    }
};

enum class KeyPlatform { Linux, Windows, MacOS };
KeyPlatform currentKeyPlatform();

// qtKey, modifiers and text as in QKeyEvent. On macOS Qt reports Command as
// ControlModifier and the Control key as MetaModifier: Command gives the view's shortcuts,
// Control is the terminal's Ctrl. Elsewhere Ctrl+Shift+C/V copy and paste, so Ctrl+C stays
// an interrupt.
KeyAction mapKey(int qtKey, Qt::KeyboardModifiers modifiers, const QString &text,
                 KeyPlatform platform = currentKeyPlatform());

} // namespace sandbar
