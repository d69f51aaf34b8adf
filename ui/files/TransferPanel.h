#pragma once

#include <QHash>
#include <QPointer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;
class QVBoxLayout;

namespace sandbar::ui {

class TransferQueue;

// The queue as rows (name, progress, status or error, cancel) under an overall bar with the
// speed and the time left.
class TransferPanel : public QWidget
{
    Q_OBJECT
public:
    explicit TransferPanel(TransferQueue *queue, QWidget *parent = nullptr);

    // "12.5 MiB/s · 0:42 left" (what the overall line shows), for tests.
    QString summaryText() const;
    static QString speedText(double bytesPerSecond);
    static QString timeLeftText(qint64 seconds);

private:
    struct Row {
        QWidget *widget = nullptr;
        QLabel *name = nullptr;
        QProgressBar *bar = nullptr;
        QLabel *status = nullptr;
        QPushButton *cancel = nullptr;
    };
    void addRow(int id);
    void updateRow(int id);
    void removeRow(int id);
    void updateOverall();

    QPointer<TransferQueue> m_queue;
    QVBoxLayout *m_rows;
    QProgressBar *m_overall;
    QLabel *m_summary;
    QPushButton *m_cancelAll;
    QPushButton *m_clear;
    QTimer *m_tick; // the speed falls while nothing arrives
    QHash<int, Row> m_rowsById;
};

} // namespace sandbar::ui
