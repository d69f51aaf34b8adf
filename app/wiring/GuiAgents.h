#pragma once

#include <QStringList>

namespace sandbar {
struct AppServices;
namespace ui {
class MainWindow;
class Notifier;
} // namespace ui

// Every MCP tool's name, as sandbarctl mcp offers them (the policy dialog lists them).
QStringList mcpToolNames(AppServices &services);

// The Agents view over services.agentHub: the hub starts listening for sandbarctl mcp (when it
// cannot, the status bar and the view say why and the window runs on), View > Agents opens
// the view, the number of calls waiting is shown on that action and in the status bar, and a
// call that starts waiting while the view is not in front is also a notification.
void wireAgents(AppServices &services, ui::MainWindow &window, ui::Notifier &notifier);

} // namespace sandbar
