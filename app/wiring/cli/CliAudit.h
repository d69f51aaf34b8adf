#pragma once

#include "wiring/cli/CliSupport.h"

#include <QStringList>

namespace sandbar::audit {
class AuditLog;
}

namespace sandbar::cli {

// sandbarctl audit [--since TIME] [--account NAME] [--session ID] [--action NAME]
//                  [--grep TEXT] [--limit N] [--json]
// Opens <configDir>/audit.sqlite itself.
void runAudit(Command &cmd, const QStringList &args);
// The same over a log the caller already holds (once AppServices carries one).
void runAuditWithLog(Command &cmd, const QStringList &args, audit::AuditLog &log);

} // namespace sandbar::cli
