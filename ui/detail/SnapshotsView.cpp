#include "detail/SnapshotsView.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sandbar::ui {

SnapshotsView::SnapshotsView(Provider *provider, QString sessionId, QWidget *parent)
    : QGroupBox(tr("Snapshots"), parent)
    , m_provider(provider)
    , m_sessionId(std::move(sessionId))
{
    setObjectName(QStringLiteral("snapshotsView"));
    auto *layout = new QVBoxLayout(this);
    auto *hint = new QLabel(tr("A snapshot keeps the session's files as they are now; restoring one ends what runs "
                               "in the session and puts the files back."),
                            this);
    hint->setWordWrap(true);
    layout->addWidget(hint);

    m_table = new QTableWidget(0, 3, this);
    m_table->setObjectName(QStringLiteral("snapshotsTable"));
    m_table->setAccessibleName(tr("Snapshots"));
    // A service that keeps no comment (Vercel) describes its snapshots itself.
    const bool comments = !m_provider || !m_provider->snapshots() || m_provider->snapshots()->keepsComments();
    m_table->setHorizontalHeaderLabels({tr("ID"), tr("Saved"), comments ? tr("Comment") : tr("Details")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setMinimumHeight(120);
    layout->addWidget(m_table);

    auto *row = new QHBoxLayout;
    m_comment = new QLineEdit(this);
    m_comment->setObjectName(QStringLiteral("snapshotComment"));
    m_comment->setPlaceholderText(tr("Comment (optional)"));
    m_comment->setAccessibleName(tr("Snapshot comment"));
    m_save = new QPushButton(tr("Save snapshot"), this);
    m_save->setObjectName(QStringLiteral("saveSnapshotButton"));
    m_restore = new QPushButton(tr("Restore…"), this);
    m_restore->setObjectName(QStringLiteral("restoreSnapshotButton"));
    m_restore->setEnabled(false);
    row->addWidget(m_comment, 1);
    if (!comments) {
        m_comment->hide();
        row->addStretch(1);
    }
    row->addWidget(m_save);
    row->addWidget(m_restore);
    layout->addLayout(row);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("snapshotStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    connect(m_save, &QPushButton::clicked, this, &SnapshotsView::save);
    connect(m_comment, &QLineEdit::returnPressed, this, &SnapshotsView::save);
    connect(m_restore, &QPushButton::clicked, this, &SnapshotsView::confirmRestore);
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
            [this] { m_restore->setEnabled(!m_busy && !m_table->selectedItems().isEmpty()); });
    if (m_provider)
        connect(m_provider, &Provider::snapshotProgress, this, [this](const QString &id, const QString &text) {
            if (id == m_sessionId && m_busy)
                m_status->setText(text);
        });
}

QString SnapshotsView::statusText() const
{
    return m_status->text();
}

void SnapshotsView::showEvent(QShowEvent *event)
{
    QGroupBox::showEvent(event);
    if (!m_loaded)
        reload();
}

void SnapshotsView::setBusy(bool busy, const QString &text)
{
    m_busy = busy;
    m_save->setEnabled(!busy);
    m_restore->setEnabled(!busy && !m_table->selectedItems().isEmpty());
    m_status->setText(text);
}

void SnapshotsView::fill(const QList<SnapshotEntry> &entries)
{
    m_table->setRowCount(0);
    const QLocale locale;
    for (const SnapshotEntry &e : entries) {
        const int r = m_table->rowCount();
        m_table->insertRow(r);
        m_table->setItem(r, 0, new QTableWidgetItem(e.id));
        m_table->setItem(r, 1,
                         new QTableWidgetItem(e.created.isValid()
                                                  ? locale.toString(e.created.toLocalTime(), QLocale::ShortFormat)
                                                  : QString()));
        m_table->setItem(r, 2, new QTableWidgetItem(e.comment));
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
}

void SnapshotsView::reload()
{
    SnapshotFacet *snapshots = m_provider ? m_provider->snapshots() : nullptr;
    if (!snapshots)
        return;
    m_loaded = true;
    snapshots->listSnapshots(m_sessionId, Callback<QList<SnapshotEntry>>(this, [this](Result<QList<SnapshotEntry>> r) {
                                 if (!r)
                                     return m_status->setText(
                                         tr("The snapshots could not be listed: %1").arg(r.message()));
                                 fill(r.value());
                                 if (!m_busy && r->isEmpty())
                                     m_status->setText(tr("No snapshots yet."));
                             }));
}

void SnapshotsView::save()
{
    SnapshotFacet *snapshots = m_provider ? m_provider->snapshots() : nullptr;
    if (!snapshots || m_busy)
        return;
    setBusy(true, tr("Saving a snapshot…"));
    snapshots->createSnapshot(
        m_sessionId, m_comment->text().trimmed(), Callback<SnapshotEntry>(this, [this](Result<SnapshotEntry> r) {
            setBusy(false, r ? tr("Snapshot %1 saved.").arg(r->id) : tr("The snapshot failed: %1").arg(r.message()));
            if (!r)
                return;
            m_comment->clear();
            reload();
        }));
}

void SnapshotsView::confirmRestore()
{
    const auto selected = m_table->selectedItems();
    if (selected.isEmpty() || m_busy)
        return;
    const QString id = m_table->item(selected.first()->row(), 0)->text();
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Restore snapshot"),
                                tr("Restore snapshot %1? What runs in the session ends, and files changed since the "
                                   "snapshot are lost.")
                                    .arg(id),
                                QMessageBox::Yes | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("restoreSnapshotConfirm"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDefaultButton(QMessageBox::Cancel);
    box->button(QMessageBox::Yes)->setText(tr("Restore"));
    connect(box, &QMessageBox::buttonClicked, this, [this, box](QAbstractButton *b) {
        if (box->standardButton(b) == QMessageBox::Yes)
            restoreSelected();
    });
    box->open();
}

void SnapshotsView::restoreSelected()
{
    SnapshotFacet *snapshots = m_provider ? m_provider->snapshots() : nullptr;
    const auto selected = m_table->selectedItems();
    if (!snapshots || selected.isEmpty() || m_busy)
        return;
    const QString id = m_table->item(selected.first()->row(), 0)->text();
    setBusy(true, tr("Restoring snapshot %1…").arg(id));
    snapshots->restoreSnapshot(m_sessionId, id, Callback<void>(this, [this, id](VoidResult r) {
                                   setBusy(false, r ? tr("Restored to snapshot %1.").arg(id)
                                                    : tr("Restoring failed: %1").arg(r.message()));
                               }));
}

} // namespace sandbar::ui
