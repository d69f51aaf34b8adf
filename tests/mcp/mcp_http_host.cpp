// Serves McpHttpServer with test tools (echo, slow, stats) for the SDK's HTTP client (client/mcp-http-flow.mjs),
// without the window: prints "PORT TOKEN" on stdout once listening, then runs until stdin
// ends (its runner going away) or two minutes pass, so it can never be left behind.
#include "mcp/McpHttpServer.h"
#include "mcp/McpServer.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QSocketNotifier>
#include <QTimer>
#include <cstdio>
#include <unistd.h>

using namespace sandbar::mcp;

namespace {

QJsonObject objectSchema(const QJsonObject &properties, const QJsonArray &required = {})
{
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), properties},
            {QStringLiteral("required"), required},
            {QStringLiteral("additionalProperties"), false}};
}

QJsonObject typed(const char *type)
{
    return {{QStringLiteral("type"), QLatin1String(type)}};
}

// Calls cancelled in any session: by notifications/cancelled, or by their client going away.
int g_cancelled = 0;

McpServer *makeServer(QObject *parent)
{
    auto *server = new McpServer(QStringLiteral("sandbar-http-host"), QStringLiteral("0"), parent);
    server->addTool(Tool{
        QStringLiteral("echo"),
        QStringLiteral("Echo"),
        QStringLiteral("Returns its text."),
        objectSchema({{QStringLiteral("text"), typed("string")}}, {QStringLiteral("text")}),
        objectSchema({{QStringLiteral("text"), typed("string")}}, {QStringLiteral("text")}),
        {{QStringLiteral("readOnlyHint"), true}},
        false,
        [](ToolCall *call) {
            call->finish(ToolResult::ok({{QStringLiteral("text"), call->arguments().value(QLatin1String("text"))}}));
        },
    });
    // Progress on the call's stream before its result.
    server->addTool(Tool{
        QStringLiteral("slow"),
        QStringLiteral("Slow"),
        QStringLiteral("Counts to `steps`, reporting progress, then answers."),
        objectSchema({{QStringLiteral("steps"), typed("integer")}}, {QStringLiteral("steps")}),
        objectSchema({{QStringLiteral("steps"), typed("integer")}}, {QStringLiteral("steps")}),
        {},
        true,
        [](ToolCall *call) {
            const int steps = qBound(1, call->arguments().value(QLatin1String("steps")).toInt(), 1000);
            QObject::connect(call, &ToolCall::cancelled, qApp, [] { ++g_cancelled; });
            for (int i = 1; i <= steps; ++i) {
                QTimer::singleShot(10 * i, call, [call, i, steps] {
                    call->reportProgress(i, steps, QStringLiteral("step %1").arg(i));
                    if (i == steps)
                        call->finish(ToolResult::ok({{QStringLiteral("steps"), steps}}));
                });
            }
        },
    });
    server->addTool(Tool{
        QStringLiteral("stats"),
        QStringLiteral("Stats"),
        QStringLiteral("How many calls were cancelled so far."),
        objectSchema({}),
        objectSchema({{QStringLiteral("cancelled"), typed("integer")}}, {QStringLiteral("cancelled")}),
        {{QStringLiteral("readOnlyHint"), true}},
        false,
        [](ToolCall *call) {
            call->finish(ToolResult::ok({{QStringLiteral("cancelled"), g_cancelled}}));
        },
    });
    return server;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    McpHttpServer http(makeServer);
    const QString token = newBearerToken();
    http.setToken(token);
    if (const auto listening = http.listen(0); !listening.ok()) {
        std::fprintf(stderr, "mcp_http_host: %s\n", qPrintable(listening.message()));
        return 1;
    }
    std::printf("%u %s\n", unsigned(http.serverPort()), qPrintable(token));
    std::fflush(stdout);

    QSocketNotifier input(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&input, &QSocketNotifier::activated, &app, [&input] {
        char buf[256];
        if (::read(STDIN_FILENO, buf, sizeof buf) <= 0) {
            input.setEnabled(false);
            QCoreApplication::quit();
        }
    });
    QTimer::singleShot(120000, &app, [] {
        std::fprintf(stderr, "mcp_http_host: still running after two minutes; exiting\n");
        QCoreApplication::exit(2);
    });
    return app.exec();
}
