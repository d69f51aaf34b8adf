#pragma once

#include "accounts/AccountStore.h"
#include "providers/ProviderFactory.h"
#include "providers/Session.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;

namespace sandbar::ui {

class DescriptorForm;

// New account: a name, a provider, and that provider's own fields.
class AddAccountDialog : public QDialog
{
    Q_OBJECT
public:
    AddAccountDialog(const ProviderFactories &factories, QWidget *parent = nullptr);
    Result<Account> account() const;
    QMap<QString, QString> secrets() const;

private:
    void providerChanged();

    const ProviderFactories &m_factories;
    QLineEdit *m_name;
    QComboBox *m_provider;
    QLabel *m_description;
    DescriptorForm *m_form;
    QLabel *m_error = nullptr; // what is wrong with the input, shown above the buttons
};

// New session in a chosen account, with that provider's create options.
class NewSessionDialog : public QDialog
{
    Q_OBJECT
public:
    NewSessionDialog(const AccountStore &accounts, const ProviderFactories &factories, const QString &preferredAccount,
                     QWidget *parent = nullptr);
    QString accountName() const;
    Result<CreateSpec> spec() const;

private:
    void accountChanged();

    const AccountStore &m_accounts;
    const ProviderFactories &m_factories;
    QComboBox *m_account;
    QLineEdit *m_name;
    DescriptorForm *m_form;
    QLabel *m_error = nullptr; // what is wrong with the input, shown above the buttons
};

} // namespace sandbar::ui
