#include "E2bServer.h"

#include "E2bContext.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <memory>

namespace contract::e2b {

namespace {

// Keeps the routes' shared context alive as long as the server.
class ContextOwner : public QObject
{
public:
    ContextOwner(Server &server, SandboxHost &host, const Options &options)
        : QObject(&server)
        , context{server, host, options, QStringLiteral("localhost:%1").arg(options.boundPort)}
    {
    }
    Context context;
};

} // namespace

void sendError(Responder *responder, int status, const QString &message)
{
    responder->sendJson(status, QJsonObject{{QStringLiteral("code"), status}, {QStringLiteral("message"), message}});
}

QString envdSandboxId(const Request &request)
{
    const QByteArray header = request.header("e2b-sandbox-id");
    if (!header.isEmpty())
        return QString::fromUtf8(header);
    // 49983-<id>.<domain>[:port]
    const QByteArray host = request.host();
    const QByteArray prefix = QByteArray::number(kEnvdPort) + '-';
    if (!host.startsWith(prefix))
        return {};
    const int dot = host.indexOf('.');
    return dot > prefix.size() ? QString::fromUtf8(host.mid(prefix.size(), dot - prefix.size())) : QString();
}

bool isEnvdRequest(const Request &request)
{
    return !envdSandboxId(request).isEmpty();
}

void install(Server &server, SandboxHost &host, const Options &options)
{
    auto *owner = new ContextOwner(server, host, options);
    Context &context = owner->context;
    // Envd first: its routes are chosen by the sandbox header/host, so /health or /files
    // on the control plane never shadow them.
    installEnvd(context);
    installProcessRpc(context);
    installFilesystemRpc(context);
    installControlPlane(context);
}

} // namespace contract::e2b
