#pragma once

#include "providers/Descriptors.h"

#include <QWidget>

class QTableWidget;
class QToolButton;

namespace sandbar::ui {

// A multi-valued create option as a small table, one entry a row, with + and − buttons:
// Env as NAME | VALUE, Mounts as HOST FOLDER | Browse… | SESSION PATH | READ-ONLY (checked by
// default), any other list (ports, ...) as one text column. entries() gives the texts
// parseFieldValues reads (K=V, HOST:PATH[:ro], the text as typed).
class ListFieldEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ListFieldEditor(const FieldDescriptor &field, QWidget *parent = nullptr);

    QStringList entries() const;
    void setEntries(const QStringList &entries);
    // A new empty row (a mount: read-only), its first cell ready for typing; returns its index.
    int addRow();
    void removeRow(int row);
    int rowCount() const;
    QTableWidget *table() const { return m_table; }

Q_SIGNALS:
    void changed();

private:
    enum class Kind { Env, Mounts, Plain };
    int insertRow(const QStringList &cells, bool readOnly);
    void browse(int row);

    FieldDescriptor m_field;
    Kind m_kind;
    QTableWidget *m_table;
    QToolButton *m_add;
    QToolButton *m_remove;
};

} // namespace sandbar::ui
