// sandbar-contract-server: a loopback server that speaks a cloud provider's API dialect,
// backed by real local processes, for contract tests. See --help.

#include "kit/Faults.h"
#include "kit/Options.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"
// After the kit: the table names its types.
#include "ContractServers.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSocketNotifier>
#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace {

int g_signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_signalPipe[1], &byte, 1);
}

// The providers, from the table the provider list makes.
QString providersHelp()
{
    QString out = QStringLiteral("\nProviders:\n");
    for (const contract::ProviderServer &p : contract::kProviderServers)
        out += QStringLiteral("  %1  %2\n      Default API key: %3.\n")
                   .arg(QString::fromLatin1(p.id).leftJustified(8), QString::fromLatin1(p.description),
                        QString::fromLatin1(p.defaultApiKey));
    return out;
}

QString providerIds()
{
    QStringList ids;
    for (const contract::ProviderServer &p : contract::kProviderServers)
        ids << QString::fromLatin1(p.id);
    return ids.join(QLatin1Char('|'));
}

const char kHelpTail[] = R"(
Prints exactly one line "listening http://127.0.0.1:PORT" (https with --tls) on stdout when
ready. Only 127.0.0.1 is served. SIGTERM/SIGINT kill every sandbox and remove its folder.

Faults (--faults LIST, rules separated by ',' or ';'):
  RULE  := FAULT ['x' TIMES] '@' [METHOD ':'] PATH
  FAULT := 500 | 503 | 429 | 401 | malformed | reset[:BYTES] | truncate | ws-close[:MS]
         | lost-reply | slow:MS
  PATH  := exact request path (no query), prefix ending in '*', or '*' for every path
           (the official E2B SDK creates with POST /v2/sandboxes, older clients POST /sandboxes)
  e.g.  --faults 'lost-replyx1@POST:/sandboxes,429@GET:/v2/sandboxes,slow:800@*'
  500/503/401/429  answer that status (429 with Retry-After: 1); operation not performed
  slow:MS          delay MS ms, then handle normally
  malformed        200 with a broken JSON body; operation not performed
  reset[:N]        drop the connection (streams: after N body bytes, default 64)
  truncate         streams: end cleanly in the middle of a Connect envelope
  ws-close[:MS]    close a WebSocket (code 1011, reason "injected ws-close") MS ms after the
                   upgrade (default 300)
  lost-reply       perform the operation, then drop the connection without replying

Admin API (same port, no auth, never faulted):
  POST   /_contract/faults  {"rules":[{"method":"POST","path":"/sandboxes","fault":"lost-reply","times":1}]}
  GET    /_contract/faults  the rules and their hit counts
  DELETE /_contract/faults  remove every rule
  GET    /_contract/state   {"sandboxesCreated":n,"sandboxes":[{id,state,metadata,...}],
                             "requests":{"METHOD /pattern":n},"activePtys":n,"faults":[...]}
)";

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sandbar-contract-server"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Loopback provider API for Sandbar's contract tests.") +
                                     providersHelp() + QString::fromLatin1(kHelpTail));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("provider"), providerIds());
    const QCommandLineOption portOption(QStringLiteral("port"), QStringLiteral("Port (0 picks one)."),
                                        QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption faultsOption(QStringLiteral("faults"), QStringLiteral("Fault rules (grammar above)."),
                                          QStringLiteral("LIST"));
    const QCommandLineOption tlsOption(
        QStringLiteral("tls"),
        QStringLiteral("Serve TLS: certificate PEM (key with --tls-key or as the next argument)."),
        QStringLiteral("CERT"));
    const QCommandLineOption tlsKeyOption(QStringLiteral("tls-key"), QStringLiteral("TLS private key PEM."),
                                          QStringLiteral("KEY"));
    const QCommandLineOption keyOption(QStringLiteral("api-key"), QStringLiteral("The API key clients must send."),
                                       QStringLiteral("KEY"));
    parser.addOptions({portOption, faultsOption, tlsOption, tlsKeyOption, keyOption});
    parser.process(app);

    QStringList positional = parser.positionalArguments();
    contract::Options options;
    options.provider = positional.value(0);
    options.port = static_cast<quint16>(parser.value(portOption).toUInt());
    options.faults = parser.value(faultsOption);
    options.tlsCert = parser.value(tlsOption);
    options.tlsKey = parser.value(tlsKeyOption);
    if (!options.tlsCert.isEmpty() && options.tlsKey.isEmpty())
        options.tlsKey = positional.value(1); // --tls CERT KEY
    options.apiKey = parser.value(keyOption);

    const contract::ProviderServer *chosen = nullptr;
    for (const contract::ProviderServer &p : contract::kProviderServers) {
        if (options.provider == QLatin1String(p.id))
            chosen = &p;
    }
    if (!chosen) {
        std::fprintf(stderr,
                     "usage: sandbar-contract-server %s [--port N] [--faults LIST] [--tls CERT KEY] [--api-key KEY]\n",
                     qPrintable(providerIds()));
        return 2;
    }

    contract::Server server;
    contract::SandboxHost host;
    server.setSandboxHost(&host);
    auto rules = contract::Faults::parseList(options.faults);
    if (!rules) {
        std::fprintf(stderr, "sandbar-contract-server: %s\n", qPrintable(rules.message()));
        return 2;
    }
    server.faults().add(*rules);
    if (!options.tlsCert.isEmpty()) {
        auto tls = server.setTls(options.tlsCert, options.tlsKey);
        if (!tls) {
            std::fprintf(stderr, "sandbar-contract-server: %s\n", qPrintable(tls.message()));
            return 2;
        }
    }
    auto listening = server.listen(options.port);
    if (!listening) {
        std::fprintf(stderr, "sandbar-contract-server: cannot listen: %s\n", qPrintable(listening.message()));
        return 1;
    }
    options.boundPort = server.port();
    options.baseUrl = server.baseUrl();
    options.tls = server.isTls();

    if (options.apiKey.isEmpty())
        options.apiKey = QString::fromLatin1(chosen->defaultApiKey);
    chosen->install(server, host, options);

    if (::pipe(g_signalPipe) == 0) {
        auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, &app);
        QObject::connect(notifier, &QSocketNotifier::activated, &app, [] { QCoreApplication::quit(); });
        std::signal(SIGTERM, onSignal);
        std::signal(SIGINT, onSignal);
    }
    std::signal(SIGPIPE, SIG_IGN);

    std::printf("listening %s\n", qPrintable(options.baseUrl));
    std::fflush(stdout);
    const int rc = app.exec();
    host.killAll();
    return rc;
}
