#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

namespace sandbar::docker {

// Reads the JSON-lines stream of POST /images/create (one object a line: status, id,
// progressDetail{current,total}, error) into one overall figure for people. Pure: bytes in,
// numbers out, so that recorded streams can be replayed in tests. Lines that are empty,
// truncated or not JSON are ignored: a progress display must never fail a pull.
class PullProgress
{
public:
    // Bytes as they arrive; a line may be split across calls.
    void feed(const QByteArray &bytes);
    // One complete line.
    void feedLine(const QByteArray &line);

    // Overall bytes downloaded and expected over the layers seen so far; done never goes
    // back, and reaches total once the engine reports the image complete.
    qint64 done() const { return m_done; }
    qint64 total() const { return m_total; }
    // 0..100, never decreasing; 100 once the stream says the image is there.
    int percent() const { return m_percent; }
    bool finished() const { return m_finished; }
    QString error() const { return m_error; }
    // "Pulling image… 45% (120 MiB of 266 MiB)", or the engine's last status before sizes are known.
    QString text() const;

private:
    // Translates in the context lupdate gives this class's tr() calls, "sandbar::docker::PullProgress".
    static QString tr(const char *text);

    struct Layer {
        qint64 current = 0;
        qint64 total = 0;
        bool complete = false;
    };
    void recompute();

    QByteArray m_buffer;
    QHash<QString, Layer> m_layers;
    QStringList m_order;
    QString m_lastStatus;
    QString m_error;
    qint64 m_done = 0;
    qint64 m_total = 0;
    int m_percent = 0;
    bool m_finished = false;
};

// "120 MiB", "3.4 GiB", "512 B": sizes in pull progress and the New session dialog.
QString formatPullBytes(qint64 bytes);

} // namespace sandbar::docker
