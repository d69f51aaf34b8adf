#include "audit/AuditView.h"

#include "audit/AuditCsv.h"
#include "audit/AuditModel.h"
#include "common/OffThread.h"

#include <QComboBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>

namespace sandbar::ui {

namespace {

constexpr int SearchDebounceMs = 200;

QComboBox *makeCombo(QWidget *parent, const QString &objectName, const QString &accessibleName)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(objectName);
    combo->setAccessibleName(accessibleName);
    combo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    return combo;
}

} // namespace

AuditView::AuditView(audit::AuditLog *log, QWidget *parent)
    : QWidget(parent)
    , m_model(new AuditModel(log, this))
{
    setObjectName(QStringLiteral("auditView"));
    setWindowTitle(tr("Audit log"));

    buildFilters();

    m_export = new QPushButton(tr("Export CSV…"), this);
    m_export->setObjectName(QStringLiteral("auditExport"));
    m_export->setAccessibleName(tr("Export the rows shown as CSV"));

    buildTable();

    m_detail = new QPlainTextEdit(this);
    m_detail->setObjectName(QStringLiteral("auditDetail"));
    m_detail->setAccessibleName(tr("Selected entry"));
    m_detail->setReadOnly(true);
    m_detail->setPlaceholderText(tr("Select an entry to see all of it."));
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("auditStatus"));

    layOut();
    connectFilters();
    connectModel();

    updateRangeEditors();
    applyFilter();
}

void AuditView::buildFilters()
{
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("auditSearch"));
    m_search->setAccessibleName(tr("Search the audit log"));
    m_search->setPlaceholderText(tr("Search commands, paths, errors…"));
    m_search->setClearButtonEnabled(true);

    m_account = makeCombo(this, QStringLiteral("auditAccount"), tr("Account filter"));
    m_account->addItem(tr("All accounts"), QString());

    m_session = new QLineEdit(this);
    m_session->setObjectName(QStringLiteral("auditSession"));
    m_session->setAccessibleName(tr("Session filter"));
    m_session->setPlaceholderText(tr("Session ID"));
    m_session->setClearButtonEnabled(true);

    m_action = makeCombo(this, QStringLiteral("auditAction"), tr("Action filter"));
    m_action->addItem(tr("All actions"), QString());
    for (auto a : audit::allActions())
        m_action->addItem(audit::actionName(a), audit::actionName(a));

    m_outcome = makeCombo(this, QStringLiteral("auditOutcome"), tr("Outcome filter"));
    m_outcome->addItem(tr("All outcomes"), int(Outcome::All));
    m_outcome->addItem(tr("OK"), int(Outcome::Ok));
    m_outcome->addItem(tr("Failed"), int(Outcome::Failed));

    m_range = makeCombo(this, QStringLiteral("auditRange"), tr("Time range"));
    m_range->addItem(tr("Last hour"), int(Range::LastHour));
    m_range->addItem(tr("Last 24 hours"), int(Range::LastDay));
    m_range->addItem(tr("Last 7 days"), int(Range::LastWeek));
    m_range->addItem(tr("All time"), int(Range::All));
    m_range->addItem(tr("Custom…"), int(Range::Custom));
    m_range->setCurrentIndex(m_range->findData(int(Range::All)));

    const QDateTime now = QDateTime::currentDateTime();
    m_from = new QDateTimeEdit(now.addDays(-1), this);
    m_from->setObjectName(QStringLiteral("auditFrom"));
    m_from->setAccessibleName(tr("From"));
    m_from->setCalendarPopup(true);
    m_from->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
    m_to = new QDateTimeEdit(now.addSecs(3600), this);
    m_to->setObjectName(QStringLiteral("auditTo"));
    m_to->setAccessibleName(tr("Until"));
    m_to->setCalendarPopup(true);
    m_to->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
}

void AuditView::buildTable()
{
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("auditTable"));
    m_table->setAccessibleName(tr("Audit entries"));
    m_table->setModel(m_model);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(AuditModel::TimeColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // Wide enough for a typical cell; the detail column takes the rest.
    const QFontMetrics fm = m_table->fontMetrics();
    const QString samples[] = {QStringLiteral("2026-12-31 23:59:59"),
                               QStringLiteral("local-docker-2"),
                               QStringLiteral("provider"),
                               QStringLiteral("0123456789ab"),
                               QStringLiteral("session.adopted"),
                               QStringLiteral("unavailable: engine")};
    for (int c = 0; c < int(std::size(samples)); ++c)
        m_table->setColumnWidth(c, fm.horizontalAdvance(samples[c]) + 3 * fm.averageCharWidth());
}

void AuditView::layOut()
{
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_search, 3);
    filters->addWidget(m_account);
    filters->addWidget(m_session, 1);
    filters->addWidget(m_action);
    filters->addWidget(m_outcome);
    filters->addWidget(m_range);
    filters->addWidget(m_from);
    filters->addWidget(m_to);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(split, 1);
    layout->addLayout(bottom);
}

