#pragma once

#include "audit/AuditLog.h"

#include <QByteArray>
#include <QList>

namespace sandbar::ui {

// The rows as CSV for a spreadsheet or an auditor's script: RFC 4180 (CRLF line ends,
// a field with a comma, quote or line break quoted, quotes doubled), UTF-8 without a
// BOM, a header row, times in ISO-8601 UTC with milliseconds. Columns: time, os_user,
// host, account, provider, session, action, outcome, error_code, error_message, detail
// (compact JSON).
QByteArray auditCsv(const QList<audit::AuditEntry> &rows);

// One field, quoted and defused as auditCsv() writes it.
QByteArray csvField(const QString &value);

} // namespace sandbar::ui
