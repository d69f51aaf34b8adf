#pragma once

#include "common/Result.h"

#include <QIODevice>
#include <QList>
#include <QString>
#include <memory>
#include <optional>

struct archive;

namespace sandbar::files {

struct TarSourceOptions {
    // Owner written into every header; absent keeps the local owner.
    std::optional<qint64> uid;
    std::optional<qint64> gid;
    QString userName; // empty: none written
    QString groupName;
    // Name of the top entry in the archive; empty: the local base name.
    QString rootName;
    // File bytes produced per refill; bounds memory and the time one read() blocks.
    qint64 chunkBytes = 256 * 1024;
};

// A read-only sequential device that produces a POSIX (pax) tar of a local file or folder
// as it is read, a chunk at a time, so that uploading a huge file never holds it in memory.
// Long and non-ASCII names and files over 8 GiB get pax headers; symbolic links are kept;
// sockets, FIFOs and devices are left out.
class TarSource : public QIODevice
{
    Q_OBJECT
public:
    explicit TarSource(QString localPath, TarSourceOptions options = {}, QObject *parent = nullptr);
    ~TarSource() override;

    // Walks the tree (names and sizes only) and opens the device for reading.
    VoidResult prepare();

    qint64 totalFileBytes() const { return m_totalBytes; } // sum of regular file sizes
    qint64 fileBytesDone() const { return m_doneBytes; }   // of those, produced so far
    qint64 archiveBytesProduced() const { return m_produced; }
    // Set when production failed (a file vanished or became unreadable); read() then
    // returns -1 and errorString() says why.
    std::optional<Error> failure() const { return m_failure; }

    // libarchive's output sink; not for callers.
    void absorb(const char *bytes, qint64 size);

    bool isSequential() const override { return true; }
    qint64 bytesAvailable() const override;
    bool atEnd() const override;

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *data, qint64 maxSize) override;

private:
    struct Entry {
        QString localPath;
        QString archiveName;
    };
    bool refill();
    bool beginEntry(const Entry &entry);
    void fail(Error error);

    QString m_localPath;
    TarSourceOptions m_options;
    QList<Entry> m_entries;
    qsizetype m_next = 0;
    struct archive *m_archive = nullptr;
    int m_fd = -1;         // file whose data is being written, or -1
    qint64 m_fileLeft = 0; // bytes of it still to write
    QByteArray m_chunk;    // read buffer for file data, reused
    QByteArray m_buffer;   // produced and not yet read
    qsizetype m_bufferPos = 0;
    bool m_finished = false;
    qint64 m_totalBytes = 0;
    qint64 m_doneBytes = 0;
    qint64 m_produced = 0;
    std::optional<Error> m_failure;
};

} // namespace sandbar::files
