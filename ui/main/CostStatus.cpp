#include "main/CostStatus.h"

#include "costs/BudgetWatcher.h"
#include "costs/CostLedger.h"
#include "costs/CostMeter.h"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QIcon>
#include <QLabel>
#include <QLocale>
#include <QSystemTrayIcon>

namespace sandbar::ui {

namespace {

QString usd(double v)
{
    return QStringLiteral("$") + QLocale().toString(v, 'f', 2);
}

} // namespace

CostStatus::CostStatus(CostMeter &meter, costs::CostLedger &ledger, costs::BudgetWatcher &watcher, QWidget *window)
    : QObject(window)
    , m_meter(meter)
    , m_ledger(ledger)
    , m_watcher(watcher)
    , m_window(window)
    , m_label(new QLabel(window))
{
    m_label->setObjectName(QStringLiteral("costStatus"));
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new QSystemTrayIcon(QIcon(QStringLiteral(":/sandbar/icons/sandbar.svg")), this);
        m_tray->setToolTip(tr("Sandbar"));
        m_tray->show();
    }
    connect(&m_meter, &CostMeter::updated, this, &CostStatus::refresh);
    connect(&m_meter, &CostMeter::budgetThreshold, this,
            [this](const QString &account, int percent, double spend, double budget) {
                notify(tr("Budget: %1 at %2 %").arg(account).arg(percent),
                       tr("Account %1 has spent %2 of its %3 monthly budget.").arg(account, usd(spend), usd(budget)));
            });
    connect(&m_meter, &CostMeter::budgetStopped, this, [this](const QString &account, const QStringList &refs) {
        if (refs.isEmpty())
            return;
        notify(tr("Budget reached: %1 stopped").arg(account),
               tr("Sandbar stopped %n session(s) of %1 at 100 % of its budget: %2", nullptr, int(refs.size()))
                   .arg(account, refs.join(QStringLiteral(", "))));
    });
    refresh();
}

void CostStatus::refresh()
{
    QString text = tr("Running now: %1/h").arg(usd(m_meter.usdPerHour()));
    if (!m_alert.isEmpty())
        text += QStringLiteral("  ·  <span style='color:#c0392b'>%1</span>").arg(m_alert.toHtmlEscaped());
    m_label->setText(text);
    QString tip = tr("Cost of the running sessions, by their providers' prices");
    const QMap<QString, double> byAccount = m_meter.usdPerHourByAccount();
    for (auto it = byAccount.cbegin(); it != byAccount.cend(); ++it)
        tip += QStringLiteral("\n") + tr("%1: %2/h").arg(it.key(), usd(it.value()));
    m_label->setToolTip(m_meter.lastError().isEmpty() ? tip : m_meter.lastError());
}

void CostStatus::notify(const QString &title, const QString &text)
{
    m_alert = title;
    refresh();
    if (m_tray && QSystemTrayIcon::supportsMessages())
        m_tray->showMessage(title, text, QSystemTrayIcon::Warning);
    Q_EMIT notified(title, text);
}

void CostStatus::editBudget(const QString &account)
{
    auto *dlg = new QDialog(m_window);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setWindowTitle(tr("Budget for %1").arg(account));
    auto *form = new QFormLayout(dlg);
    auto *amount = new QDoubleSpinBox(dlg);
    amount->setObjectName(QStringLiteral("budgetAmount"));
    amount->setRange(0, 1'000'000);
    amount->setDecimals(2);
    amount->setPrefix(QStringLiteral("$"));
    amount->setSpecialValueText(tr("No budget"));
    auto *stop = new QCheckBox(tr("Stop this account's running sessions at 100 %"), dlg);
    stop->setObjectName(QStringLiteral("budgetStop"));
    if (auto b = m_ledger.budget(account); b.ok() && b->has_value()) {
        amount->setValue((*b)->monthlyUsd);
        stop->setChecked((*b)->stopAtLimit);
    }
    auto *spent = new QLabel(tr("%1 spent this month").arg(usd(m_meter.monthSpendUsd(account))), dlg);
    form->addRow(tr("Monthly budget:"), amount);
    form->addRow(QString(), stop);
    form->addRow(tr("So far:"), spent);
    form->addRow(new QLabel(tr("You are told at 80 % and at 100 %."), dlg));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dlg);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, dlg, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, dlg, &QDialog::reject);
    connect(dlg, &QDialog::accepted, this, [this, account, amount, stop]() {
        const VoidResult r = amount->value() > 0
                                 ? m_watcher.setBudget(costs::Budget{account, amount->value(), stop->isChecked()})
                                 : m_ledger.removeBudget(account);
        if (!r.ok())
            notify(tr("Budget not saved"), r.message());
        else
            m_meter.tick();
    });
    dlg->open();
}

} // namespace sandbar::ui
