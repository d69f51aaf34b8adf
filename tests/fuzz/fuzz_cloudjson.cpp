// libFuzzer target: replies of the E2B and Daytona servers into their pure parsers.
//
// Input: byte 0 picks the parser (modulo 16); the rest is the server's bytes.
#include "FuzzInput.h"
#include "providers/daytona/DaytonaParsers.h"
#include "providers/e2b/E2bParsers.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace sandbar;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const int which = in.byte() % 16;
    const QByteArray bytes = in.rest();
    const QString account = QStringLiteral("fuzz");
    const QString text = QString::fromUtf8(bytes);

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
    case 7: (void)daytona::parseSandboxJson(bytes, account, QStringLiteral("daytona")); break;
    case 8: (void)daytona::parseSandboxList(bytes, account, QStringLiteral("daytona")); break;
    case 9:
        (void)daytona::parsePtyCloseReason(text);
        (void)daytona::parsePtyControl(text);
        break;
    case 10:
        (void)daytona::parsePtyCreated(bytes);
        (void)daytona::parsePtyList(bytes);
        break;
    case 11: (void)daytona::parseExecute(bytes); break;
    case 12: {
        const std::optional<double> cores =
            bytes.isEmpty() ? std::nullopt : std::optional<double>(double(uint8_t(bytes.at(0))) / 16.0);
        (void)daytona::parseTelemetry(bytes, cores);
        break;
    }
    case 13:
        (void)daytona::parseMode(text);
        (void)daytona::parseFileInfoJson(bytes, QStringLiteral("/home/daytona/x"));
        break;
    case 14: (void)daytona::parseFileList(bytes, QStringLiteral("/home/daytona")); break;
    case 15: (void)daytona::errorMessage(bytes); break;
    }
    return 0;
}
