// sandbar-agent: `launch SPEC` on the host, `serve CONFIG` inside the sandbox.
// Deliberately free of Qt so that it starts in a few milliseconds.

#include "AgentServer.h"
#include "Launcher.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv)
{
    if ((argc == 3 || argc == 4) && std::strcmp(argv[1], "serve") == 0)
        return sandbar::agent::serve(argv[2], argc == 4 ? std::atoi(argv[3]) : -1);
    if (argc == 3 && std::strcmp(argv[1], "launch") == 0)
        return sandbar::agent::launch(argv[2]);
    std::fprintf(stderr, "usage: sandbar-agent serve CONFIG [READY_FD] | launch SPEC\n"
                         "sandbar-agent is started by Sandbar's Local provider; it is not meant to be run by hand.\n");
    return 2;
}
