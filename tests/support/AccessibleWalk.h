#pragma once

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QStringList>
#include <QTabBar>
#include <QTextEdit>
#include <QWidget>

namespace sandbar::test {

namespace detail {

inline bool isInteractive(const QWidget *w)
{
    return qobject_cast<const QAbstractButton *>(w) || qobject_cast<const QLineEdit *>(w) ||
           qobject_cast<const QComboBox *>(w) || qobject_cast<const QAbstractSpinBox *>(w) ||
           qobject_cast<const QAbstractItemView *>(w) || qobject_cast<const QTabBar *>(w) ||
           qobject_cast<const QAbstractSlider *>(w) || qobject_cast<const QTextEdit *>(w) ||
           qobject_cast<const QPlainTextEdit *>(w);
}

// Parts of a composite widget (a spin box's line edit, a combo's list, a tab bar's scroll
// arrows, a view's headers and scroll bars, a line edit's clear button) are named by the composite, not by themselves.
inline bool isPartOfComposite(const QWidget *w, const QWidget *root)
{
    for (const QWidget *p = w->parentWidget(); p && p != root->parentWidget(); p = p->parentWidget()) {
        if (qobject_cast<const QAbstractSpinBox *>(p) || qobject_cast<const QComboBox *>(p) ||
            qobject_cast<const QTabBar *>(p) || qobject_cast<const QAbstractItemView *>(p) ||
            qobject_cast<const QLineEdit *>(p))
            return true;
        if (qobject_cast<const QAbstractSlider *>(w) && qobject_cast<const QAbstractScrollArea *>(p))
            return true;
    }
    return qobject_cast<const QAbstractSlider *>(w) && w->inherits("QScrollBar");
}

// Hidden on purpose: the widget or an ancestor below root was hidden, except the pages of
// a stack (tabs), which are only hidden because another page is current.
inline bool isHiddenByDesign(const QWidget *w, const QWidget *root)
{
    for (const QWidget *p = w; p && p != root; p = p->parentWidget()) {
        if (!p->isHidden())
            continue;
        if (p->parentWidget() && qobject_cast<const QStackedWidget *>(p->parentWidget()))
            continue;
        return true;
    }
    return false;
}

inline QString describe(const QWidget *w)
{
    return QStringLiteral("%1(%2)").arg(QString::fromLatin1(w->metaObject()->className()), w->objectName());
}

} // namespace detail

// Every interactive widget under root (root included) that is meant to be seen but has no
// accessible name, as "ClassName objectName parent-chain". The name is what assistive
// technology reads: the accessible interface's Name, which also comes from a button's
// text or a buddy label.
inline QStringList widgetsWithoutAccessibleName(QWidget *root)
{
    QStringList missing;
    if (!root)
        return missing;
    QList<QWidget *> all = root->findChildren<QWidget *>();
    all.prepend(root);
    for (QWidget *w : std::as_const(all)) {
        if (!detail::isInteractive(w) || detail::isPartOfComposite(w, root) || detail::isHiddenByDesign(w, root))
            continue;
        QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(w);
        const QString name = iface ? iface->text(QAccessible::Name).trimmed() : QString();
        if (!name.isEmpty())
            continue;
        QStringList chain;
        for (const QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
            chain << detail::describe(p);
            if (p == root)
                break;
        }
        missing << QStringLiteral("%1 %2 %3")
                       .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(),
                            chain.join(QStringLiteral(" < ")));
    }
    return missing;
}

} // namespace sandbar::test
