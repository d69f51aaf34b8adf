#pragma once

#include "providers/ProviderFactory.h"

#include <QObject>
#include <QPointer>
#include <QWidget>

namespace sandbar::ui {

// An account's SSH host offers a key ssh does not know: the person is shown its fingerprint
// and where it would be written, and only on Trust is exactly that key written (the task is
// given the fingerprint shown, so a host that offers another one by then is refused). Never
// a nested event loop: the question is opened, and the answer arrives as a signal.
class HostKeyPrompt : public QObject
{
    Q_OBJECT
public:
    // task: the account's ProviderFactory::hostKeyTask; the prompt deletes itself when done.
    HostKeyPrompt(QWidget *parent, QString account, ProviderFactory::HostKeyTask task);
    void start();

Q_SIGNALS:
    // The key is in known_hosts: the account may be asked again.
    void trusted(const QString &account, const sandbar::HostKeyOffer &key);
    // Scanning or writing failed; nothing was trusted.
    void failed(const QString &account, const sandbar::Error &error);

private:
    void ask(const HostKeyOffer &key);
    void trust(const HostKeyOffer &shown);

    QPointer<QWidget> m_parent;
    QString m_account;
    ProviderFactory::HostKeyTask m_task;
};

} // namespace sandbar::ui
