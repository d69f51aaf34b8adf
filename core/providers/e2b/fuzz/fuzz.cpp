// libFuzzer target fuzz_e2b (tests/fuzz/targets.sh): the E2B servers' replies into E2bParsers.
//
// Input: byte 0 picks the parser (modulo 7); the rest is the server's bytes. The seeds in
// corpus/ are that byte followed by a reply as the contract server sends it.
#include "FuzzInput.h"
#include "providers/e2b/E2bParsers.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace sandbar;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const int which = in.byte() % 7;
    const QByteArray bytes = in.rest();
    const QString account = QStringLiteral("fuzz");

    switch (which) {
    case 0: {
        auto r = e2b::parseSandbox(bytes);
        if (r.ok()) {
            // The access token is a secret: the record's raw copy (shown to people) drops it.
            FUZZ_CHECK(!QJsonDocument::fromJson(r->raw).object().contains(QStringLiteral("envdAccessToken")));
            (void)e2b::toSessionInfo(*r, account);
            (void)e2b::metadataFilter(r->metadata);
        }
        break;
    }
    case 1: {
        auto r = e2b::parseSandboxList(bytes);
        if (r.ok())
            for (const auto &s : *r)
                (void)e2b::toSessionInfo(s, account);
        break;
    }
    case 2: (void)e2b::parseMetrics(bytes); break;
    case 3: (void)e2b::parseProcessEvent(bytes); break;
    case 4: (void)e2b::parseProcessList(bytes); break;
    case 5:
        (void)e2b::parseListDir(bytes);
        (void)e2b::parseEntryReply(bytes);
        break;
    case 6: (void)e2b::connectUnaryError(int(bytes.size() % 600), bytes, QStringLiteral("filesystem")); break;
    }
    return 0;
}
