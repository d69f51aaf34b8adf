#pragma once

#include "common/Result.h"

#include <QIODevice>
#include <QSet>
#include <QString>
#include <optional>

struct archive;
struct archive_entry;

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
    // The stream gzip-compressed (a .tar.gz), for services that take only that (Vercel).
    bool gzip = false;
};

// A read-only sequential device that produces a POSIX (pax) tar of a local file or folder
// as it is read, a chunk at a time, so that uploading a huge file never holds it in memory.
// The tree is walked with libarchive's disk reader, never following a symbolic link; each
// file is then opened here, component by component without following links (nor blocking on
// a FIFO), and must be the very file the walk saw: one swapped for a link or anything else
// in between fails the copy instead of sending what it leads to. Long and
// non-ASCII names and files over 8 GiB get pax headers; symbolic links are kept; sockets,
// FIFOs and devices are left out, and so is anything that appeared after prepare().
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
    struct archive *openWalk();
    bool refill();
    bool beginEntry();
    bool nextBlock();
    bool openEntryFile();
    void closeEntryFile();
    void fail(Error error);
    QString archiveName(struct archive_entry *entry) const;

    QString m_localPath;
    QString m_walkRoot; // cleaned absolute local path the disk reader walks
    QString m_rootName;
    TarSourceOptions m_options;
    QSet<QString> m_expected;            // archive names seen by prepare() and not yet produced
    struct archive *m_archive = nullptr; // the tar writer
    struct archive *m_walk = nullptr;    // the disk reader
    struct archive_entry *m_entry = nullptr;
    bool m_inData = false; // the current entry is a file whose data is being written
    int m_parentFd = -1;   // the folder holding the walk root, where opening files starts
    int m_fileFd = -1;     // the current file, once its data is wanted
    qint64 m_fileLeft = 0; // of its size in the header, bytes not read yet
    QByteArray m_readBuffer;
    const char *m_block = nullptr; // unsent bytes in m_readBuffer
    qint64 m_blockLeft = 0;
    QByteArray m_buffer; // produced and not yet read
    qsizetype m_bufferPos = 0;
    bool m_finished = false;
    qint64 m_totalBytes = 0;
    qint64 m_doneBytes = 0;
    qint64 m_produced = 0;
    std::optional<Error> m_failure;
};

} // namespace sandbar::files
