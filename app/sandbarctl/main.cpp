#include "wiring/CliMain.h"

int main(int argc, char **argv)
{
    return sandbar::cliMain(argc, argv);
}
