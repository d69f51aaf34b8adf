#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QSet>
#include <QString>
#include <QStringList>
#include <optional>

struct archive;

namespace sandbar::files {

// Extracts a tar stream into a local folder as its bytes arrive (push parser: feed() takes
// whatever the network delivered). Reads ustar, pax ('x' records: path, linkpath, size)
// and GNU long names; libarchive's disk writer creates the files, with its secure-symlink
// and no-".." checks. Hostile archives cannot write outside the target: absolute names,
// ".." components, links leading out, hard links to anything the archive did not write,
// and paths through symbolic links are refused; set-id bits are dropped. Devices and FIFOs
// are skipped. A file left incomplete by an error or by destruction is removed. The disk
// writer's calls that flip the umask run where that umask is private (PrivateUmask.h), so
// other threads never see it change.
class TarExtractor
{
public:
    explicit TarExtractor(QString targetDir);
    ~TarExtractor();
    TarExtractor(const TarExtractor &) = delete;
    TarExtractor &operator=(const TarExtractor &) = delete;

    // Renames the archive's top entry (the first component of every name), for a copy that
    // is saved under another name; empty keeps the archive's names. Call before feed().
    void setRootName(const QString &name);

    // The first error sticks: later calls return it again.
    VoidResult feed(const QByteArray &bytes);
    // End of input; an error when the stream stopped inside an entry.
    VoidResult finish();

    qint64 bytesConsumed() const { return m_consumed; }
    qint64 fileBytesWritten() const { return m_fileBytes; }
    QStringList entries() const { return m_entries; } // safe relative names, in order

private:
    // Translates in the context lupdate gives this class's tr() calls, "sandbar::files::TarExtractor".
    static QString tr(const char *text);

    enum class State { Header, Data, Padding, Meta, End };
    VoidResult onHeader(const char *block);
    VoidResult beginEntry();
    VoidResult onMeta();
    VoidResult writeData(const char *data, qint64 size);
    VoidResult closeFile();
    VoidResult fail(Error error);
    VoidResult openDisk();
    // Refuses a file standing where rel's parent folders should be (libarchive would delete it).
    VoidResult checkParents(const QString &rel);
    Error diskError(const QString &rel) const;
    void closeDisk(bool discardPartial);
    QString withRootName(const QString &rel) const;

    QString m_root;
    QString m_rootName;
    State m_state = State::Header;
    QByteArray m_pending; // partial header or metadata block
    qint64 m_left = 0;    // bytes of data (or metadata) still to come
    qint64 m_padding = 0;
    char m_type = 0;
    QByteArray m_meta; // pax or GNU long-name payload
    char m_metaType = 0;
    QString m_paxPath, m_paxLink, m_gnuPath, m_gnuLink;
    qint64 m_paxSize = -1;
    QString m_name, m_link;
    quint32 m_mode = 0;
    qint64 m_mtime = 0;
    struct archive *m_disk = nullptr; // libarchive's disk writer, opened with the first entry
    bool m_entryOpen = false;         // a header was written to m_disk and not finished
    bool m_writing = false;           // the open entry is a regular file taking data
    QString m_rel;                    // the open entry, relative to the root
    QSet<QString> m_dirs;             // folders known to exist (relative), not checked again
    QSet<QString> m_files;            // regular files this archive wrote: hard link targets
    qint64 m_consumed = 0, m_fileBytes = 0;
    QStringList m_entries;
    std::optional<Error> m_error;
};

} // namespace sandbar::files
