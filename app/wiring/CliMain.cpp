#include "wiring/CliMain.h"

#include <QCoreApplication>

namespace sandbar {

int cliMain(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    return 0;
}

} // namespace sandbar
