#pragma once

namespace sandbar {
struct AppServices;
namespace ui {
class MainWindow;
}

// The window's features beyond sessions: preferences (theme that follows the desktop,
// terminal font and scrollback), the audit view, the agents view (GuiAgents.h), the catalog
// for New session's estimate, the tray with notifications and close-to-tray, and Quit.
void wireWindowFeatures(AppServices &services, ui::MainWindow &window);

} // namespace sandbar
