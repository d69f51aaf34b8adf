#include "TerminalFindBar.h"

#include "TerminalView.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace sandbar {

TerminalFindBar::TerminalFindBar(TerminalView *view, QWidget *parent)
    : QFrame(parent)
    , m_view(view)
    , m_field(new QLineEdit(this))
    , m_case(new QCheckBox(tr("Match case"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("terminalFindBar"));
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    m_field->setObjectName(QStringLiteral("terminalFindField"));
    m_field->setAccessibleName(tr("Find in scrollback"));
    m_field->setPlaceholderText(tr("Find in scrollback"));
    m_field->setClearButtonEnabled(true);
    m_field->installEventFilter(this);
    auto *previous = new QToolButton(this);
    previous->setText(tr("Previous"));
    previous->setToolTip(tr("Previous match (Shift+Enter)"));
    auto *next = new QToolButton(this);
    next->setText(tr("Next"));
    next->setToolTip(tr("Next match (Enter)"));
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Close (Escape)"));
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(m_field, 1);
    layout->addWidget(previous);
    layout->addWidget(next);
    layout->addWidget(m_case);
    layout->addWidget(m_status);
    layout->addWidget(close);
    connect(previous, &QToolButton::clicked, this, &TerminalFindBar::findPrevious);
    connect(next, &QToolButton::clicked, this, &TerminalFindBar::findNext);
    connect(close, &QToolButton::clicked, this, [this]() {
        hide();
        if (m_view)
            m_view->setFocus();
    });
    // Typing searches at once, from the newest output back: what a person looks for is
    // usually what just scrolled by.
    connect(m_field, &QLineEdit::textEdited, this, [this]() {
        if (m_view)
            m_view->clearSelection();
        if (!m_field->text().isEmpty())
            findPrevious();
        else
            m_status->clear();
    });
    if (m_view)
        connect(m_view, &TerminalView::findRequested, this, &TerminalFindBar::open);
    hide();
}

void TerminalFindBar::open()
{
    show();
    if (m_view && !m_view->selectedText().isEmpty() && !m_view->selectedText().contains(QLatin1Char('\n')))
        m_field->setText(m_view->selectedText());
    m_field->setFocus();
    m_field->selectAll();
}

void TerminalFindBar::findNext()
{
    find(true);
}

void TerminalFindBar::findPrevious()
{
    find(false);
}

void TerminalFindBar::find(bool forward)
{
    if (!m_view || m_field->text().isEmpty())
        return;
    const Qt::CaseSensitivity cs = m_case->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive;
    m_found = forward ? m_view->findNext(m_field->text(), cs) : m_view->findPrevious(m_field->text(), cs);
    m_status->setText(m_found ? QString() : tr("No match"));
    QPalette pal = m_field->palette();
    pal.setColor(QPalette::Base, m_found ? palette().color(QPalette::Base) : QColor(0xf8, 0xd7, 0xda));
    m_field->setPalette(pal);
}

bool TerminalFindBar::eventFilter(QObject *watched, QEvent *e)
{
    if (watched == m_field && e->type() == QEvent::KeyPress) {
        const auto *k = static_cast<QKeyEvent *>(e);
        if (k->key() == Qt::Key_Escape) {
            hide();
            if (m_view)
                m_view->setFocus();
            return true;
        }
        if (k->key() == Qt::Key_Return || k->key() == Qt::Key_Enter) {
            (k->modifiers() & Qt::ShiftModifier) ? findPrevious() : findNext();
            return true;
        }
    }
    return QFrame::eventFilter(watched, e);
}

} // namespace sandbar
