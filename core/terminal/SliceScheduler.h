#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <vector>

namespace sandbar {

class TerminalScreen;

// Takes turns parsing the queued input of every TerminalScreen of a thread, so that many
// floods share the event loop instead of each taking a slice on every turn of it: with ten
// flooding terminals the UI (and an idle terminal's echo) would otherwise wait behind ten
// slices, twice (the data's delivery, then its parse).
//
// Each turn of the event loop is one tick. A tick first parses the screens with little
// queued (a typed key's echo, a prompt), then gives the others one slice each in turn until
// its time budget is spent; those it did not reach go first in the next tick. A screen never
// gets more than one slice a tick, so one slice a turn still holds for a single flood.
//
// A screen that just sent input (a key) is waiting for its echo, which would otherwise wait
// for the tick to end before its channel's delivery gets a turn of the event loop. While one
// waits, floods' slices are parsed in pieces and, between pieces, the waiting screens'
// channels are asked to deliver what they have (PtyChannel::deliverNow).
class SliceScheduler : public QObject
{
    Q_OBJECT
public:
    static SliceScheduler *forCurrentThread();

    // The screen has bytes queued; keeps its place when it is already waiting.
    void add(TerminalScreen *screen);
    void remove(TerminalScreen *screen);
    // The screen sent input; its echo is fetched between pieces of floods for EchoWaitNs.
    void expectEcho(TerminalScreen *screen);
    void forgetEcho(TerminalScreen *screen);
    // Fetches the echoes that screens wait for, if any: called between pieces of floods'
    // slices, and as each flood's delivery arrives between ticks (ten floods' deliveries
    // queued ahead of an echo's would otherwise make it wait behind all of them).
    void pullEchoes();
    // Ticks so far: tells a screen whether one ran since it last parsed at once.
    quint64 ticks() const { return m_ticks; }

    // Queued input up to this much is parsed before any flood's slice.
    static constexpr qsizetype InteractiveBytes = 4096;
    // Floods' slices stop after this much of a tick (the first always runs).
    static constexpr qint64 TickBudgetNs = 4'000'000;
    // How long after input its echo is looked for, and the piece a flood's slice is parsed
    // in meanwhile (about a millisecond of parsing on a slow machine).
    static constexpr qint64 EchoWaitNs = 250'000'000;
    static constexpr qsizetype EchoPieceBytes = 8 * 1024;

private:
    SliceScheduler();
    void tick();
    void slice(TerminalScreen *screen);

    // In turn order. While a tick runs, a removed screen leaves a null in its place.
    std::vector<TerminalScreen *> m_screens;
    bool m_ticking = false;
    bool m_pulling = false;
    quint64 m_ticks = 0;
    QTimer m_timer;
    // Screens waiting for an echo, with when they stop waiting (on m_clock).
    std::vector<std::pair<TerminalScreen *, qint64>> m_echoes;
    QElapsedTimer m_clock;
};

} // namespace sandbar
