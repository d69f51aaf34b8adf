#pragma once

#include "terminal/TerminalSelection.h"

#include <QString>
#include <optional>

namespace sandbar {

class TerminalScreen;

struct SearchMatch {
    TermPos start; // first cell
    TermPos last;  // last cell (inclusive)
};

// Text search over scrollback and screen, one line at a time, wrapping around the ends.
class TerminalSearch
{
public:
    enum class Direction { Next, Previous };

    void setNeedle(const QString &needle, Qt::CaseSensitivity cs = Qt::CaseInsensitive);
    QString needle() const { return m_needle; }
    // Next searches forward (towards the newest line) from just after `from`, Previous
    // backward from just before it; without `from`, Next starts at the oldest line and
    // Previous at the newest.
    std::optional<SearchMatch> find(const TerminalScreen &screen, Direction dir,
                                    std::optional<TermPos> from = std::nullopt) const;
    // Convenience: steps from the last match found by next()/previous().
    std::optional<SearchMatch> next(const TerminalScreen &screen);
    std::optional<SearchMatch> previous(const TerminalScreen &screen);
    std::optional<SearchMatch> current() const { return m_current; }

private:
    QString m_needle;
    Qt::CaseSensitivity m_cs = Qt::CaseInsensitive;
    std::optional<SearchMatch> m_current;
};

} // namespace sandbar
