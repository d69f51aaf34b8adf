#include "dialogs/ListFieldEditor.h"

#include "providers/Session.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {
// Mount columns.
constexpr int kHost = 0;
constexpr int kBrowse = 1;
constexpr int kSession = 2;
constexpr int kReadOnly = 3;
} // namespace

ListFieldEditor::ListFieldEditor(const FieldDescriptor &field, QWidget *parent)
    : QWidget(parent)
    , m_field(field)
    , m_kind(field.type == FieldType::Env || field.type == FieldType::Labels ? Kind::Env
             : field.type == FieldType::Mounts                               ? Kind::Mounts
                                                                             : Kind::Plain)
    , m_table(new QTableWidget(this))
    , m_add(new QToolButton(this))
    , m_remove(new QToolButton(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // Top, not centred, when the form gives the row more height than the capped table takes.
    layout->addWidget(m_table, 1, Qt::AlignTop);
    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch();
    layout->addLayout(buttons);

    QStringList headers;
    switch (m_kind) {
    case Kind::Env: headers = {field.type == FieldType::Labels ? tr("Key") : tr("Name"), tr("Value")}; break;
    case Kind::Mounts: headers = {tr("Host folder"), QString(), tr("Session path"), tr("Read-only")}; break;
    case Kind::Plain: headers = {field.label}; break;
    }
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setTabKeyNavigation(false);
    m_table->horizontalHeader()->setStretchLastSection(m_kind != Kind::Mounts);
    if (m_kind == Kind::Mounts) {
        m_table->horizontalHeader()->setSectionResizeMode(kHost, QHeaderView::Stretch);
        m_table->horizontalHeader()->setSectionResizeMode(kBrowse, QHeaderView::ResizeToContents);
        m_table->horizontalHeader()->setSectionResizeMode(kSession, QHeaderView::Stretch);
        m_table->horizontalHeader()->setSectionResizeMode(kReadOnly, QHeaderView::ResizeToContents);
    } else if (m_kind == Kind::Env) {
        m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
        m_table->setColumnWidth(0, 160);
    }
    // Paths are long: one line each, their end (the folder's own name) kept in view.
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideLeft);
    const int rowHeight = m_table->verticalHeader()->defaultSectionSize();
    const int chrome = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    m_table->setMinimumHeight(chrome + rowHeight * 2);
    m_table->setMaximumHeight(chrome + rowHeight * 3 + rowHeight / 2);
    m_table->setAccessibleName(field.label);
    m_table->setToolTip(field.help);

    m_add->setText(tr("+"));
    m_add->setToolTip(tr("Add a row"));
    m_add->setAccessibleName(tr("Add to %1").arg(field.label));
    m_add->setObjectName(QStringLiteral("add_") + field.key);
    m_remove->setText(tr("−"));
    m_remove->setToolTip(tr("Remove the selected row"));
    m_remove->setAccessibleName(tr("Remove from %1").arg(field.label));
    m_remove->setObjectName(QStringLiteral("remove_") + field.key);
    connect(m_add, &QToolButton::clicked, this, [this]() {
        const int row = addRow();
        m_table->setCurrentCell(row, 0);
        m_table->editItem(m_table->item(row, 0));
    });
    connect(m_remove, &QToolButton::clicked, this, [this]() {
        const int row = m_table->currentRow();
        if (row >= 0)
            removeRow(row);
    });
    connect(m_table, &QTableWidget::itemChanged, this, &ListFieldEditor::changed);
}

int ListFieldEditor::insertRow(const QStringList &cells, bool readOnly)
{
    const QSignalBlocker block(m_table);
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    if (m_kind == Kind::Mounts) {
        m_table->setItem(row, kHost, new QTableWidgetItem(cells.value(0)));
        m_table->setItem(row, kSession, new QTableWidgetItem(cells.value(1)));
        auto *ro = new QTableWidgetItem;
        ro->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        ro->setCheckState(readOnly ? Qt::Checked : Qt::Unchecked);
        ro->setData(Qt::AccessibleTextRole, tr("Read-only"));
        m_table->setItem(row, kReadOnly, ro);
        auto *browse = new QPushButton(tr("Browse…"), m_table);
        browse->setAccessibleName(tr("Choose the host folder"));
        browse->setAutoDefault(false);
        m_table->setCellWidget(row, kBrowse, browse);
        connect(browse, &QPushButton::clicked, this, [this, browse]() {
            for (int r = 0; r < m_table->rowCount(); ++r) {
                if (m_table->cellWidget(r, kBrowse) == browse)
                    return this->browse(r);
            }
        });
    } else {
        for (int c = 0; c < m_table->columnCount(); ++c)
            m_table->setItem(row, c, new QTableWidgetItem(cells.value(c)));
    }
    return row;
}

