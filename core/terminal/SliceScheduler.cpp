#include "terminal/SliceScheduler.h"

#include "terminal/PtyChannel.h"
#include "terminal/TerminalScreen.h"

#include <QElapsedTimer>
#include <QScopedValueRollback>
#include <algorithm>
#include <memory>

namespace sandbar {

SliceScheduler *SliceScheduler::forCurrentThread()
{
    static thread_local std::unique_ptr<SliceScheduler> scheduler;
    if (!scheduler)
        scheduler.reset(new SliceScheduler);
    return scheduler.get();
}

SliceScheduler::SliceScheduler()
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, &SliceScheduler::tick);
    m_clock.start();
}

void SliceScheduler::expectEcho(TerminalScreen *screen)
{
    const qint64 until = m_clock.nsecsElapsed() + EchoWaitNs;
    for (auto &e : m_echoes) {
        if (e.first == screen) {
            e.second = until;
            return;
        }
    }
    m_echoes.emplace_back(screen, until);
}

void SliceScheduler::forgetEcho(TerminalScreen *screen)
{
    std::erase_if(m_echoes, [screen](const auto &e) { return e.first == screen; });
}

void SliceScheduler::pullEchoes()
{
    // A delivery parses at once or queues; either way it can come back here through feed().
    if (m_echoes.empty() || m_pulling)
        return;
    const QScopedValueRollback<bool> pulling(m_pulling, true);
    const qint64 now = m_clock.nsecsElapsed();
    std::erase_if(m_echoes, [now](const auto &e) { return e.second < now; });
    // By index and on a copy: a delivery may make a screen expect another echo (a terminal
    // answering a query) or delete one.
    const auto waiting = m_echoes;
    for (const auto &e : waiting) {
        if (std::find(m_echoes.begin(), m_echoes.end(), e) == m_echoes.end())
            continue;
        if (PtyChannel *channel = e.first->channel(); channel && e.first->pendingBytes() == 0)
            channel->deliverNow();
    }
}

void SliceScheduler::slice(TerminalScreen *screen)
{
    if (m_echoes.empty())
        return screen->processSlice();
    // Someone waits for an echo: the slice in pieces, the echo fetched between them.
    qsizetype left = screen->sliceBytes();
    while (left > 0 && screen->pendingBytes() > 0) {
        const qsizetype piece = std::min(left, EchoPieceBytes);
        screen->processSlice(piece);
        left -= piece;
        pullEchoes();
        // A delivery's slot may have deleted the screen (remove() left a null in its place).
        if (std::find(m_screens.begin(), m_screens.end(), screen) == m_screens.end())
            return;
        if (m_echoes.empty())
            break;
    }
    if (left > 0 && screen->pendingBytes() > 0)
        screen->processSlice(left);
}

void SliceScheduler::add(TerminalScreen *screen)
{
    if (std::find(m_screens.begin(), m_screens.end(), screen) != m_screens.end())
        return;
    m_screens.push_back(screen);
    // A tick restarts the timer itself when it ends.
    if (!m_ticking && m_screens.size() == 1)
        m_timer.start();
}

void SliceScheduler::remove(TerminalScreen *screen)
{
    const auto it = std::find(m_screens.begin(), m_screens.end(), screen);
    if (it == m_screens.end())
        return;
    if (m_ticking) {
        *it = nullptr; // the tick walks the list by index
        return;
    }
    m_screens.erase(it);
    if (m_screens.empty())
        m_timer.stop();
}

void SliceScheduler::tick()
{
    m_ticking = true;
    ++m_ticks;
    QElapsedTimer clock;
    clock.start();
    // Screens added meanwhile (by a slot on a slice's signals) wait for the next tick.
    const size_t n = m_screens.size();
    std::vector<char> served(n, 0);
    // Someone is likely waiting for a few bytes (a key's echo): they need not wait for floods.
    for (size_t i = 0; i < n; ++i) {
        if (TerminalScreen *s = m_screens[i]; s && s->pendingBytes() <= InteractiveBytes) {
            served[i] = 1;
            s->processSlice();
        }
    }
    bool sliced = false;
    for (size_t i = 0; i < n; ++i) {
        TerminalScreen *s = m_screens[i];
        if (!s || served[i])
            continue;
        if (sliced && clock.nsecsElapsed() > TickBudgetNs)
            break;
        served[i] = 1;
        sliced = true;
        slice(s);
    }
    // The next tick's order: the floods this one did not reach, then the others.
    std::vector<TerminalScreen *> next;
    next.reserve(m_screens.size());
    for (size_t i = 0; i < n; ++i) {
        if (m_screens[i] && !served[i])
            next.push_back(m_screens[i]);
    }
    for (size_t i = 0; i < m_screens.size(); ++i) {
        if (m_screens[i] && (i >= n || served[i]))
            next.push_back(m_screens[i]);
    }
    m_screens.swap(next);
    m_ticking = false;
    if (!m_screens.empty())
        m_timer.start();
}

} // namespace sandbar
