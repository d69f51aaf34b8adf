#pragma once

#include "providers/Facets.h"

#include <QList>
#include <QString>

namespace sandbar::cloud {

// The background commands an account started, for a service that runs them but cannot list
// them (Vercel answers a command by its id only). Kept in a JSON file in the account's data
// folder, read again on every look, so that the window and sandbarctl see one list; the newest
// kPerSession of each session, newest first. A file that cannot be read counts as empty (the
// commands still run; only their ids are forgotten), and an empty path keeps the book in memory.
class CommandBook
{
public:
    static constexpr int kPerSession = 50;

    explicit CommandBook(QString file = {});

    void add(const QString &sessionId, const BackgroundCommand &command);
    // What the service says of a command now (its exit code once it ended).
    void update(const QString &sessionId, const BackgroundCommand &command);
    void drop(const QString &sessionId, const QString &commandId);
    void dropSession(const QString &sessionId);
    QList<BackgroundCommand> commands(const QString &sessionId) const;

private:
    using Book = QHash<QString, QList<BackgroundCommand>>;
    Book load() const;
    void save(const Book &book);

    QString m_file;
    Book m_memory; // without a file
};

} // namespace sandbar::cloud
