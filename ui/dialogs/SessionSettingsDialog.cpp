#include "dialogs/SessionSettingsDialog.h"

#include "dialogs/DescriptorForm.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace sandbar::ui {

SessionSettingsDialog::SessionSettingsDialog(const ProviderDescriptor &provider, const SessionInfo &session,
                                             QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_form(new DescriptorForm(this))
    , m_error(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("sessionSettingsDialog"));
    setWindowTitle(tr("Settings of %1").arg(session.name.isEmpty() ? session.id : session.name));
    setMinimumWidth(420);
    auto *layout = new QVBoxLayout(this);
    auto *intro =
        new QLabel(tr("%1 changes these on the session as it runs; nothing restarts.").arg(provider.displayName), this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_form->setFields(changeableOptions(provider));
    // Every changeable option shows what it is now, the defaults do not count.
    for (const FieldDescriptor &f : m_form->fields())
        m_form->setValue(f.key, session.settings.value(f.key, f.defaultValue));
    layout->addWidget(m_form);
    m_error->setObjectName(QStringLiteral("sessionSettingsError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_error->hide();
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SessionSettingsDialog::submit);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

Result<QVariantMap> SessionSettingsDialog::changedValues() const
{
    const auto values = m_form->values();
    if (!values)
        return values.error();
    QVariantMap changed;
    for (const FieldDescriptor &f : m_form->fields()) {
        const QVariant now = m_session.settings.value(f.key, f.defaultValue);
        if (values->contains(f.key) && values->value(f.key) != now)
            changed.insert(f.key, values->value(f.key));
    }
    return changed;
}

void SessionSettingsDialog::showError(const QString &message)
{
    m_error->setText(message);
    m_error->show();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
}

void SessionSettingsDialog::submit()
{
    const auto changed = changedValues();
    if (!changed)
        return showError(changed.message());
    if (changed->isEmpty())
        return accept();
    m_error->hide();
    // One change at a time: OK is back once the provider has answered.
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    Q_EMIT changeRequested(*changed);
}

} // namespace sandbar::ui
