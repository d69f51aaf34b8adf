// libFuzzer target fuzz_daytona (tests/fuzz/targets.sh): the Daytona servers' replies into
// DaytonaParsers.
//
// Input: byte 0 picks the parser (modulo 9); the rest is the server's bytes. The seeds in
// corpus/ are that byte followed by a reply as the contract server sends it.
#include "FuzzInput.h"
#include "providers/daytona/DaytonaParsers.h"

#include <optional>

using namespace sandbar;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::Input in(data, size);
    const int which = in.byte() % 9;
    const QByteArray bytes = in.rest();
    const QString account = QStringLiteral("fuzz");
    const QString text = QString::fromUtf8(bytes);

    switch (which) {
    case 0: (void)daytona::parseSandboxJson(bytes, account, QStringLiteral("daytona")); break;
    case 1: (void)daytona::parseSandboxList(bytes, account, QStringLiteral("daytona")); break;
    case 2:
        (void)daytona::parsePtyCloseReason(text);
        (void)daytona::parsePtyControl(text);
        break;
    case 3:
        (void)daytona::parsePtyCreated(bytes);
        (void)daytona::parsePtyList(bytes);
        break;
    case 4: (void)daytona::parseExecute(bytes); break;
    case 5: {
        const std::optional<double> cores =
            bytes.isEmpty() ? std::nullopt : std::optional<double>(double(uint8_t(bytes.at(0))) / 16.0);
        (void)daytona::parseTelemetry(bytes, cores);
        break;
    }
    case 6:
        (void)daytona::parseMode(text);
        (void)daytona::parseFileInfoJson(bytes, QStringLiteral("/home/daytona/x"));
        break;
    case 7: (void)daytona::parseFileList(bytes, QStringLiteral("/home/daytona")); break;
    case 8: (void)daytona::errorMessage(bytes); break;
    }
    return 0;
}
