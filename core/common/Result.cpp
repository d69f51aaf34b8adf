#include "common/Result.h"

namespace sandbar {

QString errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::NotFound: return QStringLiteral("not-found");
    case ErrorCode::Unauthorized: return QStringLiteral("unauthorized");
    case ErrorCode::UnknownHost: return QStringLiteral("unknown-host");
    case ErrorCode::LimitReached: return QStringLiteral("limit-reached");
    case ErrorCode::Unavailable: return QStringLiteral("unavailable");
    case ErrorCode::Timeout: return QStringLiteral("timeout");
    case ErrorCode::InvalidArgument: return QStringLiteral("invalid-argument");
    case ErrorCode::Conflict: return QStringLiteral("conflict");
    case ErrorCode::Unsupported: return QStringLiteral("unsupported");
    case ErrorCode::Cancelled: return QStringLiteral("cancelled");
    case ErrorCode::Internal: return QStringLiteral("internal");
    }
    return QStringLiteral("internal");
}

} // namespace sandbar
