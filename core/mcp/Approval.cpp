#include "mcp/Approval.h"

#include <QDir>

namespace sandbar::mcp {

QString agentSocketPath(const QString &configDir)
{
    return QDir(configDir).filePath(QStringLiteral("agents.sock"));
}

QString approvalDecisionName(ApprovalDecision d)
{
    switch (d) {
    case ApprovalDecision::Once: return QStringLiteral("once");
    case ApprovalDecision::Always: return QStringLiteral("always");
    case ApprovalDecision::Deny: break;
    }
    return QStringLiteral("deny");
}

bool approvalDecisionFromName(const QString &name, ApprovalDecision *out)
{
    static const ApprovalDecision all[] = {ApprovalDecision::Once, ApprovalDecision::Always, ApprovalDecision::Deny};
    for (ApprovalDecision d : all) {
        if (name == approvalDecisionName(d)) {
            if (out)
                *out = d;
            return true;
        }
    }
    return false;
}

} // namespace sandbar::mcp
