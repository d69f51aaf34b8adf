#include "dialogs/NewSessionDialog.h"

#include "costs/CostModel.h"
#include "dialogs/DescriptorForm.h"
#include "providers/Provider.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {

constexpr int kRecentImages = 10;
const char *const kRecentKey = "newSession/recentImages";
constexpr qint64 kDefaultTtl = 3600;

// Options the dialog shows itself rather than through the descriptor form.
bool ownWidget(const QString &key)
{
    return key == QLatin1String(createkeys::Image) || key == QLatin1String(createkeys::Ttl) ||
           key == QLatin1String(createkeys::Name);
}

QString usd(double v)
{
    return QStringLiteral("$") + QString::number(v, 'f', v > 0 && v < 1 ? 3 : 2);
}

} // namespace

NewSessionDialog::NewSessionDialog(const AccountStore &accounts, const ProviderFactories &factories,
                                   const QString &preferredAccount, QWidget *parent)
    : QDialog(parent)
    , m_accounts(accounts)
    , m_factories(factories)
    , m_account(new QComboBox(this))
    , m_name(new QLineEdit(this))
    , m_image(new QComboBox(this))
    , m_imageLabel(new QLabel(tr("Image *"), this))
    , m_ttl(new QComboBox(this))
    , m_ttlLabel(new QLabel(tr("Time limit"), this))
    , m_ttlRow(new QWidget(this))
    , m_ttlNote(new QLabel(m_ttlRow))
    , m_form(new DescriptorForm(this))
    , m_fields(new QWidget(this))
    , m_cost(new QLabel(this))
    , m_progressArea(new QWidget(this))
    , m_progressText(new QLabel(m_progressArea))
    , m_progressBar(new QProgressBar(m_progressArea))
{
    setWindowTitle(tr("New session"));
    auto *layout = new QVBoxLayout(this);
    layOutFields(layout);
    setUpFields();
    buildCost(layout);
    buildProgressArea(layout);
    QDialogButtonBox *buttons = buildButtons(layout);

    for (const auto &a : accounts.accounts())
        m_account->addItem(QStringLiteral("%1 (%2)").arg(a.name, a.provider), a.name);
    if (const int i = m_account->findData(preferredAccount); i >= 0)
        m_account->setCurrentIndex(i);
    connect(m_account, &QComboBox::currentIndexChanged, this, &NewSessionDialog::accountChanged);
    connect(m_ttl, &QComboBox::currentIndexChanged, this, &NewSessionDialog::ttlChanged);
    connect(m_form, &DescriptorForm::changed, this, &NewSessionDialog::updateCost);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, &NewSessionDialog::create);
    accountChanged();
}

NewSessionDialog::~NewSessionDialog() = default;

void NewSessionDialog::layOutFields(QVBoxLayout *layout)
{
    auto *fieldsLayout = new QVBoxLayout(m_fields);
    fieldsLayout->setContentsMargins(0, 0, 0, 0);
    m_top = new QFormLayout;
    auto *top = m_top;
    top->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    top->addRow(tr("Account"), m_account);
    top->addRow(tr("Name"), m_name);
    top->addRow(m_imageLabel, m_image);
    auto *ttlRow = new QHBoxLayout(m_ttlRow);
    ttlRow->setContentsMargins(0, 0, 0, 0);
    m_ttl->setParent(m_ttlRow);
    ttlRow->addWidget(m_ttl);
    ttlRow->addWidget(m_ttlNote, 1);
    m_ttlNote->setObjectName(QStringLiteral("ttlNote"));
    m_ttlNote->setWordWrap(true);
    m_ttlNote->setForegroundRole(QPalette::PlaceholderText);
    top->addRow(m_ttlLabel, m_ttlRow);
    fieldsLayout->addLayout(top);
    fieldsLayout->addWidget(m_form);
    layout->addWidget(m_fields);
}

