#pragma once

#include "main/MainWindow.h"

namespace sandbar {

// Terminal tabs for the window: a TerminalView fed by the session's PtyChannel.
ui::TerminalFactory makeTerminalFactory();

} // namespace sandbar
