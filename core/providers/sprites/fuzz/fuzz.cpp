// libFuzzer target fuzz_sprites (tests/fuzz/targets.sh): Fly.io Sprites' replies and frames
// into SpritesParsers.
//
// Input: byte 0 picks the parser (modulo 8); the rest is the server's bytes. The seeds in
// corpus/ are that byte followed by a reply as the contract server sends it.
#include "FuzzInput.h"
#include "cloud/JsonValues.h"
#include "providers/sprites/SpritesParsers.h"

using namespace sandbar;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const int which = in.byte() % 8;
    const QByteArray bytes = in.rest();
    const QString account = QStringLiteral("fuzz");

    switch (which) {
    case 0: (void)sprites::parseSprite(bytes, account, QStringLiteral("sprites")); break;
    case 1: (void)sprites::parseSpriteList(bytes, account, QStringLiteral("sprites")); break;
    case 2: (void)sprites::parseSessionList(bytes); break;
    case 3: (void)sprites::parseFsList(bytes, QStringLiteral("/home/sprite")); break;
    case 4:
        (void)sprites::parseExecFrame(bytes);
        (void)sprites::errorMessage(bytes);
        break;
    case 5: (void)sprites::parseControl(QString::fromUtf8(bytes)); break;
    case 6: (void)sprites::parseCheckpointList(bytes); break;
    case 7: {
        // A progress stream fed in two pieces: every complete line is one message.
        QByteArray buffer = bytes.left(bytes.size() / 2);
        QList<QByteArray> lines = cloud::takeLines(&buffer);
        buffer += bytes.mid(bytes.size() / 2);
        lines += cloud::takeLines(&buffer);
        for (const QByteArray &line : lines)
            (void)sprites::parseStreamMessage(line);
        (void)sprites::memoryLimit(bytes);
        break;
    }
    }
    return 0;
}