void NewSessionDialog::setUpFields()
{
    m_account->setAccessibleName(tr("Account"));
    m_name->setAccessibleName(tr("Session name"));
    m_name->setPlaceholderText(tr("optional"));
    m_account->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_image->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_image->setObjectName(QStringLiteral("image"));
    m_image->setEditable(true);
    m_image->setInsertPolicy(QComboBox::NoInsert);
    m_image->setAccessibleName(tr("Image"));
    m_image->lineEdit()->setPlaceholderText(tr("e.g. python:3.12-slim"));
    m_imageLabel->setBuddy(m_image);
    m_ttl->setObjectName(QStringLiteral("ttl"));
    m_ttl->setSizeAdjustPolicy(QComboBox::AdjustToContents); // "3h (as before)" comes later
    m_ttl->setAccessibleName(tr("Time limit"));
    m_ttl->setToolTip(tr("The session ends itself after this long, even with Sandbar closed"));
    m_ttlLabel->setBuddy(m_ttl);
    const QList<QPair<QString, qint64>> limits = {{tr("15 minutes"), 900},   {tr("1 hour"), 3600},
                                                  {tr("4 hours"), 4 * 3600}, {tr("8 hours"), 8 * 3600},
                                                  {tr("1 day"), 86400},      {tr("No limit"), 0}};
    for (const auto &[text, seconds] : limits)
        m_ttl->addItem(text, seconds);
    m_ttlIndex = m_ttl->findData(kDefaultTtl);
    m_ttl->setCurrentIndex(m_ttlIndex);
}

void NewSessionDialog::buildCost(QVBoxLayout *layout)
{
    m_cost->setObjectName(QStringLiteral("costEstimate"));
    m_cost->setWordWrap(true);
    m_cost->setAccessibleName(tr("Estimated cost"));
    m_cost->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_cost);
}

void NewSessionDialog::buildProgressArea(QVBoxLayout *layout)
{
    m_progressArea->setObjectName(QStringLiteral("progressArea"));
    auto *progressLayout = new QVBoxLayout(m_progressArea);
    progressLayout->setContentsMargins(0, 0, 0, 0);
    m_progressText->setObjectName(QStringLiteral("progressText"));
    m_progressBar->setObjectName(QStringLiteral("progressBar"));
    m_progressBar->setAccessibleName(tr("Progress"));
    m_progressBar->setTextVisible(false);
    progressLayout->addWidget(m_progressText);
    progressLayout->addWidget(m_progressBar);
    m_progressArea->hide();
    layout->addWidget(m_progressArea);
}

