#include "accounts/AccountDialog.h"

#include "common/OffThread.h"
#include "dialogs/DescriptorForm.h"
#include "providers/Provider.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace sandbar::ui {

AccountDialog::AccountDialog(const ProviderFactories &factories, QWidget *parent)
    : QDialog(parent)
    , m_factories(factories)
    , m_discovery(discoveryOf(factories))
{
    build();
    setWindowTitle(tr("Add account"));
    // Later, so that a caller (a test) may replace the discovery first; off the UI thread.
    QTimer::singleShot(0, this, &AccountDialog::runDiscovery);
}

AccountDialog::AccountDialog(const ProviderFactories &factories, const Account &existing, QWidget *parent)
    : QDialog(parent)
    , m_factories(factories)
    , m_editing(true)
    , m_existing(existing)
{
    build();
    setWindowTitle(tr("Edit account %1").arg(existing.name));
    m_name->setText(existing.name);
    m_name->setReadOnly(true);
    m_name->setToolTip(tr("An account cannot be renamed: its secrets are filed under its name in the keychain"));
    m_provider->setCurrentIndex(m_provider->findData(existing.provider));
    m_provider->setEnabled(false);
    m_form->setValues(existing.settings);
    m_form->setStoredSecrets(existing.secretKeys);
    alignLabels(m_top, m_form);
}

AccountDialog::~AccountDialog() = default;

void AccountDialog::build()
{
    m_name = new QLineEdit(this);
    m_provider = new QComboBox(this);
    m_description = new QLabel(this);
    m_form = new DescriptorForm(this);
    auto *layout = new QVBoxLayout(this);

    m_engines = new QGroupBox(tr("Found on this computer"), this);
    m_engines->setObjectName(QStringLiteral("discoveredEngines"));
    m_enginesLayout = new QVBoxLayout(m_engines);
    auto *looking = new QLabel(tr("Looking for engines on this computer…"), m_engines);
    looking->setObjectName(QStringLiteral("discoveryStatus"));
    m_enginesLayout->addWidget(looking);
    m_engines->setVisible(!m_editing);
    layout->addWidget(m_engines);

    m_top = new QFormLayout;
    auto *top = m_top;
    top->addRow(tr("Name"), m_name);
    top->addRow(tr("Provider"), m_provider);
    m_name->setAccessibleName(tr("Account name"));
    m_provider->setAccessibleName(tr("Provider"));
    layout->addLayout(top);
    m_description->setWordWrap(true);
    layout->addWidget(m_description);
    layout->addWidget(m_form);

    auto *testRow = new QHBoxLayout;
    m_test = new QPushButton(tr("Test connection"), this);
    m_test->setObjectName(QStringLiteral("testConnection"));
    m_test->setAccessibleName(tr("Test connection"));
    m_test->setAutoDefault(false);
    m_spinner = new QProgressBar(this);
    m_spinner->setRange(0, 0); // busy
    m_spinner->setMaximumWidth(60);
    m_spinner->setTextVisible(false);
    m_spinner->setAccessibleName(tr("Testing the connection"));
    m_spinner->hide();
    m_testResult = new QLabel(this);
    m_testResult->setObjectName(QStringLiteral("testResult"));
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    testRow->addWidget(m_test);
    testRow->addWidget(m_spinner);
    testRow->addWidget(m_testResult, 1);
    layout->addLayout(testRow);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("dialogError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_error->hide();
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(m_editing ? tr("Save") : tr("Add"));
    layout->addWidget(buttons);

    for (const auto &f : m_factories.all())
        m_provider->addItem(f->descriptor().displayName, f->descriptor().id);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &AccountDialog::providerChanged);
    connect(m_test, &QPushButton::clicked, this, &AccountDialog::testConnection);
    connect(m_form, &DescriptorForm::changed, this, [this]() {
        // A result for other values would mislead.
        ++m_testGeneration;
        m_spinner->hide();
        m_test->setEnabled(true);
        m_testResult->clear();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this]() {
        const auto a = account();
        if (a.ok())
            return accept();
        m_error->setText(a.message());
        m_error->show();
    });
    providerChanged();
}

void AccountDialog::providerChanged()
{
    const ProviderFactory *f = m_factories.find(m_provider->currentData().toString());
    m_form->setFields(f ? f->descriptor().accountFields : QList<FieldDescriptor>{});
    alignLabels(m_top, m_form);
    m_description->setText(f ? f->descriptor().description : QString());
    if (!m_editing && f)
        m_name->setPlaceholderText(f->descriptor().id);
}

Result<Account> AccountDialog::account() const
{
    Account a = m_editing ? m_existing : Account{};
    a.name = m_name->text().trimmed().isEmpty() ? m_name->placeholderText() : m_name->text().trimmed();
    a.provider = m_provider->currentData().toString();
    if (auto r = AccountStore::validateName(a.name); !r.ok())
        return r.error();
    auto values = m_form->values();
    if (!values.ok())
        return values.error();
    // Secrets are not among the form's values (they go to the keychain), so a required one
    // left empty (and not kept) is caught here.
    const QMap<QString, QString> given = m_form->secrets();
    const QStringList kept = m_form->keptSecrets();
    if (const ProviderFactory *f = m_factories.find(a.provider)) {
        for (const FieldDescriptor &field : f->descriptor().accountFields) {
            if (field.secret && field.required && !given.contains(field.key) && !kept.contains(field.key))
                return makeError(ErrorCode::InvalidArgument, tr("%1 is required").arg(field.label));
        }
    }
    a.settings = values.value();
    if (m_editing) {
        a.secretKeys = kept;
        for (auto it = given.cbegin(); it != given.cend(); ++it) {
            if (!a.secretKeys.contains(it.key()))
                a.secretKeys << it.key();
        }
    }
    return a;
}

