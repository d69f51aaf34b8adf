#include "main/Dialogs.h"

#include "main/DescriptorForm.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {

// The line above the buttons that says what is wrong with the input (hidden until then).
QLabel *addErrorLabel(QDialog *dialog, QBoxLayout *layout)
{
    auto *label = new QLabel(dialog);
    label->setObjectName(QStringLiteral("dialogError"));
    label->setWordWrap(true);
    label->setStyleSheet(QStringLiteral("color: #c0392b"));
    label->hide();
    layout->addWidget(label);
    return label;
}

template <typename T>
void acceptOrExplain(QDialog *dialog, QLabel *error, const Result<T> &input)
{
    if (input.ok())
        return dialog->accept();
    error->setText(input.message());
    error->show();
}

} // namespace

AddAccountDialog::AddAccountDialog(const ProviderFactories &factories, QWidget *parent)
    : QDialog(parent)
    , m_factories(factories)
    , m_name(new QLineEdit(this))
    , m_provider(new QComboBox(this))
    , m_description(new QLabel(this))
    , m_form(new DescriptorForm(this))
{
    setWindowTitle(tr("Add account"));
    auto *layout = new QVBoxLayout(this);
    auto *top = new QFormLayout;
    top->addRow(tr("Name"), m_name);
    top->addRow(tr("Provider"), m_provider);
    layout->addLayout(top);
    m_description->setWordWrap(true);
    layout->addWidget(m_description);
    layout->addWidget(m_form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_error = addErrorLabel(this, layout);
    layout->addWidget(buttons);
    for (const auto &f : factories.all())
        m_provider->addItem(f->descriptor().displayName, f->descriptor().id);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &AddAccountDialog::providerChanged);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this]() { acceptOrExplain(this, m_error, account()); });
    providerChanged();
}

void AddAccountDialog::providerChanged()
{
    const ProviderFactory *f = m_factories.find(m_provider->currentData().toString());
    m_form->setFields(f ? f->descriptor().accountFields : QList<FieldDescriptor>{});
    m_description->setText(f ? f->descriptor().description : QString());
    if (m_name->text().isEmpty() && f)
        m_name->setPlaceholderText(f->descriptor().id);
}

Result<Account> AddAccountDialog::account() const
{
    Account a;
    a.name = m_name->text().trimmed().isEmpty() ? m_name->placeholderText() : m_name->text().trimmed();
    a.provider = m_provider->currentData().toString();
    if (auto r = AccountStore::validateName(a.name); !r.ok())
        return r.error();
    auto values = m_form->values();
    if (!values.ok())
        return values.error();
    // Secrets are not among the form's values (they go to the keychain), so a required one
    // left empty is caught here.
    if (const ProviderFactory *f = m_factories.find(a.provider)) {
        const QMap<QString, QString> given = m_form->secrets();
        for (const FieldDescriptor &field : f->descriptor().accountFields) {
            if (field.secret && field.required && !given.contains(field.key))
                return makeError(ErrorCode::InvalidArgument, tr("%1 is required").arg(field.label));
        }
    }
    a.settings = values.value();
    return a;
}

QMap<QString, QString> AddAccountDialog::secrets() const
{
    return m_form->secrets();
}

NewSessionDialog::NewSessionDialog(const AccountStore &accounts, const ProviderFactories &factories,
                                   const QString &preferredAccount, QWidget *parent)
    : QDialog(parent)
    , m_accounts(accounts)
    , m_factories(factories)
    , m_account(new QComboBox(this))
    , m_name(new QLineEdit(this))
    , m_form(new DescriptorForm(this))
{
    setWindowTitle(tr("New session"));
    auto *layout = new QVBoxLayout(this);
    auto *top = new QFormLayout;
    top->addRow(tr("Account"), m_account);
    top->addRow(tr("Name"), m_name);
    m_name->setPlaceholderText(tr("optional"));
    layout->addLayout(top);
    layout->addWidget(m_form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    m_error = addErrorLabel(this, layout);
    layout->addWidget(buttons);
    for (const auto &a : accounts.accounts())
        m_account->addItem(QStringLiteral("%1 (%2)").arg(a.name, a.provider), a.name);
    if (const int i = m_account->findData(preferredAccount); i >= 0)
        m_account->setCurrentIndex(i);
    connect(m_account, &QComboBox::currentIndexChanged, this, &NewSessionDialog::accountChanged);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this]() { acceptOrExplain(this, m_error, spec()); });
    accountChanged();
}

QString NewSessionDialog::accountName() const
{
    return m_account->currentData().toString();
}

void NewSessionDialog::accountChanged()
{
    const auto account = m_accounts.find(accountName());
    const ProviderFactory *f = account ? m_factories.find(account->provider) : nullptr;
    m_form->setFields(f ? f->descriptor().createOptions : QList<FieldDescriptor>{});
}

Result<CreateSpec> NewSessionDialog::spec() const
{
    if (accountName().isEmpty())
        return makeError(ErrorCode::InvalidArgument, tr("Add an account first"));
    auto values = m_form->values();
    if (!values.ok())
        return values.error();
    CreateSpec s = createSpecFromOptions(values.value());
    if (!m_name->text().trimmed().isEmpty())
        s.name = m_name->text().trimmed();
    return s;
}

} // namespace sandbar::ui
