#include "files/PathBar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QToolButton>

namespace sandbar::ui {

PathBar::PathBar(QWidget *parent)
    : QWidget(parent)
    , m_stack(new QStackedWidget(this))
    , m_crumbs(new QWidget(m_stack))
    , m_crumbLayout(new QHBoxLayout(m_crumbs))
    , m_edit(new QLineEdit(m_stack))
{
    setObjectName(QStringLiteral("filesPath"));
    setAccessibleName(tr("Path"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_stack, 1);
    auto *editButton = new QToolButton(this);
    editButton->setObjectName(QStringLiteral("filesPathEditButton"));
    editButton->setText(tr("Go to…"));
    editButton->setToolTip(tr("Type a path to go to"));
    editButton->setAccessibleName(tr("Go to path"));
    layout->addWidget(editButton);
    connect(editButton, &QToolButton::clicked, this, &PathBar::startEditing);

    m_crumbLayout->setContentsMargins(0, 0, 0, 0);
    m_crumbLayout->setSpacing(0);
    m_crumbs->installEventFilter(this);
    m_edit->setObjectName(QStringLiteral("filesPathEdit"));
    m_edit->setAccessibleName(tr("Path to go to"));
    m_edit->setPlaceholderText(tr("/path/in/the/session"));
    m_edit->installEventFilter(this);
    m_stack->addWidget(m_crumbs);
    m_stack->addWidget(m_edit);
    connect(m_edit, &QLineEdit::returnPressed, this, [this]() {
        QString text = m_edit->text().trimmed();
        if (text.isEmpty())
            return;
        if (!text.startsWith(QLatin1Char('/')))
            text.prepend(QLatin1Char('/'));
        m_stack->setCurrentWidget(m_crumbs);
        Q_EMIT pathActivated(text);
    });
    setPath(QStringLiteral("/"));
}

void PathBar::setPath(const QString &path)
{
    m_path = path;
    m_edit->setText(path);
    rebuild();
}

bool PathBar::isEditing() const
{
    return m_stack->currentWidget() == m_edit;
}

void PathBar::startEditing()
{
    m_edit->setText(m_path);
    m_stack->setCurrentWidget(m_edit);
    m_edit->setFocus();
    m_edit->selectAll();
}

void PathBar::rebuild()
{
    while (QLayoutItem *item = m_crumbLayout->takeAt(0)) {
        if (QWidget *w = item->widget())
            w->deleteLater();
        delete item;
    }
    const QStringList parts = m_path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString at;
    auto addCrumb = [this](const QString &text, const QString &target, bool current) {
        auto *b = new QToolButton(m_crumbs);
        b->setText(text);
        b->setAutoRaise(true);
        b->setAccessibleName(tr("Go to %1").arg(target));
        b->setProperty("crumbPath", target);
        if (current) {
            QFont f = b->font();
            f.setBold(true);
            b->setFont(f);
        }
        connect(b, &QToolButton::clicked, this, [this, target]() { Q_EMIT pathActivated(target); });
        m_crumbLayout->addWidget(b);
    };
    addCrumb(QStringLiteral("/"), QStringLiteral("/"), parts.isEmpty());
    for (int i = 0; i < parts.size(); ++i) {
        at += QLatin1Char('/') + parts.at(i);
        if (i > 0) {
            auto *sep = new QLabel(QStringLiteral("›"), m_crumbs);
            sep->setAccessibleName(QString());
            m_crumbLayout->addWidget(sep);
        }
        addCrumb(parts.at(i), at, i == parts.size() - 1);
    }
    m_crumbLayout->addStretch(1);
}

void PathBar::mouseDoubleClickEvent(QMouseEvent *event)
{
    startEditing();
    QWidget::mouseDoubleClickEvent(event);
}

bool PathBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_crumbs && event->type() == QEvent::MouseButtonDblClick) {
        startEditing();
        return true;
    }
    if (watched == m_edit) {
        if (event->type() == QEvent::KeyPress && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape) {
            m_stack->setCurrentWidget(m_crumbs);
            return true;
        }
        if (event->type() == QEvent::FocusOut)
            m_stack->setCurrentWidget(m_crumbs);
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace sandbar::ui
