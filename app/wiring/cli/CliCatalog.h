#pragma once

#include "wiring/cli/CliSupport.h"

#include <QStringList>

namespace sandbar::cli {

// sandbarctl catalog [--json]: the provider catalog (shipped, with the user's corrections).
void runCatalog(Command &cmd, const QStringList &args);

// sandbarctl compare --vcpus N --memory-gib N --hours N [...]: a month of the workload
// priced at every provider, cheapest first, with the excluded ones and why.
void runCompare(Command &cmd, const QStringList &args);

} // namespace sandbar::cli
