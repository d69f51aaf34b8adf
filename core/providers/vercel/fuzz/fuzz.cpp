// libFuzzer target fuzz_vercel (tests/fuzz/targets.sh): Vercel Sandbox's replies into
// VercelParsers.
//
// Input: byte 0 picks the parser (modulo 8); the rest is the server's bytes. The seeds in
// corpus/ are that byte followed by a reply as the contract server sends it.
#include "FuzzInput.h"
#include "providers/vercel/VercelParsers.h"

using namespace sandbar;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const int which = in.byte() % 8;
    const QByteArray bytes = in.rest();
    const QString account = QStringLiteral("fuzz");

    switch (which) {
    case 0: (void)vercel::parseSandboxReply(bytes, account, QStringLiteral("vercel")); break;
    case 1: (void)vercel::parseSandboxList(bytes, account, QStringLiteral("vercel")); break;
    case 2: {
        // A stream fed in two pieces: every complete line is one event.
        QByteArray buffer = bytes.left(bytes.size() / 2);
        QList<QByteArray> lines = vercel::takeLines(&buffer);
        buffer += bytes.mid(bytes.size() / 2);
        lines += vercel::takeLines(&buffer);
        for (const QByteArray &line : lines)
            (void)vercel::parseCommandLine(line);
        break;
    }
    case 3: (void)vercel::parseInteractive(bytes); break;
    case 4:
        (void)vercel::parseExitFrame(QString::fromUtf8(bytes));
        (void)vercel::errorMessage(bytes);
        break;
    case 5: (void)vercel::isJwt(QString::fromUtf8(bytes)); break;
    case 6: (void)vercel::parseSnapshotList(bytes); break;
    case 7: (void)vercel::parseSnapshotReply(bytes); break;
    }
    return 0;
}
