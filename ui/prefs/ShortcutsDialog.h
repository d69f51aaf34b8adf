#pragma once

#include <QDialog>
#include <QMap>
#include <QPointer>

class QAction;
class QLineEdit;
class QTableWidget;

namespace sandbar::ui {

// Keyboard shortcuts help: every action under a widget tree that has a shortcut, with its
// text (mnemonics removed) and its shortcuts in the platform's own notation, and a search
// field that filters on both. Open it with open().
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    // root: usually the main window; its actions are read now and on refresh().
    explicit ShortcutsDialog(QWidget *root, QWidget *parent = nullptr);

    void refresh();
    void setFilter(const QString &text);
    // Rows not filtered out, as "text\tshortcut" (for tests).
    QStringList visibleRows() const;

    // Action text without mnemonic ampersands ("&&" stays one "&") or a trailing "…".
    static QString plainText(const QAction *action);
    // The actions under root (its own and its descendants') that have a shortcut, once each.
    static QList<QAction *> actionsWithShortcuts(QWidget *root);
    // Key sequences (native text) that more than one action can answer at the same time,
    // with the actions' texts: Qt then reports "Ambiguous shortcut overload" and triggers
    // none. Widget-scoped actions on unrelated widgets do not clash.
    static QMap<QString, QStringList> conflicts(QWidget *root);

private:
    void applyFilter();

    QPointer<QWidget> m_root;
    QLineEdit *m_search = nullptr;
    QTableWidget *m_table = nullptr;
};

} // namespace sandbar::ui
