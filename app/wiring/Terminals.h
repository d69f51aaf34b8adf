#pragma once

#include "main/MainWindow.h"
#include "terminal/TerminalSettings.h"

namespace sandbar {

// The [terminal] group of <configDir>/sandbar.ini, with defaults for what is missing:
//   colorScheme = auto | light | dark   (auto follows the palette)
//   copyOnSelect = false
//   confirmMultiLinePaste = true
//   openLinks = true                    (Ctrl+click opens with the desktop's handler)
TerminalSettings loadTerminalSettings(const QString &configDir);

// Terminal tabs for the window, chosen by the provider's capabilities: a TerminalView fed
// by the session's PtyChannel (Pty), or a line console over exec (Exec without Pty).
ui::TerminalFactory makeTerminalFactory(const TerminalSettings &settings);

} // namespace sandbar
