#pragma once

#include "kit/Options.h"
#include "kit/Request.h"
#include "kit/Responder.h"

#include <QJsonObject>
#include <QString>

namespace contract {
class Server;
class SandboxHost;
class Sandbox;
} // namespace contract

namespace contract::e2b {

inline constexpr char kEnvdVersion[] = "0.5.7";
inline constexpr int kEnvdPort = 49983;

struct Context {
    Server &server;
    SandboxHost &host;
    Options options;
    QString domain; // handed out in Sandbox.domain: "localhost:PORT"
};

// Control-plane error body: {"code":N,"message":"..."}.
void sendError(Responder *responder, int status, const QString &message);

// True for requests addressed to a sandbox's envd: an E2b-Sandbox-Id header or a
// "49983-<id>.<domain>" Host.
bool isEnvdRequest(const Request &request);
QString envdSandboxId(const Request &request);

void installControlPlane(Context &context);
void installEnvd(Context &context);
void installProcessRpc(Context &context);
void installFilesystemRpc(Context &context);

// The sandbox an envd request is for, after the checks the real proxy and envd make
// (unknown or paused: 502; secure without the right X-Access-Token: 401). Answers
// and returns nullptr when the request cannot go on.
Sandbox *envdSandbox(Context &context, const Request &request, Responder *responder, bool connectRpc);

} // namespace contract::e2b
