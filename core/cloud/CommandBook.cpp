#include "cloud/CommandBook.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTimeZone>

namespace sandbar::cloud {

namespace {
constexpr qint64 kMaxFileBytes = 4 * 1024 * 1024;

QJsonObject toJson(const BackgroundCommand &c)
{
    QJsonObject o{{QStringLiteral("id"), c.id},
                  {QStringLiteral("argv"), QJsonArray::fromStringList(c.argv)},
                  {QStringLiteral("started"), c.started.toMSecsSinceEpoch()},
                  {QStringLiteral("running"), c.running}};
    if (c.exitCode)
        o.insert(QStringLiteral("exitCode"), *c.exitCode);
    return o;
}

BackgroundCommand fromJson(const QJsonObject &o)
{
    BackgroundCommand c;
    c.id = o.value(QLatin1String("id")).toString();
    for (const QJsonValue &arg : o.value(QLatin1String("argv")).toArray())
        c.argv << arg.toString();
    const qint64 started = qint64(o.value(QLatin1String("started")).toDouble());
    if (started > 0)
        c.started = QDateTime::fromMSecsSinceEpoch(started, QTimeZone::utc());
    c.running = o.value(QLatin1String("running")).toBool(true);
    if (o.value(QLatin1String("exitCode")).isDouble())
        c.exitCode = o.value(QLatin1String("exitCode")).toInt();
    return c;
}
} // namespace

CommandBook::CommandBook(QString file)
    : m_file(std::move(file))
{
}

CommandBook::Book CommandBook::load() const
{
    if (m_file.isEmpty())
        return m_memory;
    QFile f(m_file);
    if (!f.open(QIODevice::ReadOnly) || f.size() > kMaxFileBytes)
        return {};
    const QJsonObject sessions = QJsonDocument::fromJson(f.readAll()).object();
    Book book;
    for (auto it = sessions.begin(); it != sessions.end(); ++it) {
        QList<BackgroundCommand> list;
        for (const QJsonValue &v : it.value().toArray()) {
            BackgroundCommand c = fromJson(v.toObject());
            if (!c.id.isEmpty() && list.size() < kPerSession)
                list << c;
        }
        if (!list.isEmpty())
            book.insert(it.key(), list);
    }
    return book;
}

void CommandBook::save(const Book &book)
{
    if (m_file.isEmpty()) {
        m_memory = book;
        return;
    }
    QJsonObject sessions;
    for (auto it = book.begin(); it != book.end(); ++it) {
        QJsonArray list;
        for (const BackgroundCommand &c : it.value())
            list.append(toJson(c));
        if (!list.isEmpty())
            sessions.insert(it.key(), list);
    }
    // Atomic, so that a window and a sandbarctl writing at once leave one whole file or the other.
    QDir().mkpath(QFileInfo(m_file).absolutePath());
    QSaveFile f(m_file);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(QJsonDocument(sessions).toJson(QJsonDocument::Compact));
        f.commit();
    }
}

void CommandBook::add(const QString &sessionId, const BackgroundCommand &command)
{
    Book book = load();
    QList<BackgroundCommand> &list = book[sessionId];
    list.removeIf([&](const BackgroundCommand &c) { return c.id == command.id; });
    list.prepend(command);
    if (list.size() > kPerSession)
        list.resize(kPerSession);
    save(book);
}

void CommandBook::update(const QString &sessionId, const BackgroundCommand &command)
{
    Book book = load();
    auto it = book.find(sessionId);
    if (it == book.end())
        return;
    for (BackgroundCommand &c : *it) {
        if (c.id != command.id || (c.exitCode == command.exitCode && c.running == command.running))
            continue;
        c.running = command.running;
        c.exitCode = command.exitCode;
        save(book);
        return;
    }
}

void CommandBook::drop(const QString &sessionId, const QString &commandId)
{
    Book book = load();
    auto it = book.find(sessionId);
    if (it == book.end() || !it->removeIf([&](const BackgroundCommand &c) { return c.id == commandId; }))
        return;
    if (it->isEmpty())
        book.erase(it);
    save(book);
}

void CommandBook::dropSession(const QString &sessionId)
{
    Book book = load();
    if (book.remove(sessionId))
        save(book);
}

QList<BackgroundCommand> CommandBook::commands(const QString &sessionId) const
{
    return load().value(sessionId);
}

} // namespace sandbar::cloud
