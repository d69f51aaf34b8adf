#include "accounts/HostKeyPrompt.h"

#include "common/OffThread.h"

#include <QMessageBox>
#include <QPushButton>

namespace sandbar::ui {

HostKeyPrompt::HostKeyPrompt(QWidget *parent, QString account, ProviderFactory::HostKeyTask task)
    : QObject(parent)
    , m_parent(parent)
    , m_account(std::move(account))
    , m_task(std::move(task))
{
}

void HostKeyPrompt::start()
{
    // ssh connects: a worker thread waits for it.
    runOffThread<Result<HostKeyOffer>>(
        this, [task = m_task] { return task(QString(), false); },
        [this](const Result<HostKeyOffer> &key) {
            if (!key.ok()) {
                Q_EMIT failed(m_account, key.error());
                return deleteLater();
            }
            ask(*key);
        });
}

void HostKeyPrompt::ask(const HostKeyOffer &key)
{
    auto *box = new QMessageBox(QMessageBox::Question, tr("Trust the host %1?").arg(key.host),
                                tr("ssh does not know the host %1 of the account %2. It offers this key:\n\n%3\n\n"
                                   "Trust it only if it is the host's own: compare it with what its administrator "
                                   "gives you, or with ssh-keygen -lf on the host's key there. Trusting writes it to "
                                   "%4, where ssh looks for it.")
                                    .arg(key.host, m_account, key.fingerprint, key.knownHostsFile),
                                QMessageBox::Cancel, m_parent);
    box->setObjectName(QStringLiteral("hostKeyPrompt"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPushButton *yes = box->addButton(tr("Trust this key"), QMessageBox::AcceptRole);
    box->setDefaultButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::finished, this, [this, box, yes, key](int) {
        if (box->clickedButton() == yes)
            return trust(key);
        deleteLater();
    });
    box->open();
}

void HostKeyPrompt::trust(const HostKeyOffer &shown)
{
    runOffThread<Result<HostKeyOffer>>(
        this, [task = m_task, pin = shown.fingerprint] { return task(pin, true); },
        [this](const Result<HostKeyOffer> &key) {
            if (key.ok())
                Q_EMIT trusted(m_account, *key);
            else
                Q_EMIT failed(m_account, key.error());
            deleteLater();
        });
}

} // namespace sandbar::ui
