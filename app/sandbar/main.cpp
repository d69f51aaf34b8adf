#include "wiring/GuiMain.h"

int main(int argc, char **argv)
{
    return sandbar::guiMain(argc, argv);
}
