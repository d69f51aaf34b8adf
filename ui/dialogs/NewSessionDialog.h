#pragma once

#include "accounts/AccountStore.h"
#include "catalog/Catalog.h"
#include "common/Callback.h"
#include "providers/ProviderFactory.h"
#include "providers/Session.h"

#include <QDialog>
#include <QPointer>
#include <functional>
#include <memory>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace sandbar {
class Provider;
}

namespace sandbar::ui {

class DescriptorForm;

// New session in a chosen account, driven by its provider's descriptor: image (recent ones and
// the engine's own), the create options (DescriptorForm: CPUs, memory, GPUs, environment and
// mounts as tables, ports...), a time limit (one hour unless changed; "No limit" asks first),
// the network (off unless asked). Shows the cost per hour from the catalog as values change.
// With a provider lookup it creates the session itself: the dialog stays open showing the
// pull and create progress, closes on success (created()), and on failure says why inline
// with everything as it was.
class NewSessionDialog : public QDialog
{
    Q_OBJECT
public:
    // The account's provider, made or found by the caller (ProviderRegistry::provider).
    using ProviderLookup = std::function<void(const QString &account, Callback<Provider *> done)>;

    NewSessionDialog(const AccountStore &accounts, const ProviderFactories &factories, const QString &preferredAccount,
                     QWidget *parent = nullptr);
    ~NewSessionDialog() override;

    QString accountName() const;
    Result<CreateSpec> spec() const;

    // Lets the dialog list the engine's images and create the session itself; without it,
    // Create only accepts and the caller creates from spec().
    void setProviderLookup(ProviderLookup lookup);
    // Prices for the estimate; without one only self-hosted providers get a figure.
    void setCatalog(std::shared_ptr<const catalog::Catalog> catalog);
    // "New session like this": account, image, limits, environment, mounts, network of s.
    void prefill(const SessionInfo &s);

    // The cost line as shown ("$0.00/h — runs on your own machine…").
    QString costText() const;
    bool isCreating() const { return m_creating; }

    // Recent images, newest first (QSettings, at most 10).
    static QStringList recentImages();
    static void rememberImage(const QString &image);

    // The time limit chosen, in seconds (0: none).
    qint64 askedTtl() const;

Q_SIGNALS:
    void created(const sandbar::SessionInfo &session);
    // Images listed for the chosen account (tests wait on it).
    void imagesListed(const QStringList &images);

private:
    // The parts of the dialog, built by the constructor in this order.
    void layOutFields(QVBoxLayout *layout);
    void setUpFields();
    void buildCost(QVBoxLayout *layout);
    void buildProgressArea(QVBoxLayout *layout);
    // The error line above the buttons, then the buttons (Create, Cancel), not yet connected.
    QDialogButtonBox *buildButtons(QVBoxLayout *layout);
    void accountChanged();
    void listEngineImages();
    void fillImages(const QStringList &engineImages);
    void updateCost();
    void ttlChanged(int index);
    void create();
    void createProgress(const QString &name, const QString &text, qint64 done, qint64 total);
    void finishCreate(const Result<SessionInfo> &result);
    void setBusy(bool busy);
    void showError(const QString &message);
    const ProviderDescriptor *descriptor() const;

    const AccountStore &m_accounts;
    const ProviderFactories &m_factories;
    ProviderLookup m_lookup;
    std::shared_ptr<const catalog::Catalog> m_catalog;
    QFormLayout *m_top = nullptr;
    QComboBox *m_account;
    QLineEdit *m_name;
    QComboBox *m_image;
    QLabel *m_imageLabel;
    QComboBox *m_ttl;
    QLabel *m_ttlLabel;
    QWidget *m_ttlRow;
    QLabel *m_ttlNote; // who enforces the limit, for cloud services (Sandbar, the plan)
    DescriptorForm *m_form;
    QWidget *m_fields;
    QLabel *m_cost;
    QWidget *m_progressArea;
    QLabel *m_progressText;
    QProgressBar *m_progressBar;
    QLabel *m_error = nullptr; // what is wrong with the input, shown above the buttons
    QPushButton *m_createButton = nullptr;
    int m_ttlIndex = 0; // the last confirmed choice, to go back to when "No limit" is declined
    bool m_creating = false;
    int m_generation = 0; // bumps on each account change and create, so late answers are dropped
    QPointer<Provider> m_provider;
    QString m_creatingName;
};

} // namespace sandbar::ui
