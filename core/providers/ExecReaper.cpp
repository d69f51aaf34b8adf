#include "providers/ExecReaper.h"

#include <QCoreApplication>
#include <QRandomGenerator>

namespace sandbar::execreaper {

namespace {

// The reaper, run as `sh -c SCRIPT sandbar-reaper VAR=TAG`. It looks for the tag in each
// process's environment (not its arguments: this script's own would match; one grep reads
// them all, a grep per process would fork hundreds in a busy container), so it finds the
// command's children too, and nothing of another command: tags are random. Zombies have no
// environment left and do not match. `kill -SIG -PID` reaches the group a tagged process leads
// (Docker and Podman start each exec as a session leader; Daytona runs it under sh), which catches children that
// dropped the variable; for a process that leads no group it fails harmlessly. It prints how many processes it
// signalled; exit 3: some survived KILL, 4: no grep, 5: no /proc to look in. Only integer sleeps are POSIX, hence the
// probe for 0.1 s steps.
constexpr char kReaperScript[] = R"(tag="$1"
[ -r /proc/self/environ ] || { echo "no /proc"; exit 5; }
command -v grep >/dev/null 2>&1 || { echo "no grep"; exit 4; }
scan() {
  found=
  for f in $(grep -lF "$tag" /proc/[0-9]*/environ 2>/dev/null); do
    f=${f#/proc/}; found="$found ${f%/environ}"
  done
}
hit() {
  for p in $found; do
    kill -$1 -$p 2>/dev/null
    kill -$1 $p 2>/dev/null
  done
}
scan
[ -n "$found" ] || { echo 0; exit 0; }
n=$(set -- $found; echo $#)
hit TERM
hit CONT
if sleep 0.1 2>/dev/null; then per=10; step=0.1; else per=1; step=1; fi
i=0
while [ $i -lt $((2 * per)) ]; do
  sleep $step; scan
  [ -n "$found" ] || { echo $n; exit 0; }
  i=$((i + 1))
done
i=0
while [ $i -lt $((3 * per)) ]; do
  hit KILL; sleep $step; scan
  [ -n "$found" ] || { echo $n; exit 0; }
  i=$((i + 1))
done
echo "left$found"
exit 3
)";

QString tr(const char *s)
{
    return QCoreApplication::translate("sandbar::execreaper", s);
}

} // namespace

QString newTag()
{
    return QStringLiteral("%1%2")
        .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'))
        .arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
}

QString tagEntry(const QString &tag)
{
    return QLatin1String(kTagVariable) + QLatin1Char('=') + tag;
}

QStringList argv(const QString &tag)
{
    return {QStringLiteral("sh"), QStringLiteral("-c"), QString::fromLatin1(kReaperScript),
            QStringLiteral("sandbar-reaper"), tagEntry(tag)};
}

Result<int> outcome(int exitCode, const QString &output)
{
    const QString said = output.left(4096).trimmed();
    if (exitCode == 126 || exitCode == 127)
        return makeError(ErrorCode::Unsupported, tr("the session has no shell (sh) to kill them with"));
    bool ok = false;
    const int n = said.toInt(&ok);
    if (exitCode == 0 && ok)
        return n;
    return makeError(ErrorCode::Internal, tr("the killing command exited with %1: %2").arg(exitCode).arg(said));
}

} // namespace sandbar::execreaper