QDialogButtonBox *NewSessionDialog::buildButtons(QVBoxLayout *layout)
{
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("dialogError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_createButton = buttons->button(QDialogButtonBox::Ok);
    m_createButton->setText(tr("Create"));
    layout->addWidget(buttons);
    return buttons;
}

QString NewSessionDialog::accountName() const
{
    return m_account->currentData().toString();
}

const ProviderDescriptor *NewSessionDialog::descriptor() const
{
    const auto account = m_accounts.find(accountName());
    const ProviderFactory *f = account ? m_factories.find(account->provider) : nullptr;
    return f ? &f->descriptor() : nullptr;
}

void NewSessionDialog::setProviderLookup(ProviderLookup lookup)
{
    m_lookup = std::move(lookup);
    listEngineImages(); // the form keeps what was filled in (prefill may come first)
}

void NewSessionDialog::setCatalog(std::shared_ptr<const catalog::Catalog> catalog)
{
    m_catalog = std::move(catalog);
    updateCost();
}

void NewSessionDialog::accountChanged()
{
    const ProviderDescriptor *d = descriptor();
    QList<FieldDescriptor> fields;
    for (const FieldDescriptor &f : d ? d->createOptions : QList<FieldDescriptor>{}) {
        if (!ownWidget(f.key))
            fields << f;
    }
    m_form->setFields(fields);
    const FieldDescriptor *image = d ? d->createOption(QLatin1String(createkeys::Image)) : nullptr;
    m_image->setVisible(image);
    m_imageLabel->setVisible(image);
    if (image) {
        m_imageLabel->setText(image->required ? image->label + QStringLiteral(" *") : image->label);
        m_image->setToolTip(image->help);
        m_image->lineEdit()->setPlaceholderText(image->defaultValue.isValid() ? image->defaultValue.toString()
                                                                              : tr("e.g. python:3.12-slim"));
    }
    const FieldDescriptor *ttlField = d ? d->createOption(QLatin1String(createkeys::Ttl)) : nullptr;
    m_ttlRow->setVisible(ttlField);
    m_ttlLabel->setVisible(ttlField);
    if (ttlField) {
        // The provider's own words: who enforces the limit and what caps it. A cloud
        // service's limit works differently (Sandbar enforces it, or the plan caps it), so
        // there it is also written beside the choice.
        m_ttl->setToolTip(ttlField->help);
        m_ttlNote->setText(d->selfHosted ? QString() : ttlField->help);
        m_ttlNote->setVisible(!d->selfHosted);
        // "No limit" only where the provider has such a thing (E2B always ends a sandbox).
        const bool noLimit = !ttlField->minimum.isValid() || ttlField->minimum.toLongLong() <= 0;
        const int noLimitRow = m_ttl->findData(qint64(0));
        if (auto *view = qobject_cast<QListView *>(m_ttl->view()); view && noLimitRow >= 0)
            view->setRowHidden(noLimitRow, !noLimit);
        if (!noLimit && m_ttl->itemData(m_ttlIndex).toLongLong() == 0) {
            m_ttlIndex = m_ttl->findData(kDefaultTtl);
            const QSignalBlocker block(m_ttl);
            m_ttl->setCurrentIndex(m_ttlIndex);
        }
    }
    alignLabels(m_top, m_form);
    fillImages({});
    updateCost();
    // Already shown ("New session like this", or the user switching accounts): fit the new
    // form, or a provider with fewer options leaves a gap the height of the previous one's.
    if (isVisible())
        QTimer::singleShot(0, this, [this]() { resize(width(), sizeHint().height()); });
    listEngineImages();
}

void NewSessionDialog::listEngineImages()
{
    const ProviderDescriptor *d = descriptor();
    const int generation = ++m_generation;
    if (!d || !d->createOption(QLatin1String(createkeys::Image)) || !m_lookup || accountName().isEmpty())
        return;
    m_lookup(accountName(), Callback<Provider *>(this, [this, generation](Result<Provider *> p) {
                 // Not every provider lists images; the recent ones are offered anyway.
                 if (!p.ok() || generation != m_generation || !p.value()->images())
                     return;
                 p.value()->images()->listImages(
                     Callback<QStringList>(this, [this, generation](Result<QStringList> images) {
                         if (generation != m_generation || !images.ok())
                             return;
                         fillImages(images.value());
                         Q_EMIT imagesListed(images.value());
                     }));
             }));
}

void NewSessionDialog::fillImages(const QStringList &engineImages)
{
    const QString typed = m_image->currentText();
    const QSignalBlocker block(m_image);
    m_image->clear();
    const QStringList recent = recentImages();
    m_image->addItems(recent);
    QStringList local;
    for (const QString &i : engineImages) {
        if (!recent.contains(i))
            local << i;
    }
    if (!recent.isEmpty() && !local.isEmpty())
        m_image->insertSeparator(m_image->count());
    m_image->addItems(local);
    m_image->setCurrentText(typed.isEmpty() && !recent.isEmpty() ? recent.first() : typed);
}

void NewSessionDialog::ttlChanged(int index)
{
    if (m_ttl->itemData(index).toLongLong() != 0) {
        m_ttlIndex = index;
        return updateCost();
    }
    if (index == m_ttlIndex)
        return;
    auto *box = new QMessageBox(QMessageBox::Warning, tr("No time limit"),
                                tr("Without a time limit the session runs, and may cost money, until you stop it. "
                                   "Run it without a limit?"),
                                QMessageBox::Yes | QMessageBox::No, this);
    box->setObjectName(QStringLiteral("confirmNoLimit"));
    box->setDefaultButton(QMessageBox::No);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, index](int result) {
        if (result == QMessageBox::Yes) {
            m_ttlIndex = index;
        } else {
            const QSignalBlocker block(m_ttl);
            m_ttl->setCurrentIndex(m_ttlIndex);
        }
    });
    box->open();
}

QString NewSessionDialog::costText() const
{
    return m_cost->text();
}

