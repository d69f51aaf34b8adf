#pragma once

namespace sandbar {
int guiMain(int argc, char **argv);
}
