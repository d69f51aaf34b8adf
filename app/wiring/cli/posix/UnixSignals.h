#pragma once

#include <QObject>

class QSocketNotifier;

namespace sandbar::cli {

// Turns POSIX signals into a Qt signal through a self-pipe, so handlers run in the event
// loop and not in signal context. The POSIX part of ConsoleEvents (ConsoleTerminal.h); the
// rest of sandbarctl uses that.
class UnixSignals : public QObject
{
    Q_OBJECT
public:
    explicit UnixSignals(const QList<int> &signals, QObject *parent = nullptr);
    ~UnixSignals() override;

Q_SIGNALS:
    void raised(int signal);

private:
    QSocketNotifier *m_notifier = nullptr;
    QList<int> m_signals;
};

} // namespace sandbar::cli
