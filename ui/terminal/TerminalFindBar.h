#pragma once

#include <QFrame>
#include <QPointer>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace sandbar {

class TerminalView;

// The find bar under a terminal: what TerminalView::findRequested (Ctrl+Shift+F, the
// context menu) opens. Enter finds the next match, Shift+Enter the previous one, typing
// searches from the newest line back; Escape closes it and gives the keyboard back.
class TerminalFindBar : public QFrame
{
    Q_OBJECT
public:
    explicit TerminalFindBar(TerminalView *view, QWidget *parent = nullptr);

    void open();
    void findNext();
    void findPrevious();
    QLineEdit *field() const { return m_field; }
    bool lastFound() const { return m_found; }

protected:
    bool eventFilter(QObject *watched, QEvent *e) override;

private:
    void find(bool forward);

    QPointer<TerminalView> m_view;
    QLineEdit *m_field;
    QCheckBox *m_case;
    QLabel *m_status;
    bool m_found = false;
};

} // namespace sandbar
