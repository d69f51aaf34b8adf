#pragma once

namespace sandbar {
int cliMain(int argc, char **argv);
}
