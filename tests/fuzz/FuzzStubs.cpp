// DockerPorts.cpp keeps one Engine API call (requirePublished) beside the port parsers that
// the Docker targets exercise. No target calls it, but libFuzzer's coverage tables keep it
// linked, so its two references to DockerApi resolve here instead of compiling DockerApi and
// the whole HTTP client into every fuzz build (DockerPorts.cpp is built without -fsanitize=vptr
// so that it needs no DockerApi type information either).
#include "providers/docker/DockerApi.h"

#include <cstdio>
#include <cstdlib>

namespace sandbar::docker {

QByteArray DockerApi::enc(const QString &)
{
    std::fputs("fuzz: DockerApi::enc is a stub\n", stderr);
    std::abort();
}

void DockerApi::call(const QByteArray &, const QByteArray &, const QByteArray &, Callback<net::HttpResponse>,
                     std::chrono::milliseconds)
{
    std::fputs("fuzz: DockerApi::call is a stub\n", stderr);
    std::abort();
}

} // namespace sandbar::docker
