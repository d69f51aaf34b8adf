#pragma once

#include "common/Result.h"

#include <QString>

namespace sandbar {

// Downloads are written into a hidden staging folder beside their target and moved into
// place only when complete, so that nothing half-written ever carries the final name.
// The journal (a JSON file in the account's data folder) names every staging folder
// while it exists: one left behind by a killed app is removed the next time the account
// is opened (sweep()). Without a journal the staging still protects the target, and a
// leftover folder is at least plainly named.
class PartialDownloads
{
public:
    static constexpr char kPrefix[] = ".sandbar-partial-";

    // journalPath empty: no journal.
    explicit PartialDownloads(QString journalPath);
    // The journal of an account whose data folder is dataDir (empty for none).
    static QString journalIn(const QString &dataDir);

    // Makes a staging folder inside targetDir and records it; its path.
    Result<QString> begin(const QString &targetDir) const;
    // Removes the staging folder (whatever is left in it) and its record.
    void end(const QString &stagingDir) const;
    // Removes recorded staging folders whose process is gone; how many were removed.
    int sweep() const;

    // Moves staged (a file or folder) to final: a file replaces a file, a folder is merged
    // into an existing folder entry by entry; a file and a folder in each other's place
    // is a Conflict, and leaves the existing one as it was.
    static VoidResult moveIntoPlace(const QString &staged, const QString &final);

private:
    // Replaces a file at `to` in one step where the system allows it (QFile::rename refuses).
    static VoidResult replace(const QString &from, const QString &to);

    QString m_journal;
};

} // namespace sandbar
