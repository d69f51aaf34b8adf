#include "DisconnectBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace sandbar {

DisconnectBanner::DisconnectBanner(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("terminalDisconnectBanner"));
    setAutoFillBackground(true);
    setFrameShape(QFrame::StyledPanel);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, QColor(0x5a, 0x1d, 0x1d));
    pal.setColor(QPalette::WindowText, Qt::white);
    setPalette(pal);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    m_label = new QLabel(this);
    m_label->setWordWrap(true);
    m_button = new QPushButton(tr("Reconnect"), this);
    m_button->setObjectName(QStringLiteral("reconnectButton"));
    m_button->setAccessibleName(m_button->text());
    m_button->setFocusPolicy(Qt::NoFocus); // typing must keep going to the terminal
    layout->addWidget(m_label, 1);
    layout->addWidget(m_button);
    connect(m_button, &QPushButton::clicked, this, &DisconnectBanner::reconnectClicked);
}

void DisconnectBanner::setMessage(const QString &message)
{
    m_label->setText(message);
}

void DisconnectBanner::setAction(const QString &text)
{
    m_button->setText(text);
    m_button->setAccessibleName(text);
    m_button->setVisible(!text.isEmpty());
}

QString DisconnectBanner::message() const
{
    return m_label->text();
}

} // namespace sandbar
