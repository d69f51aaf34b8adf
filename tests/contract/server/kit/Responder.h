#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>

class QFile;
class QTcpSocket;

namespace contract {

class Connection;
using Headers = QList<QPair<QByteArray, QByteArray>>;

// The answer to one request. Handlers may answer at once or later (keep a
// QPointer<Responder>; it is deleted after end() or when the client goes away, after
// clientGone()). Exactly one of send()/sendJson()/sendFile()/begin()+end() per request.
class Responder : public QObject
{
    Q_OBJECT
public:
    // What a fault rule does to this response (set by the server before the handler runs).
    enum class Mode { Normal, LostReply, Reset, Truncate };

    Responder(Connection *connection, QByteArray method, bool keepAlive);
    ~Responder() override;

    void send(int status, const Headers &headers, const QByteArray &body);
    void sendJson(int status, const QJsonObject &body, const Headers &headers = {});
    void sendJson(int status, const QJsonArray &body, const Headers &headers = {});
    void sendText(int status, const QByteArray &text);
    // Streams a file with back-pressure (reads more only when the socket drained); the
    // file is opened here; 404 if it cannot be.
    void sendFile(const QString &path, const QByteArray &contentType = "application/octet-stream",
                  const Headers &headers = {});
    // A chunked response: begin(), any number of write(), then end().
    void begin(int status, const Headers &headers);
    void write(const QByteArray &chunk);
    void end();
    // Aborts the TCP connection without an answer (fault injection).
    void reset();

    bool isFinished() const { return m_finished; }
    bool isStreaming() const { return m_streaming; }
    bool isClientGone() const { return m_gone; }
    // Bytes queued to the socket and not yet written (for producers that want back-pressure).
    qint64 pendingBytes() const;

    void setMode(Mode mode, qint64 afterBytes = 0);
    Mode mode() const { return m_mode; }

    static QByteArray reasonPhrase(int status);

Q_SIGNALS:
    // The client closed or reset the connection before the response was finished.
    void clientGone();
    // The socket wrote everything queued (for streaming producers).
    void drained();

private:
    friend class Connection;
    void markGone();
    void onBytesWritten();
    void pumpFile();
    void writeRaw(const QByteArray &bytes);
    void finish(bool close);
    QByteArray head(int status, Headers headers, qint64 contentLength, bool chunked) const;

    QPointer<Connection> m_connection;
    QByteArray m_method;
    bool m_keepAlive = true;
    bool m_finished = false;
    bool m_streaming = false;
    bool m_gone = false;
    Mode m_mode = Mode::Normal;
    qint64 m_faultAfter = 0;
    qint64 m_bodyWritten = 0;
    QFile *m_file = nullptr;
};

} // namespace contract
