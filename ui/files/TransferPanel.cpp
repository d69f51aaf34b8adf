#include "files/TransferPanel.h"

#include "files/TransferQueue.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {
constexpr int kBarRange = 1000;

void setProgress(QProgressBar *bar, qint64 done, qint64 total)
{
    if (total <= 0) {
        // Unknown size: busy while moving, full once there is nothing to move.
        bar->setRange(0, total == 0 ? 1 : 0);
        bar->setValue(total == 0 ? 1 : 0);
        return;
    }
    bar->setRange(0, kBarRange);
    bar->setValue(int(std::min<qint64>(kBarRange, done * kBarRange / total)));
}
} // namespace

TransferPanel::TransferPanel(TransferQueue *queue, QWidget *parent)
    : QWidget(parent)
    , m_queue(queue)
    , m_rows(new QVBoxLayout)
    , m_overall(new QProgressBar(this))
    , m_summary(new QLabel(this))
    , m_cancelAll(new QPushButton(tr("Cancel all"), this))
    , m_clear(new QPushButton(tr("Clear finished"), this))
    , m_tick(new QTimer(this))
{
    setObjectName(QStringLiteral("transferPanel"));
    setAccessibleName(tr("Transfers"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    m_overall->setObjectName(QStringLiteral("overallProgress"));
    m_overall->setAccessibleName(tr("Overall transfer progress"));
    m_overall->setTextVisible(true);
    m_summary->setObjectName(QStringLiteral("transferSummary"));
    m_summary->setAccessibleName(tr("Transfer speed and time left"));
    m_cancelAll->setObjectName(QStringLiteral("transferCancelAll"));
    m_cancelAll->setAccessibleName(tr("Cancel all transfers"));
    m_clear->setObjectName(QStringLiteral("transferClearFinished"));
    m_clear->setAccessibleName(tr("Clear finished transfers"));
    top->addWidget(m_overall, 1);
    top->addWidget(m_summary);
    top->addWidget(m_cancelAll);
    top->addWidget(m_clear);
    layout->addLayout(top);

    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *inner = new QWidget(scroll);
    inner->setLayout(m_rows);
    m_rows->setContentsMargins(0, 0, 0, 0);
    m_rows->setSpacing(2);
    m_rows->addStretch(1);
    scroll->setWidget(inner);
    layout->addWidget(scroll, 1);

    connect(m_cancelAll, &QPushButton::clicked, this, [this]() {
        if (m_queue)
            m_queue->cancelAll();
    });
    connect(m_clear, &QPushButton::clicked, this, [this]() {
        if (m_queue)
            m_queue->clearFinished();
    });
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &TransferPanel::updateOverall);
    if (queue) {
        connect(queue, &TransferQueue::itemAdded, this, &TransferPanel::addRow);
        connect(queue, &TransferQueue::itemChanged, this, &TransferPanel::updateRow);
        connect(queue, &TransferQueue::itemRemoved, this, &TransferPanel::removeRow);
        connect(queue, &TransferQueue::progressChanged, this, &TransferPanel::updateOverall);
        for (const auto &item : queue->items())
            addRow(item.id);
    }
    updateOverall();
}

QString TransferPanel::speedText(double bytesPerSecond)
{
    return tr("%1 MiB/s").arg(QLocale().toString(bytesPerSecond / (1024.0 * 1024.0), 'f', 1));
}

QString TransferPanel::timeLeftText(qint64 seconds)
{
    if (seconds < 0)
        return {};
    const QString clock = seconds >= 3600
                              ? QStringLiteral("%1:%2:%3")
                                    .arg(seconds / 3600)
                                    .arg((seconds / 60) % 60, 2, 10, QLatin1Char('0'))
                                    .arg(seconds % 60, 2, 10, QLatin1Char('0'))
                              : QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    return tr("%1 left").arg(clock);
}

QString TransferPanel::summaryText() const
{
    return m_summary->text();
}

void TransferPanel::addRow(int id)
{
    if (m_rowsById.contains(id) || !m_queue)
        return;
    Row row;
    row.widget = new QWidget(this);
    row.widget->setObjectName(QStringLiteral("transferRow%1").arg(id));
    auto *h = new QHBoxLayout(row.widget);
    h->setContentsMargins(4, 0, 4, 0);
    row.name = new QLabel(row.widget);
    row.name->setTextFormat(Qt::PlainText);
    row.name->setMinimumWidth(120);
    row.bar = new QProgressBar(row.widget);
    row.bar->setMaximumHeight(14);
    row.bar->setTextVisible(false);
    row.status = new QLabel(row.widget);
    row.status->setTextFormat(Qt::PlainText);
    row.status->setObjectName(QStringLiteral("transferStatus"));
    row.cancel = new QPushButton(tr("Cancel"), row.widget);
    row.cancel->setObjectName(QStringLiteral("transferCancel"));
    h->addWidget(row.name, 2);
    h->addWidget(row.bar, 2);
    h->addWidget(row.status, 2);
    h->addWidget(row.cancel);
    connect(row.cancel, &QPushButton::clicked, this, [this, id]() {
        if (m_queue)
            m_queue->cancel(id);
    });
    m_rows->insertWidget(m_rows->count() - 1, row.widget);
    m_rowsById.insert(id, row);
    updateRow(id);
}

void TransferPanel::updateRow(int id)
{
    const auto item = m_queue ? m_queue->item(id) : std::nullopt;
    const auto it = m_rowsById.constFind(id);
    if (!item || it == m_rowsById.constEnd())
        return;
    const Row &row = *it;
    const bool up = item->direction == TransferQueue::Direction::Upload;
    row.name->setText((up ? QStringLiteral("↑ ") : QStringLiteral("↓ ")) + item->name);
    row.name->setToolTip(item->target.isEmpty() ? item->destination : item->target);
    row.bar->setAccessibleName(tr("Progress of %1").arg(item->name));
    row.cancel->setAccessibleName(tr("Cancel %1").arg(item->name));
    row.cancel->setEnabled(!item->isFinished());
    QString status;
    switch (item->state) {
    case TransferQueue::State::Failed: status = tr("Failed: %1").arg(item->error); break;
    case TransferQueue::State::Running:
        status = item->awaitingAnswer
                     ? tr("Name exists: waiting for your answer")
                     : tr("%1 of %2")
                           .arg(QLocale().formattedDataSize(item->doneBytes),
                                item->totalBytes < 0 ? tr("unknown") : QLocale().formattedDataSize(item->totalBytes));
        break;
    case TransferQueue::State::Done:
        status = item->target.isEmpty() || item->target.endsWith(QLatin1Char('/') + item->name)
                     ? tr("Done")
                     : tr("Done as %1").arg(item->target.section(QLatin1Char('/'), -1));
        break;
    default: status = transferStateName(item->state);
    }
    row.status->setText(status);
    row.status->setToolTip(item->error);
    row.status->setAccessibleName(tr("Status of %1").arg(item->name));
    if (item->state == TransferQueue::State::Done)
        setProgress(row.bar, 1, 1);
    else if (item->state == TransferQueue::State::Queued || item->isFinished())
        setProgress(row.bar, 0, std::max<qint64>(1, item->totalBytes));
    else
        setProgress(row.bar, item->doneBytes, item->totalBytes);
}

void TransferPanel::removeRow(int id)
{
    const Row row = m_rowsById.take(id);
    if (row.widget)
        row.widget->deleteLater();
}

void TransferPanel::updateOverall()
{
    if (!m_queue)
        return;
    const bool idle = m_queue->isIdle();
    const qint64 total = m_queue->totalBytes();
    const qint64 done = m_queue->doneBytes();
    setProgress(m_overall, done, idle && total < 0 ? 0 : total);
    m_overall->setFormat(
        total > 0 ? QStringLiteral("%1 / %2").arg(QLocale().formattedDataSize(done), QLocale().formattedDataSize(total))
                  : QString());
    QString summary;
    if (!idle) {
        summary = speedText(m_queue->bytesPerSecond());
        const QString left = timeLeftText(m_queue->secondsLeft());
        if (!left.isEmpty())
            summary += QStringLiteral(" · ") + left;
    } else if (!m_queue->items().isEmpty()) {
        summary = tr("Finished");
    }
    m_summary->setText(summary);
    m_cancelAll->setEnabled(!idle);
    if (idle)
        m_tick->stop();
    else if (!m_tick->isActive())
        m_tick->start();
    bool anyFinished = false;
    for (const auto &item : m_queue->items())
        anyFinished = anyFinished || item.isFinished();
    m_clear->setEnabled(anyFinished);
}

} // namespace sandbar::ui