void NewSessionDialog::updateCost()
{
    const ProviderDescriptor *d = descriptor();
    if (!d) {
        m_cost->clear();
        return;
    }
    if (d->selfHosted) {
        m_cost->setText(tr("$0.00/h — runs on your own machine: %1 uses this computer's (or your engine's) CPU "
                           "and memory, and no provider bills by the hour.")
                            .arg(d->displayName));
        return;
    }
    const catalog::ProviderEntry *entry = m_catalog ? m_catalog->forProvider(d->catalogId(), d->id) : nullptr;
    if (!entry) {
        m_cost->setText(tr("Cost per hour unknown: the catalog has no prices for %1.").arg(d->displayName));
        return;
    }
    const auto values = m_form->values();
    const QVariantMap v = values.ok() ? values.value() : QVariantMap{};
    costs::LiveResources r;
    r.vcpus = v.value(QLatin1String(createkeys::Cpus), 1.0).toDouble();
    r.memoryGib = double(v.value(QLatin1String(createkeys::Memory), qint64(1) << 30).toLongLong()) / (1 << 30);
    const CreateSpec spec = createSpecFromOptions(v);
    if (spec.gpus != 0 && entry->gpus && !entry->gpus->isEmpty()) {
        r.gpuType = entry->gpus->first().type;
        r.gpuCount = spec.gpus < 0 ? 1 : spec.gpus;
    }
    const costs::LiveCost c = costs::liveCost(*entry, r, 0);
    if (!c.known) {
        m_cost->setText(tr("Cost per hour unknown: %1").arg(c.reason));
        return;
    }
    QString what = tr("%1 vCPU, %2 GiB").arg(r.vcpus).arg(r.memoryGib);
    if (!r.gpuType.isEmpty())
        what += tr(", %1 × %2").arg(r.gpuCount).arg(r.gpuType);
    m_cost->setText(
        tr("About %1/h for %2 at %3's published prices, while it runs.").arg(usd(c.usdPerHour), what, entry->name));
}

Result<CreateSpec> NewSessionDialog::spec() const
{
    const ProviderDescriptor *d = descriptor();
    if (accountName().isEmpty() || !d)
        return makeError(ErrorCode::InvalidArgument, tr("Add an account first"));
    auto values = m_form->values();
    if (!values.ok())
        return values.error();
    QVariantMap options = values.value();
    if (const FieldDescriptor *image = d->createOption(QLatin1String(createkeys::Image))) {
        const QString text = m_image->currentText().trimmed();
        if (text.isEmpty() && image->required)
            return makeError(ErrorCode::InvalidArgument, tr("%1 is required").arg(image->label));
        if (!text.isEmpty()) {
            auto v = parseFieldValue(*image, text);
            if (!v.ok())
                return v.error();
            options.insert(image->key, v.value());
        }
    }
    if (d->createOption(QLatin1String(createkeys::Ttl)))
        options.insert(QLatin1String(createkeys::Ttl), m_ttl->itemData(m_ttlIndex).toLongLong());
    CreateSpec s = createSpecFromOptions(options);
    if (!m_name->text().trimmed().isEmpty())
        s.name = m_name->text().trimmed();
    return s;
}

QStringList NewSessionDialog::recentImages()
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList().mid(0, kRecentImages);
}

void NewSessionDialog::rememberImage(const QString &image)
{
    if (image.trimmed().isEmpty())
        return;
    QStringList recent = recentImages();
    recent.removeAll(image.trimmed());
    recent.prepend(image.trimmed());
    QSettings().setValue(QLatin1String(kRecentKey), recent.mid(0, kRecentImages));
}

void NewSessionDialog::showError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

void NewSessionDialog::setBusy(bool busy)
{
    m_creating = busy;
    // Disabled, not cleared: a failure hands the same form back.
    m_fields->setEnabled(!busy);
    m_createButton->setEnabled(!busy);
    m_progressArea->setVisible(busy);
    if (busy) {
        m_progressText->setText(tr("Creating…"));
        m_progressBar->setRange(0, 0);
    }
}