QMap<QString, QString> AccountDialog::secrets() const
{
    return m_form->secrets();
}

QStringList AccountDialog::keptSecrets() const
{
    return m_form->keptSecrets();
}

void AccountDialog::setDiscovery(AccountDiscovery discovery)
{
    m_discovery = std::move(discovery);
}

void AccountDialog::runDiscovery()
{
    if (m_editing || m_discoveryStarted || !m_discovery)
        return;
    m_discoveryStarted = true;
    runOffThread<QList<AccountChoice>>(this, m_discovery, [this](QList<AccountChoice> found) { showEngines(found); });
}

void AccountDialog::showEngines(const QList<AccountChoice> &engines)
{
    while (QLayoutItem *item = m_enginesLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (const AccountChoice &e : engines) {
        if (!m_factories.find(e.provider))
            continue;
        auto *button = new QPushButton(tr("Use %1").arg(e.label), m_engines);
        button->setObjectName(QStringLiteral("engine_") + e.settings.value(QStringLiteral("endpoint")).toString());
        button->setAccessibleName(tr("Use %1").arg(e.label));
        button->setAutoDefault(false);
        button->setStyleSheet(QStringLiteral("text-align: left; padding: 4px 8px"));
        connect(button, &QPushButton::clicked, this, [this, e]() { chooseEngine(e); });
        m_enginesLayout->addWidget(button);
    }
    m_engines->setVisible(!m_enginesLayout->isEmpty());
    Q_EMIT enginesDiscovered(m_enginesLayout->count());
}

void AccountDialog::chooseEngine(const AccountChoice &choice)
{
    const int i = m_provider->findData(choice.provider);
    if (i < 0)
        return;
    m_provider->setCurrentIndex(i);
    for (auto it = choice.settings.cbegin(); it != choice.settings.cend(); ++it)
        m_form->setValue(it.key(), it.value());
    if (m_name->text().trimmed().isEmpty())
        m_name->setFocus();
}

void AccountDialog::testConnection()
{
    const int generation = ++m_testGeneration;
    const ProviderFactory *factory = m_factories.find(m_provider->currentData().toString());
    const auto values = m_form->values();
    if (!factory || !values.ok())
        return finishTest(generation, false, values.ok() ? tr("Choose a provider") : values.message());
    AccountConfig config;
    config.name = m_name->text().trimmed().isEmpty() ? m_name->placeholderText() : m_name->text().trimmed();
    config.provider = factory->descriptor().id;
    config.settings = values.value();
    config.secrets = m_form->secrets(); // in memory only, for this test
    m_spinner->show();
    m_test->setEnabled(false);
    m_testResult->setStyleSheet(QString());
    m_testResult->setText(tr("Connecting…"));
    const QStringList kept = m_form->keptSecrets();
    if (!m_editing || kept.isEmpty() || !m_loader)
        return probe(generation, factory, config);
    m_loader(m_existing.name, Callback<AccountConfig>(this, [this, generation, factory, config,
                                                             kept](Result<AccountConfig> stored) mutable {
                 if (!stored.ok())
                     return finishTest(generation, false, stored.message());
                 for (const QString &key : kept)
                     config.secrets.insert(key, stored->secrets.value(key));
                 probe(generation, factory, config);
             }));
}

void AccountDialog::probe(int generation, const ProviderFactory *factory, const AccountConfig &config)
{
    if (generation != m_testGeneration)
        return;
    const auto connect = [this, generation, factory](AccountConfig prepared) {
        if (generation != m_testGeneration)
            return;
        auto made = factory->create(prepared);
        if (!made.ok())
            return finishTest(generation, false, made.message());
        if (m_testProvider)
            m_testProvider.release()->deleteLater();
        m_testProvider = std::move(made.value());
        m_testClock.start();
        m_testProvider->health(Callback<HealthInfo>(this, [this, generation](Result<HealthInfo> h) {
            const qint64 ms = m_testClock.elapsed();
            if (!h.ok())
                return finishTest(generation, false, tr("Could not connect: %1").arg(h.message()));
            QString text = tr("Connected — %1 %2, %3 ms").arg(h->serverName, h->version).arg(ms);
            for (const QString &w : h->warnings)
                text += QLatin1Char('\n') + w;
            finishTest(generation, true, text);
        }));
    };
    // What create() needs first (probing engine sockets) blocks: a worker thread runs it.
    if (auto prep = factory->preparation(config))
        runOffThread<AccountConfig>(
            this, [prep, config]() { return prep(config); }, connect);
    else
        connect(config);
}

void AccountDialog::finishTest(int generation, bool ok, const QString &text)
{
    if (generation != m_testGeneration)
        return;
    m_spinner->hide();
    m_test->setEnabled(true);
    m_testResult->setStyleSheet(ok ? QStringLiteral("color: #1e8449") : QStringLiteral("color: #c0392b"));
    m_testResult->setText(text);
    // The provider is deleted later: this may run inside its own callback.
    if (m_testProvider)
        m_testProvider.release()->deleteLater();
    Q_EMIT connectionTested(ok, text);
}

} // namespace sandbar::ui
