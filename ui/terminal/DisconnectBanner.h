#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace sandbar {

// The strip across the top of a terminal whose channel has dropped: says why and offers
// to reconnect. The terminal's content stays visible under it.
class DisconnectBanner : public QFrame
{
    Q_OBJECT
public:
    explicit DisconnectBanner(QWidget *parent = nullptr);
    void setMessage(const QString &message);
    QString message() const;
    // The button's words ("Reconnect", "Resume"); empty hides it (nothing can be done).
    void setAction(const QString &text);
    QPushButton *reconnectButton() const { return m_button; }

Q_SIGNALS:
    void reconnectClicked();

private:
    QLabel *m_label;
    QPushButton *m_button;
};

} // namespace sandbar
