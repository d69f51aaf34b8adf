#pragma once

#include <QByteArray>
#include <QObject>
#include <QSize>
#include <memory>

namespace sandbar::cli {

// What sandbarctl needs from the terminal (console) it runs in, apart from the operating
// system: this header is platform-neutral, each platform's variant lives in a folder of its
// own (posix/ConsoleTerminal.cpp: termios, SIGWINCH, signals through a self-pipe; a Windows
// one would use SetConsoleMode, WINDOW_BUFFER_SIZE_EVENT and SetConsoleCtrlHandler).

// The calling terminal in raw mode (no echo, no line editing, no signal keys: every byte goes
// to the remote program) for the life of the object; nothing when stdin is not a terminal.
class ConsoleRawMode
{
public:
    ConsoleRawMode();
    ~ConsoleRawMode();
    ConsoleRawMode(const ConsoleRawMode &) = delete;
    ConsoleRawMode &operator=(const ConsoleRawMode &) = delete;

private:
    struct Saved;
    std::unique_ptr<Saved> m_saved;
};

// The calling terminal's size in columns and rows; 80x24 when stdout is not a terminal.
QSize consoleSize();

// Stop requests and size changes, delivered in the event loop.
class ConsoleEvents : public QObject
{
    Q_OBJECT
public:
    enum Watch {
        Stop = 0x1,   // stopRequested()
        Resize = 0x2, // resized()
    };
    Q_DECLARE_FLAGS(Watches, Watch)
    // What an exit after a stop reports is 128 + the request's number (the shell's
    // convention for a program ended by a signal), so the numbers are the POSIX ones on
    // every platform.
    enum StopRequest {
        HangUp = 1,     // the terminal went away
        Interrupt = 2,  // Ctrl-C
        Terminate = 15, // asked to end (kill, shutdown)
    };

    explicit ConsoleEvents(Watches watches, QObject *parent = nullptr);
    ~ConsoleEvents() override;

Q_SIGNALS:
    void stopRequested(int request);
    void resized();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

// This process's stdin, read without blocking the event loop.
class ConsoleInput : public QObject
{
    Q_OBJECT
public:
    explicit ConsoleInput(QObject *parent = nullptr);
    ~ConsoleInput() override;

Q_SIGNALS:
    void data(const QByteArray &bytes);
    void closed(); // end of input, or it could no longer be read

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace sandbar::cli

Q_DECLARE_OPERATORS_FOR_FLAGS(sandbar::cli::ConsoleEvents::Watches)
