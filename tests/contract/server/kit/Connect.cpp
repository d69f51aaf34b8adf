#include "Connect.h"

#include <QJsonDocument>
#include <QtEndian>

namespace contract::connectrpc {

QByteArray envelope(const QJsonObject &message, quint8 flags)
{
    const QByteArray json = QJsonDocument(message).toJson(QJsonDocument::Compact);
    QByteArray out(5, '\0');
    out[0] = static_cast<char>(flags);
    qToBigEndian<quint32>(static_cast<quint32>(json.size()), out.data() + 1);
    return out + json;
}

QByteArray endStreamEnvelope(const QString &code, const QString &message)
{
    QJsonObject end;
    if (!code.isEmpty())
        end.insert(QStringLiteral("error"),
                   QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}});
    return envelope(end, kEndStream);
}

int httpStatus(const QString &code)
{
    static const QHash<QString, int> map{{QStringLiteral("canceled"), 499},
                                         {QStringLiteral("unknown"), 500},
                                         {QStringLiteral("invalid_argument"), 400},
                                         {QStringLiteral("deadline_exceeded"), 504},
                                         {QStringLiteral("not_found"), 404},
                                         {QStringLiteral("already_exists"), 409},
                                         {QStringLiteral("permission_denied"), 403},
                                         {QStringLiteral("resource_exhausted"), 429},
                                         {QStringLiteral("failed_precondition"), 400},
                                         {QStringLiteral("aborted"), 409},
                                         {QStringLiteral("out_of_range"), 400},
                                         {QStringLiteral("unimplemented"), 501},
                                         {QStringLiteral("internal"), 500},
                                         {QStringLiteral("unavailable"), 503},
                                         {QStringLiteral("data_loss"), 500},
                                         {QStringLiteral("unauthenticated"), 401}};
    return map.value(code, 500);
}

bool isStreamingRequest(const Request &request)
{
    return request.mediaType().startsWith("application/connect+");
}

bool readMessage(const Request &request, QJsonObject *out, QString *error)
{
    QByteArray body = request.readBody();
    const QByteArray type = request.mediaType();
    if (type == "application/connect+json") {
        if (body.size() < 5) {
            *error = QStringLiteral("streaming request without an envelope");
            return false;
        }
        const quint32 size = qFromBigEndian<quint32>(body.constData() + 1);
        if (static_cast<quint32>(body.size() - 5) < size) {
            *error = QStringLiteral("truncated envelope");
            return false;
        }
        if (body.at(0) & 0x01) {
            *error = QStringLiteral("compressed envelopes are not supported");
            return false;
        }
        body = body.mid(5, size);
    } else if (type != "application/json") {
        *error = QStringLiteral("unsupported content type %1").arg(QString::fromLatin1(type));
        return false;
    }
    if (body.trimmed().isEmpty()) {
        *out = {};
        return true;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (!doc.isObject()) {
        *error = QStringLiteral("invalid JSON message: %1").arg(parseError.errorString());
        return false;
    }
    *out = doc.object();
    return true;
}

void sendUnary(Responder *responder, const QJsonObject &message)
{
    responder->sendJson(200, message);
}

void sendError(Responder *responder, const QString &code, const QString &message)
{
    responder->sendJson(httpStatus(code),
                        QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}});
}

void beginStream(Responder *responder)
{
    responder->begin(200, {{"Content-Type", "application/connect+json"}});
}

void writeMessage(Responder *responder, const QJsonObject &message)
{
    responder->write(envelope(message));
}

void endStream(Responder *responder, const QString &code, const QString &message)
{
    if (!responder->isStreaming())
        beginStream(responder);
    responder->write(endStreamEnvelope(code, message));
    responder->end();
}

} // namespace contract::connectrpc
