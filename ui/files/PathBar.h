#pragma once

#include <QWidget>

class QHBoxLayout;
class QLineEdit;
class QStackedWidget;

namespace sandbar::ui {

// Breadcrumbs for a remote path: a button per component (click to go there), and on
// double-click or Edit an editable path (Return goes there, Escape returns to the buttons).
class PathBar : public QWidget
{
    Q_OBJECT
public:
    explicit PathBar(QWidget *parent = nullptr);

    void setPath(const QString &path);
    QString path() const { return m_path; }
    void startEditing();
    bool isEditing() const;
    QLineEdit *editor() const { return m_edit; }

Q_SIGNALS:
    void pathActivated(const QString &path);

protected:
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void rebuild();

    QString m_path;
    QStackedWidget *m_stack;
    QWidget *m_crumbs;
    QHBoxLayout *m_crumbLayout;
    QLineEdit *m_edit;
};

} // namespace sandbar::ui
