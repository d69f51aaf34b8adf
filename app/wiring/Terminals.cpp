#include "wiring/Terminals.h"

#include "main/SessionTerminal.h"

namespace sandbar {

ui::TerminalFactory makeTerminalFactory()
{
    return [](Provider *provider, const SessionInfo &session, const QString &attachId, QWidget *parent) -> QWidget * {
        return new ui::SessionTerminal(provider, session, attachId, parent);
    };
}

} // namespace sandbar
