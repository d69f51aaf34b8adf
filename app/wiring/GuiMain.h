#pragma once

#include <QString>
#include <memory>

namespace sandbar {
struct AppServices;
namespace ui {
class MainWindow;
}

int guiMain(int argc, char **argv);

// Every service the window uses, built once (first-start account detection runs on a worker),
// and the main window wired to them, not yet shown. Shared with `sandbar-bench ui`.
std::unique_ptr<AppServices> buildGuiServices(const QString &configDir);
std::unique_ptr<ui::MainWindow> makeMainWindow(AppServices &services);
} // namespace sandbar
