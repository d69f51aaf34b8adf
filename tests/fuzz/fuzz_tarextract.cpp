// libFuzzer target: hostile tar archives into TarExtractor, through its public API, into a
// fresh folder per input. After each input nothing may exist outside that folder: the
// sentinel folder beside it stays empty, the sentinel file keeps its bytes and its single
// link, /tmp holds nothing new, and the extracted tree has no device node, FIFO or set-id bit.
// The process runs confined (FuzzConfine.h): read-only host, private /tmp.
//
// Input: byte 0 holds the options (bit 0 recompute header checksums so mutated headers stay
// valid, bit 1 rename the top entry, bit 2 skip finish()), bytes 1-2 seed the piece sizes and
// byte 3 caps them (0: one feed); the rest is the archive. Seeds aim their escapes at
// /tmp/sentinel and /tmp/sentinel-file.
#include "FuzzConfine.h"
#include "FuzzInput.h"
#include "files/TarExtractor.h"

#include <QString>
#include <dirent.h>
#include <ftw.h>
#include <sys/stat.h>

using namespace sandbar;

namespace {

const char kBox[] = "/tmp/box";
const char kTarget[] = "/tmp/box/target";
const char kSentinelDir[] = "/tmp/sentinel";
const char kSentinelFile[] = "/tmp/sentinel-file";
const QByteArray kSentinelText = "the host's file, never to be changed\n";

int removeOne(const char *path, const struct stat *, int, struct FTW *)
{
    return ::remove(path);
}

void removeTree(const char *path)
{
    ::nftw(path, removeOne, 16, FTW_DEPTH | FTW_PHYS);
}

QList<QByteArray> listDir(const char *path)
{
    QList<QByteArray> names;
    if (DIR *d = ::opendir(path)) {
        while (const dirent *e = ::readdir(d)) {
            const QByteArray n(e->d_name);
            if (n != "." && n != "..")
                names << n;
        }
        ::closedir(d);
    }
    return names;
}

bool sentinelIntact()
{
    struct stat st {
    };
    if (::lstat(kSentinelFile, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
        st.st_size != kSentinelText.size())
        return false;
    char buf[128] = {};
    const int fd = ::open(kSentinelFile, O_RDONLY);
    const auto n = fd >= 0 ? ::read(fd, buf, sizeof buf) : -1;
    if (fd >= 0)
        ::close(fd);
    return n == kSentinelText.size() && QByteArray(buf, int(n)) == kSentinelText;
}

int checkEntry(const char *path, const struct stat *st, int type, struct FTW *)
{
    FUZZ_CHECK(type != FTW_NS);
    FUZZ_CHECK(S_ISREG(st->st_mode) || S_ISDIR(st->st_mode) || S_ISLNK(st->st_mode));
    FUZZ_CHECK(!(st->st_mode & (S_ISUID | S_ISGID)));
    (void)path;
    return 0;
}

// Recomputes the checksum of every header in a well-framed archive, so that the fuzzer's
// mutations of names, types, sizes and links reach the extractor instead of its checksum test.
void fixChecksums(QByteArray &tar)
{
    qsizetype at = 0;
    while (at + 512 <= tar.size()) {
        char *h = tar.data() + at;
        bool zero = true;
        for (int i = 0; i < 512 && zero; ++i)
            zero = h[i] == 0;
        if (zero)
            return;
        std::memset(h + 148, ' ', 8);
        unsigned sum = 0;
        for (int i = 0; i < 512; ++i)
            sum += static_cast<unsigned char>(h[i]);
        std::snprintf(h + 148, 8, "%06o", sum & 0777777);
        h[155] = ' ';
        qint64 size = 0;
        for (int i = 124; i < 136 && h[i] >= '0' && h[i] <= '7'; ++i)
            size = size * 8 + (h[i] - '0');
        at += 512 + (size + 511) / 512 * 512;
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz::confine(*argc, *argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const uint8_t flags = in.byte();
    const uint32_t seed = uint32_t(in.byte()) << 8 | in.byte();
    const fuzz::Splitter splitter(seed, in.byte());
    QByteArray tar = in.rest();
    if (flags & 1)
        fixChecksums(tar);

    removeTree(kBox);
    removeTree(kSentinelDir);
    ::unlink(kSentinelFile);
    FUZZ_CHECK(::mkdir(kBox, 0755) == 0 && ::mkdir(kSentinelDir, 0755) == 0);
    {
        const int fd = ::open(kSentinelFile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        FUZZ_CHECK(fd >= 0 &&
                   ::write(fd, kSentinelText.constData(), size_t(kSentinelText.size())) == kSentinelText.size());
        ::close(fd);
    }

    {
        files::TarExtractor x(QString::fromLatin1(kTarget));
        if (flags & 2)
            x.setRootName(QStringLiteral("renamed"));
        bool failed = false;
        splitter.run(tar, [&](const QByteArray &piece) {
            if (!failed)
                failed = !x.feed(piece).ok();
        });
        if (failed)
            FUZZ_CHECK(!x.feed(QByteArray(512, '\0')).ok()); // the first error sticks
        if (!(flags & 4))
            (void)x.finish();
        FUZZ_CHECK(x.bytesConsumed() <= tar.size());
        for (const QString &e : x.entries()) {
            FUZZ_CHECK(!e.startsWith(QLatin1Char('/')));
            FUZZ_CHECK(!e.split(QLatin1Char('/')).contains(QStringLiteral("..")));
        }
    } // destroyed: an open file is closed here

    FUZZ_CHECK(listDir(kSentinelDir).isEmpty());
    FUZZ_CHECK(sentinelIntact());
    for (const QByteArray &n : listDir("/tmp"))
        FUZZ_CHECK(n == "box" || n == "sentinel" || n == "sentinel-file" || n.startsWith("libFuzzerTemp") ||
                   fuzz::tmpKept().contains(n));
    for (const QByteArray &n : listDir(kBox))
        FUZZ_CHECK(n == "target");
    ::nftw(kTarget, checkEntry, 16, FTW_PHYS);
    return 0;
}
