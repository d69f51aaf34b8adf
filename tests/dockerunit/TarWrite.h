#pragma once
// Tar archives written straight with libarchive into memory for the tar tests: nothing is
// sanitised, so hostile names, modes and types go in as given.

#include <QByteArray>
#include <archive.h>
#include <archive_entry.h>
#include <functional>

namespace sandbar::test {

enum class TarFormat { Pax, PaxRestricted, Gnu };

// The archive whose entries fill() writes to a, ending right after its end-of-archive blocks.
inline QByteArray writeTar(TarFormat format, const std::function<void(archive *a)> &fill)
{
    QByteArray out;
    archive *a = archive_write_new();
    switch (format) {
    case TarFormat::Pax: archive_write_set_format_pax(a); break;
    case TarFormat::PaxRestricted: archive_write_set_format_pax_restricted(a); break;
    case TarFormat::Gnu: archive_write_set_format_gnutar(a); break;
    }
    archive_write_set_bytes_in_last_block(a, 1);
    archive_write_open(
        a, &out, nullptr,
        [](archive *, void *c, const void *b, size_t n) -> la_ssize_t {
            static_cast<QByteArray *>(c)->append(static_cast<const char *>(b), qsizetype(n));
            return la_ssize_t(n);
        },
        nullptr);
    fill(a);
    archive_write_close(a);
    archive_write_free(a);
    return out;
}

} // namespace sandbar::test
