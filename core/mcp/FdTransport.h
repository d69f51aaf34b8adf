#pragma once

#include "mcp/JsonRpc.h"

#include <QByteArray>
#include <QJsonValue>
#include <QObject>
#include <QSocketNotifier>

namespace sandbar::mcp {

// MCP's stdio transport on two file descriptors (stdin and stdout, or a pipe pair in tests),
// on the event loop: reads whenever input is there, writes without blocking and keeps what a
// slow reader has not taken yet, so a long call never stops other requests being answered and
// a full pipe never cuts a message short. The write descriptor is made non-blocking while this
// object lives and restored after.
class FdTransport : public QObject
{
    Q_OBJECT
public:
    // maxLine: the longest message kept (LineSplitter); longer ones arrive as oversized lines.
    FdTransport(int readFd, int writeFd, qsizetype maxLine, QObject *parent = nullptr);
    ~FdTransport() override;

    void start();
    void send(const QByteArray &bytes);
    // Bytes queued that the reader has not taken yet.
    qsizetype pendingOutput() const { return m_out.size() - m_outOffset; }
    bool outputClosed() const { return m_outputClosed; }

    // While this much output waits, input is not read: a client that sends requests without
    // reading answers is slowed down instead of growing the queue without bound.
    static constexpr qsizetype kReadPauseOutput = 16 * 1024 * 1024;

Q_SIGNALS:
    void lineReceived(const QByteArray &line);
    // id: the request's, when its edges show it (idOfOversized), else null.
    void oversizedLine(qsizetype size, qsizetype limit, const QJsonValue &id);
    void inputClosed();
    // Everything queued was written, or can no longer be (the reader closed its end).
    void drained();

private:
    void readSome();
    void writeSome();
    void updateReading();

    int m_readFd;
    int m_writeFd;
    int m_savedWriteFlags = -1;
    qsizetype m_maxLine;
    LineSplitter m_splitter;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    QByteArray m_out;
    qsizetype m_outOffset = 0;
    bool m_inputClosed = false;
    bool m_outputClosed = false;
};

} // namespace sandbar::mcp
