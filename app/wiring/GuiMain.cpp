#include "wiring/GuiMain.h"

#include <QApplication>
#include <QMainWindow>

namespace sandbar {

int guiMain(int argc, char **argv)
{
    QApplication app(argc, argv);
    QMainWindow w;
    w.show();
    return app.exec();
}

} // namespace sandbar
