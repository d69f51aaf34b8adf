#include "LocalLogs.h"

#include <algorithm>
#include <limits>

namespace sandbar::local {

namespace {
// One tick reads at most this much, so that a large log never holds up the event loop.
constexpr qint64 kChunk = 256 * 1024;
constexpr qint64 kPerTick = 4 * kChunk;
} // namespace

LocalLogStream::LocalLogStream(QString path, LogOptions options, std::function<bool()> alive, QObject *parent)
    : LogStream(parent)
    , m_path(std::move(path))
    , m_options(options)
    , m_alive(std::move(alive))
{
    m_poll.setInterval(std::chrono::milliseconds(250));
    connect(&m_poll, &QTimer::timeout, this, &LocalLogStream::poll);
}

LocalLogStream::LocalLogStream(Error error, QObject *parent)
    : LogStream(parent)
    , m_error(std::move(error))
{
}

void LocalLogStream::start()
{
    m_done = false;
    // Asynchronous like every provider's stream: listeners connect after start() too.
    QTimer::singleShot(0, this, &LocalLogStream::first);
}

void LocalLogStream::stop()
{
    m_done = true;
    m_poll.stop();
    m_file.close();
}

void LocalLogStream::finish(const VoidResult &result)
{
    if (m_done)
        return;
    m_done = true;
    m_poll.stop();
    m_file.close();
    Q_EMIT finished(result);
}

qint64 LocalLogStream::tailOffset(QFile *file, qint64 size, int lines, qint64 maxScan)
{
    if (lines < 0 || size <= 0)
        return 0;
    if (lines == 0)
        return size;
    qint64 pos = size;
    int seen = 0;
    // A newline that ends the file ends the last line; it does not start another.
    bool skipLast = true;
    while (pos > 0 && size - pos < maxScan) {
        const qint64 block = qMin<qint64>(64 * 1024, pos);
        if (!file->seek(pos - block))
            return 0;
        const QByteArray bytes = file->read(block);
        if (bytes.size() != block)
            return 0;
        for (qint64 i = block - 1; i >= 0; --i) {
            if (bytes.at(i) != '\n')
                continue;
            if (skipLast && pos - block + i == size - 1) {
                skipLast = false;
                continue;
            }
            if (++seen == lines)
                return pos - block + i + 1;
        }
        skipLast = false;
        pos -= block;
    }
    return pos;
}

void LocalLogStream::first()
{
    if (m_done)
        return;
    if (m_error)
        return finish(*m_error);
    m_file.setFileName(m_path);
    if (m_file.open(QIODevice::ReadOnly)) {
        const qint64 size = m_file.size();
        m_pos = tailOffset(&m_file, size, m_options.tail);
        if (!m_options.follow)
            m_end = size;
    } else if (!m_options.follow) {
        // No log yet: the session wrote nothing.
        return finish({});
    }
    if (m_options.follow)
        m_poll.start();
    poll();
}

bool LocalLogStream::drain(qint64 limit)
{
    if (!m_file.isOpen()) {
        m_file.setFileName(m_path);
        if (!m_file.open(QIODevice::ReadOnly))
            return false;
        m_pos = 0;
    }
    const qint64 size = m_file.size();
    if (size < m_pos)
        m_pos = 0; // truncated: read it again from its start, as tail -f does
    const qint64 stopAt = m_end >= 0 ? qMin(m_end, size) : size;
    bool any = false;
    while (m_pos < stopAt && limit > 0 && !m_done) {
        if (!m_file.seek(m_pos))
            break;
        const QByteArray bytes = m_file.read(std::min({kChunk, stopAt - m_pos, limit}));
        if (bytes.isEmpty())
            break;
        m_pos += bytes.size();
        limit -= bytes.size();
        any = true;
        Q_EMIT data(bytes, 0);
    }
    return any;
}

void LocalLogStream::poll()
{
    if (m_done)
        return;
    const bool any = drain(kPerTick);
    if (m_done)
        return;
    if (m_end >= 0 && (m_pos >= m_end || !any))
        return finish({});
    if (any) {
        // More may be waiting (a long log read in pieces): come back at once, not in 250 ms.
        if (m_file.isOpen() && m_pos < m_file.size())
            QTimer::singleShot(0, this, &LocalLogStream::poll);
        return;
    }
    // Checked only when the file is quiet, and read once more after: what the session wrote
    // as it ended must not be lost.
    if (m_alive && !m_alive()) {
        drain(std::numeric_limits<qint64>::max());
        finish({});
    }
}

} // namespace sandbar::local
