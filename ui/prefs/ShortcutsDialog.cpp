#include "ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QWidget>

namespace sandbar::ui {

ShortcutsDialog::ShortcutsDialog(QWidget *root, QWidget *parent)
    : QDialog(parent)
    , m_root(root)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    setAccessibleName(tr("Keyboard shortcuts"));

    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("shortcutSearch"));
    m_search->setPlaceholderText(tr("Search actions or keys"));
    m_search->setClearButtonEnabled(true);
    auto *label = new QLabel(tr("&Search:"), this);
    label->setBuddy(m_search);
    m_search->setAccessibleName(tr("Search shortcuts"));

    m_table = new QTableWidget(0, 2, this);
    m_table->setObjectName(QStringLiteral("shortcutTable"));
    m_table->setAccessibleName(tr("Shortcuts"));
    m_table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setSortingEnabled(false);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_search, &QLineEdit::textChanged, this, &ShortcutsDialog::applyFilter);

    auto *searchRow = new QHBoxLayout;
    searchRow->addWidget(label);
    searchRow->addWidget(m_search);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(searchRow);
    layout->addWidget(m_table);
    layout->addWidget(buttons);
    resize(480, 420);
    refresh();
}

QString ShortcutsDialog::plainText(const QAction *action)
{
    QString text = action->text();
    if (text.isEmpty())
        text = action->iconText();
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) == QLatin1Char('&')) {
            if (i + 1 < text.size() && text.at(i + 1) == QLatin1Char('&'))
                out += text.at(++i);
            continue;
        }
        out += text.at(i);
    }
    // Menus end some entries with an ellipsis; in a list of keys it is noise.
    while (out.endsWith(QChar(0x2026)) || out.endsWith(QLatin1String("...")))
        out.chop(out.endsWith(QChar(0x2026)) ? 1 : 3);
    return out.trimmed();
}

QList<QAction *> ShortcutsDialog::actionsWithShortcuts(QWidget *root)
{
    QList<QAction *> out;
    if (!root)
        return out;
    QSet<QAction *> seen;
    QList<QAction *> all = root->actions();
    all += root->findChildren<QAction *>();
    for (QAction *a : std::as_const(all)) {
        if (seen.contains(a) || a->isSeparator() || a->shortcuts().isEmpty())
            continue;
        seen.insert(a);
        out.append(a);
    }
    return out;
}

namespace {

bool widgetScoped(const QAction *a)
{
    return a->shortcutContext() == Qt::WidgetShortcut || a->shortcutContext() == Qt::WidgetWithChildrenShortcut;
}

bool related(const QWidget *a, const QWidget *b)
{
    return a && b && (a == b || a->isAncestorOf(b) || b->isAncestorOf(a));
}

// Whether two actions with the same keys can both be live for one focus widget.
bool clash(const QAction *a, const QAction *b)
{
    if (!widgetScoped(a) || !widgetScoped(b))
        return true;
    const QList<QObject *> wa = a->associatedObjects();
    const QList<QObject *> wb = b->associatedObjects();
    for (QObject *x : wa) {
        for (QObject *y : wb) {
            if (related(qobject_cast<QWidget *>(x), qobject_cast<QWidget *>(y)))
                return true;
        }
    }
    return false;
}

} // namespace

QMap<QString, QStringList> ShortcutsDialog::conflicts(QWidget *root)
{
    QMap<QString, QStringList> out;
    const QList<QAction *> actions = actionsWithShortcuts(root);
    for (qsizetype i = 0; i < actions.size(); ++i) {
        for (qsizetype j = i + 1; j < actions.size(); ++j) {
            for (const QKeySequence &k : actions[i]->shortcuts()) {
                if (!actions[j]->shortcuts().contains(k) || !clash(actions[i], actions[j]))
                    continue;
                QStringList &names = out[k.toString(QKeySequence::NativeText)];
                for (const QAction *a : {actions[i], actions[j]}) {
                    if (!names.contains(plainText(a)))
                        names << plainText(a);
                }
            }
        }
    }
    return out;
}

void ShortcutsDialog::refresh()
{
    struct Row {
        QString text, keys, tip;
    };
    QList<Row> rows;
    for (QAction *a : actionsWithShortcuts(m_root)) {
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        rows.append({plainText(a), keys.join(tr(", ")), a->statusTip()});
    }
    std::sort(rows.begin(), rows.end(),
              [](const Row &a, const Row &b) { return a.text.localeAwareCompare(b.text) < 0; });
    m_table->setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        auto *text = new QTableWidgetItem(rows[i].text);
        text->setToolTip(rows[i].tip);
        m_table->setItem(i, 0, text);
        m_table->setItem(i, 1, new QTableWidgetItem(rows[i].keys));
    }
    applyFilter();
}

void ShortcutsDialog::setFilter(const QString &text)
{
    m_search->setText(text);
}

void ShortcutsDialog::applyFilter()
{
    const QString needle = m_search->text().trimmed();
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const bool match = needle.isEmpty() || m_table->item(r, 0)->text().contains(needle, Qt::CaseInsensitive) ||
                           m_table->item(r, 1)->text().contains(needle, Qt::CaseInsensitive);
        m_table->setRowHidden(r, !match);
    }
}

QStringList ShortcutsDialog::visibleRows() const
{
    QStringList out;
    for (int r = 0; r < m_table->rowCount(); ++r) {
        if (!m_table->isRowHidden(r))
            out << m_table->item(r, 0)->text() + QLatin1Char('\t') + m_table->item(r, 1)->text();
    }
    return out;
}

} // namespace sandbar::ui