int ListFieldEditor::addRow()
{
    const int row = insertRow({}, true);
    Q_EMIT changed();
    return row;
}

void ListFieldEditor::removeRow(int row)
{
    if (row < 0 || row >= m_table->rowCount())
        return;
    m_table->removeRow(row);
    Q_EMIT changed();
}

int ListFieldEditor::rowCount() const
{
    return m_table->rowCount();
}

void ListFieldEditor::browse(int row)
{
    // open(), not exec(): the dialog reports through its signal.
    auto *dlg = new QFileDialog(this, tr("Folder to share"), m_table->item(row, kHost)->text());
    dlg->setFileMode(QFileDialog::Directory);
    dlg->setOption(QFileDialog::ShowDirsOnly);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    auto *item = m_table->item(row, kHost);
    auto *session = m_table->item(row, kSession);
    connect(dlg, &QFileDialog::fileSelected, this, [this, item, session](const QString &dir) {
        item->setText(dir);
        if (session->text().isEmpty())
            session->setText(QStringLiteral("/mnt/") + QFileInfo(dir).fileName());
        Q_EMIT changed();
    });
    dlg->open();
}

QStringList ListFieldEditor::entries() const
{
    QStringList out;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const auto text = [&](int c) { return m_table->item(r, c) ? m_table->item(r, c)->text() : QString(); };
        switch (m_kind) {
        case Kind::Env:
            // An entry given without '=' stays as given, for the parser to name it.
            // A label without a value is its key alone.
            if ((m_table->item(r, 0) && m_table->item(r, 0)->data(Qt::UserRole).toBool() && text(1).isEmpty()) ||
                (m_field.type == FieldType::Labels && text(1).trimmed().isEmpty()))
                out << text(0);
            else if (!text(0).trimmed().isEmpty() || !text(1).isEmpty())
                out << text(0).trimmed() + QLatin1Char('=') + text(1);
            break;
        case Kind::Mounts: {
            const QString host = text(kHost).trimmed();
            const QString session = text(kSession).trimmed();
            if (host.isEmpty() && session.isEmpty())
                break;
            if (session.isEmpty()) { // as given (or half filled in): the parser says what is missing
                out << host;
                break;
            }
            const bool ro = m_table->item(r, kReadOnly)->checkState() == Qt::Checked;
            out << host + QLatin1Char(':') + session + (ro ? QStringLiteral(":ro") : QString());
            break;
        }
        case Kind::Plain:
            if (!text(0).trimmed().isEmpty())
                out << text(0).trimmed();
            break;
        }
    }
    return out;
}

void ListFieldEditor::setEntries(const QStringList &entries)
{
    m_table->setRowCount(0);
    for (const QString &e : entries) {
        switch (m_kind) {
        case Kind::Env: {
            const auto eq = e.indexOf(QLatin1Char('='));
            const int row = insertRow({e.left(eq < 0 ? e.size() : eq), eq < 0 ? QString() : e.mid(eq + 1)}, false);
            if (eq < 0) {
                const QSignalBlocker block(m_table);
                m_table->item(row, 0)->setData(Qt::UserRole, true);
            }
            break;
        }
        case Kind::Mounts:
            if (const auto m = parseMountSpec(e))
                insertRow({m->hostPath, m->sessionPath}, m->readOnly);
            else
                insertRow({e, QString()}, true);
            break;
        case Kind::Plain: insertRow({e}, false); break;
        }
    }
    Q_EMIT changed();
}

} // namespace sandbar::ui
