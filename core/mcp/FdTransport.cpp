#include "mcp/FdTransport.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace sandbar::mcp {

FdTransport::FdTransport(int readFd, int writeFd, qsizetype maxLine, QObject *parent)
    : QObject(parent)
    , m_readFd(readFd)
    , m_writeFd(writeFd)
    , m_maxLine(maxLine)
    , m_splitter(maxLine)
{
    m_savedWriteFlags = ::fcntl(m_writeFd, F_GETFL);
    if (m_savedWriteFlags >= 0)
        ::fcntl(m_writeFd, F_SETFL, m_savedWriteFlags | O_NONBLOCK);
}

FdTransport::~FdTransport()
{
    // The descriptor's flags are shared with whoever else holds it (a terminal, the parent).
    if (m_savedWriteFlags >= 0)
        ::fcntl(m_writeFd, F_SETFL, m_savedWriteFlags);
}

void FdTransport::start()
{
    m_readNotifier = new QSocketNotifier(m_readFd, QSocketNotifier::Read, this);
    connect(m_readNotifier, &QSocketNotifier::activated, this, [this] { readSome(); });
    m_writeNotifier = new QSocketNotifier(m_writeFd, QSocketNotifier::Write, this);
    m_writeNotifier->setEnabled(false);
    connect(m_writeNotifier, &QSocketNotifier::activated, this, [this] { writeSome(); });
}

void FdTransport::readSome()
{
    char buf[64 * 1024];
    const ssize_t n = ::read(m_readFd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
        return;
    if (n <= 0) {
        m_inputClosed = true;
        m_readNotifier->setEnabled(false);
        for (const auto &line : m_splitter.finish()) {
            if (line.oversized)
                Q_EMIT oversizedLine(line.size, m_maxLine, idOfOversized(line.head, line.tail));
            else
                Q_EMIT lineReceived(line.bytes);
        }
        Q_EMIT inputClosed();
        return;
    }
    for (const auto &line : m_splitter.feed(QByteArrayView(buf, n))) {
        if (line.oversized)
            Q_EMIT oversizedLine(line.size, m_maxLine, idOfOversized(line.head, line.tail));
        else
            Q_EMIT lineReceived(line.bytes);
    }
    updateReading();
}

void FdTransport::send(const QByteArray &bytes)
{
    if (m_outputClosed)
        return;
    m_out.append(bytes);
    writeSome();
}

void FdTransport::writeSome()
{
    while (pendingOutput() > 0) {
        const ssize_t n = ::write(m_writeFd, m_out.constData() + m_outOffset, size_t(pendingOutput()));
        if (n > 0) {
            m_outOffset += n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            // What was written goes, so a long wait does not keep every answer ever sent.
            if (m_outOffset > 1024 * 1024) {
                m_out.remove(0, m_outOffset);
                m_outOffset = 0;
            }
            if (m_writeNotifier)
                m_writeNotifier->setEnabled(true);
            updateReading();
            return;
        }
        // EPIPE and the like: nobody reads any more; what is left can never arrive.
        m_outputClosed = true;
        m_out.clear();
        m_outOffset = 0;
        break;
    }
    m_out.clear();
    m_outOffset = 0;
    if (m_writeNotifier)
        m_writeNotifier->setEnabled(false);
    updateReading();
    Q_EMIT drained();
}

void FdTransport::updateReading()
{
    if (m_readNotifier && !m_inputClosed)
        m_readNotifier->setEnabled(pendingOutput() < kReadPauseOutput);
}

} // namespace sandbar::mcp
