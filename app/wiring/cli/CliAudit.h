#pragma once

#include "wiring/cli/CliSupport.h"

#include <QStringList>

namespace sandbar::audit {
class AuditLog;
}

namespace sandbar::cli {

// sandbarctl audit [--since TIME] [--account NAME] [--session ID] [--action NAME]
//                  [--grep TEXT] [--limit N] [--json], over the log the composition root holds.
void runAuditWithLog(Command &cmd, const QStringList &args, audit::AuditLog &log);

// sandbarctl budget [ACCOUNT [USD|none] [--stop|--no-stop]] [--json]
void runBudget(Command &cmd, const QStringList &args);

} // namespace sandbar::cli