void NewSessionDialog::create()
{
    if (m_creating)
        return;
    const auto s = spec();
    if (!s.ok())
        return showError(s.message());
    showError({});
    if (!m_lookup) {
        rememberImage(s->image);
        return accept();
    }
    setBusy(true);
    const int generation = ++m_generation;
    m_creatingName = s->name;
    m_lookup(accountName(), Callback<Provider *>(this, [this, generation, spec = s.value()](Result<Provider *> p) {
                 if (generation != m_generation)
                     return;
                 if (!p.ok())
                     return finishCreate(p.error());
                 m_provider = p.value();
                 connect(m_provider, &Provider::createProgress, this, &NewSessionDialog::createProgress);
                 m_provider->create(spec, Callback<SessionInfo>(this, [this, generation](Result<SessionInfo> r) {
                                        if (generation == m_generation)
                                            finishCreate(r);
                                    }));
             }));
}

void NewSessionDialog::createProgress(const QString &name, const QString &text, qint64 done, qint64 total)
{
    // The dialog's own create: the name it asked for (a provider may drop an invalid one).
    if (!m_creating || (!name.isEmpty() && !m_creatingName.isEmpty() && name != m_creatingName))
        return;
    m_progressText->setText(text);
    if (total > 0) {
        m_progressBar->setRange(0, 1000);
        m_progressBar->setValue(int(std::clamp<qint64>(done * 1000 / total, 0, 1000)));
    } else {
        m_progressBar->setRange(0, 0);
    }
}

void NewSessionDialog::finishCreate(const Result<SessionInfo> &result)
{
    if (m_provider)
        disconnect(m_provider, &Provider::createProgress, this, &NewSessionDialog::createProgress);
    setBusy(false);
    if (!result.ok())
        return showError(tr("Creating the session failed: %1").arg(result.message()));
    rememberImage(result->image.isEmpty() ? m_image->currentText() : result->image);
    Q_EMIT created(result.value());
    accept();
}

qint64 NewSessionDialog::askedTtl() const
{
    return m_ttl->itemData(m_ttlIndex).toLongLong();
}

void NewSessionDialog::prefill(const SessionInfo &s)
{
    if (const int i = m_account->findData(s.account); i >= 0 && i != m_account->currentIndex())
        m_account->setCurrentIndex(i); // rebuilds the form for that provider
    m_image->setCurrentText(s.image);
    if (s.cpus)
        m_form->setValue(QLatin1String(createkeys::Cpus), *s.cpus);
    if (s.memoryBytes)
        m_form->setValue(QLatin1String(createkeys::Memory), *s.memoryBytes);
    m_form->setValue(QLatin1String(createkeys::Network), s.network);
    if (!s.gpuUuids.isEmpty())
        m_form->setValue(QLatin1String(createkeys::Gpus), s.gpuUuids.join(QLatin1Char(',')));
    else if (s.gpus != 0)
        m_form->setValue(QLatin1String(createkeys::Gpus), s.gpus < 0 ? QStringLiteral("all") : QString::number(s.gpus));
    QStringList mounts;
    for (const MountSpec &m : s.mounts)
        mounts << m.hostPath + QLatin1Char(':') + m.sessionPath + (m.readOnly ? QStringLiteral(":ro") : QString());
    m_form->setValue(QLatin1String(createkeys::Mounts), mounts);
    // The environment is known where the provider's own description carries it (Docker's
    // Config.Env); the image's PATH is the image's, not the session's.
    const QJsonObject raw = QJsonDocument::fromJson(s.rawJson).object();
    QStringList env;
    for (const QJsonValue &e : raw.value(QStringLiteral("Config")).toObject().value(QStringLiteral("Env")).toArray()) {
        if (!e.toString().startsWith(QLatin1String("PATH=")))
            env << e.toString();
    }
    if (!env.isEmpty())
        m_form->setValue(QLatin1String(createkeys::Env), env);
    int ttl = m_ttl->findData(s.ttlSeconds);
    if (ttl < 0) {
        m_ttl->addItem(
            tr("%1 (as before)").arg(fieldValueText(FieldDescriptor{{}, {}, {}, FieldType::Duration}, s.ttlSeconds)),
            s.ttlSeconds);
        ttl = m_ttl->count() - 1;
    }
    // The earlier session's own choice: no need to ask again about "No limit".
    m_ttlIndex = ttl;
    const QSignalBlocker block(m_ttl);
    m_ttl->setCurrentIndex(ttl);
    updateCost();
}

} // namespace sandbar::ui