void AuditView::connectFilters()
{
    // Typing waits for a pause; each keystroke would otherwise start a scan of the log.
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(SearchDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &AuditView::applyFilter);
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_debounce.start(); });
    connect(m_session, &QLineEdit::textChanged, this, [this] { m_debounce.start(); });
    for (QComboBox *combo : {m_account, m_action, m_outcome})
        connect(combo, &QComboBox::currentIndexChanged, this, &AuditView::applyFilter);
    connect(m_range, &QComboBox::currentIndexChanged, this, [this] {
        updateRangeEditors();
        applyFilter();
    });
    // Typing a date changes it once per digit.
    connect(m_from, &QDateTimeEdit::dateTimeChanged, this, [this] { m_debounce.start(); });
    connect(m_to, &QDateTimeEdit::dateTimeChanged, this, [this] { m_debounce.start(); });
    connect(m_export, &QPushButton::clicked, this, &AuditView::chooseExportFile);
}

void AuditView::connectModel()
{
    connect(m_model, &AuditModel::accountsChanged, this, &AuditView::updateAccounts);
    connect(m_model, &AuditModel::loadingChanged, this, &AuditView::updateStatus);
    // A reload (a new filter or a live refresh) resets the model: keep the selected
    // entry selected when it is still among the rows.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        const int row = m_model->rowOfId(m_selectedId);
        if (row >= 0)
            m_table->selectRow(row);
        showSelected();
        updateStatus();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        m_selectedId = rows.isEmpty() ? -1 : m_model->entry(rows.first().row()).id;
        showSelected();
    });
}

audit::AuditQuery AuditView::currentQuery(const QDateTime &now) const
{
    audit::AuditQuery q;
    q.text = m_search->text().trimmed();
    q.account = m_account->currentData().toString();
    q.sessionId = m_session->text().trimmed();
    q.action = m_action->currentData().toString();
    switch (Outcome(m_outcome->currentData().toInt())) {
    case Outcome::Ok: q.ok = true; break;
    case Outcome::Failed: q.ok = false; break;
    case Outcome::All: break;
    }
    switch (Range(m_range->currentData().toInt())) {
    case Range::LastHour: q.since = now.addSecs(-3600); break;
    case Range::LastDay: q.since = now.addDays(-1); break;
    case Range::LastWeek: q.since = now.addDays(-7); break;
    case Range::All: break;
    case Range::Custom:
        q.since = m_from->dateTime().toUTC();
        q.until = m_to->dateTime().toUTC();
        break;
    }
    return q;
}

void AuditView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_model->setLive(true);
}

void AuditView::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_model->setLive(false);
}

QString AuditView::statusText() const
{
    return m_status->text();
}

void AuditView::applyFilter()
{
    m_debounce.stop();
    m_model->setQuery(currentQuery());
}

void AuditView::updateAccounts(const QStringList &accounts)
{
    const QString current = m_account->currentData().toString();
    const QSignalBlocker block(m_account);
    m_account->clear();
    m_account->addItem(tr("All accounts"), QString());
    for (const QString &a : accounts)
        m_account->addItem(a, a);
    // An account whose rows all fell out of the log stays selectable while chosen.
    if (!current.isEmpty() && !accounts.contains(current))
        m_account->addItem(current, current);
    m_account->setCurrentIndex(std::max(0, m_account->findData(current)));
}

void AuditView::updateRangeEditors()
{
    const bool custom = Range(m_range->currentData().toInt()) == Range::Custom;
    m_from->setVisible(custom);
    m_to->setVisible(custom);
}

void AuditView::showSelected()
{
    const int row = m_model->rowOfId(m_selectedId);
    if (row < 0) {
        m_detail->clear();
        return;
    }
    const QString text = QString::fromUtf8(QJsonDocument(audit::entryToJson(m_model->entry(row))).toJson());
    if (m_detail->toPlainText() != text)
        m_detail->setPlainText(text);
}

void AuditView::updateStatus()
{
    QString text = m_model->isLoading() && m_model->rowCount() == 0 ? tr("Loading…") : m_model->statusText();
    if (!m_exportNote.isEmpty())
        text += QStringLiteral(" — ") + m_exportNote;
    m_status->setText(text);
}

void AuditView::chooseExportFile()
{
    auto *dialog =
        new QFileDialog(this, tr("Export audit log"), QDir::home().filePath(QStringLiteral("sandbar-audit.csv")),
                        tr("CSV files (*.csv);;All files (*)"));
    dialog->setObjectName(QStringLiteral("auditExportDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setFileMode(QFileDialog::AnyFile);
    dialog->setDefaultSuffix(QStringLiteral("csv"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &AuditView::exportCsv);
    dialog->open();
}

void AuditView::exportCsv(const QString &path)
{
    // Encoding 5,000 rows takes milliseconds; the disk may take longer (a network home).
    const QByteArray bytes = auditCsv(m_model->entries());
    const int rows = m_model->rowCount();
    runOffThread<QString>(
        this,
        [path, bytes] {
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
                return file.errorString().isEmpty() ? AuditView::tr("could not write the file") : file.errorString();
            return QString();
        },
        [this, path, rows](QString error) {
            m_exportNote = error.isEmpty()
                               ? tr("exported %n rows to %1", nullptr, rows).arg(QDir::toNativeSeparators(path))
                               : tr("export failed: %1").arg(error);
            updateStatus();
            Q_EMIT exportFinished(path, error);
        });
}

} // namespace sandbar::ui
