#include "wiring/Terminals.h"

#include "main/SessionTerminal.h"

namespace sandbar {

ui::TerminalFactory makeTerminalFactory()
{
    return [](Provider *provider, const SessionInfo &session, QWidget *parent) -> QWidget * {
        return new ui::SessionTerminal(provider, session, parent);
    };
}

} // namespace sandbar
