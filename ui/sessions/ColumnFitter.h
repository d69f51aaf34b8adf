#pragma once

#include <QHash>
#include <QObject>

class QTableView;

namespace sandbar::ui {

// Fits a table's columns to the width it has until the person sizes one by hand. Each
// visible column gets its preferred width (the width the code gave it), all of them scaled
// down together when they do not fit, none under what its title needs; the grow column takes
// what is left, so there is neither a horizontal scroll bar nor a gap. A column the person
// drags or double-clicks on the header makes the widths theirs (chosen()): from then on
// nothing is fitted, and the caller keeps that choice with the header's state.
class ColumnFitter : public QObject
{
    Q_OBJECT
public:
    ColumnFitter(QTableView *view, int growColumn, QObject *parent = nullptr);

    bool chosen() const { return m_chosen; }
    // As read back from settings; not chosen fits at once.
    void setChosen(bool chosen);
    // Runs change (restoring a saved header, say) without taking its widths as preferred.
    template <typename F>
    void withoutRecording(F change)
    {
        m_quiet = true;
        change();
        m_quiet = false;
    }
    // Fits now (after columns were shown or hidden); nothing while hidden or chosen.
    void fit();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void columnResized(int column, int oldSize, int newSize);
    int minimumWidth(int column) const;

    QTableView *m_view;
    int m_grow;
    QHash<int, int> m_preferred; // by logical column
    bool m_chosen = false;
    bool m_pressed = false; // a mouse button is down on the header: a resize is the person's
    bool m_quiet = false;   // fitting or restoring: a resize is not a preference
};

} // namespace sandbar::ui
