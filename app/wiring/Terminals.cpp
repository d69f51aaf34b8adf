#include "wiring/Terminals.h"

namespace sandbar {

ui::TerminalFactory makeTerminalFactory()
{
    return {};
}

} // namespace sandbar
