#include "accounts/FirstStartPanel.h"

#include "common/OffThread.h"

#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace sandbar::ui {

FirstStartPanel::FirstStartPanel(const ProviderFactories &factories, const AccountStore *accounts, QWidget *parent)
    : QWidget(parent)
    , m_factories(factories)
    , m_accounts(accounts)
    , m_discovery(discoveryOf(factories))
    , m_choices(new QVBoxLayout)
    , m_status(new QLabel(this))
{
    // One centred column, as wide as a dialog, whatever the window's size.
    auto *outer = new QVBoxLayout(this);
    auto *column = new QWidget(this);
    column->setMaximumWidth(560);
    auto *layout = new QVBoxLayout(column);
    outer->addStretch(1);
    outer->addWidget(column, 0, Qt::AlignHCenter);
    outer->addStretch(2);
    auto *title = new QLabel(tr("<h2>Welcome to Sandbar</h2>"), column);
    auto *intro = new QLabel(tr("Sandbar runs AI agents in sandboxes. Choose where the first ones run; you can add "
                                "more places later."),
                             column);
    intro->setWordWrap(true);
    intro->setMinimumWidth(420);
    layout->addWidget(title, 0, Qt::AlignHCenter);
    layout->addWidget(intro);
    layout->addSpacing(8);
    layout->addLayout(m_choices);
    m_status->setParent(column);
    m_status->setObjectName(QStringLiteral("discoveryStatus"));
    m_status->setText(tr("Looking for engines on this computer…"));
    layout->addWidget(m_status, 0, Qt::AlignHCenter);
    auto *other = new QPushButton(tr("Add another account…"), column);
    other->setObjectName(QStringLiteral("addAnother"));
    other->setAccessibleName(tr("Add another account"));
    connect(other, &QPushButton::clicked, this, &FirstStartPanel::addAnotherRequested);
    layout->addWidget(other, 0, Qt::AlignHCenter);

    if (m_factories.find(QStringLiteral("local"))) {
        Account local;
        local.name = freeName(QStringLiteral("local"));
        local.provider = QStringLiteral("local");
        addChoice(tr("Use the Local sandbox (bubblewrap on this computer, no daemon)"), local);
    }
    QTimer::singleShot(0, this, &FirstStartPanel::runDiscovery);
}

void FirstStartPanel::setDiscovery(AccountDiscovery discovery)
{
    m_discovery = std::move(discovery);
}

QString FirstStartPanel::freeName(const QString &base) const
{
    QString name = base;
    for (int i = 2; m_accounts && m_accounts->find(name); ++i)
        name = base + QLatin1Char('-') + QString::number(i);
    return name;
}

void FirstStartPanel::addChoice(const QString &text, const Account &account)
{
    auto *button = new QPushButton(text, this);
    button->setObjectName(QStringLiteral("choice_") + account.name);
    button->setAccessibleName(text);
    button->setMinimumHeight(button->sizeHint().height() * 3 / 2);
    connect(button, &QPushButton::clicked, this, [this, account]() { Q_EMIT chosen(account); });
    m_choices->addWidget(button);
}

void FirstStartPanel::runDiscovery()
{
    if (m_started || !m_discovery)
        return m_status->hide();
    m_started = true;
    runOffThread<QList<AccountChoice>>(this, m_discovery, [this](QList<AccountChoice> found) { showEngines(found); });
}

void FirstStartPanel::showEngines(const QList<AccountChoice> &engines)
{
    QStringList used;
    for (const AccountChoice &e : engines) {
        if (!m_factories.find(e.provider))
            continue;
        Account a;
        a.provider = e.provider;
        a.name = freeName(e.provider);
        for (int i = 2; used.contains(a.name); ++i)
            a.name = freeName(e.provider + QLatin1Char('-') + QString::number(i));
        used << a.name;
        a.settings = e.settings;
        addChoice(tr("Use %1").arg(e.label), a);
    }
    m_status->setText(used.isEmpty() ? tr("No engine answered on this computer.") : QString());
    m_status->setVisible(used.isEmpty());
}

} // namespace sandbar::ui
