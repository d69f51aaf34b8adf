#include "accounts/SecretStore.h"

#include <qt6keychain/keychain.h>

namespace sandbar {

namespace {

Error keychainError(QKeychain::Error code, const QString &detail)
{
    const auto tr = [](const char *s) { return QCoreApplication::translate("sandbar::KeychainSecretStore", s); };
    switch (code) {
    case QKeychain::EntryNotFound:
        return makeError(ErrorCode::NotFound, tr("No secret is stored in the keychain for this account."));
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied:
        return makeError(ErrorCode::Unauthorized, tr("The keychain refused access: %1").arg(detail));
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
        return makeError(ErrorCode::Unavailable,
                         tr("No keychain is available (%1). Sandbar keeps secrets only in the OS keychain and "
                            "never in plain text: start a Secret Service such as gnome-keyring or KWallet and "
                            "try again.")
                             .arg(detail));
    case QKeychain::OtherError:
    case QKeychain::CouldNotDeleteEntry:
    case QKeychain::NoError: break;
    }
    // QtKeychain reports a missing D-Bus session or Secret Service as OtherError.
    static const char *const unreachable[] = {
        "D-Bus", "dbus", "autolaunch", "Could not connect", "secret service", "org.freedesktop.secrets"};
    for (const char *needle : unreachable) {
        if (detail.contains(QLatin1String(needle), Qt::CaseInsensitive))
            return keychainError(QKeychain::NoBackendAvailable, detail);
    }
    return makeError(ErrorCode::Internal, tr("Keychain error: %1").arg(detail));
}

template <typename Job>
Job *makeJob(const QString &service, const QString &key)
{
    auto *job = new Job(service);
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    job->setKey(key);
    return job;
}

} // namespace

KeychainSecretStore::KeychainSecretStore(QString service)
    : m_service(std::move(service))
{
}

void KeychainSecretStore::write(const QString &key, const QString &value, Callback<void> done)
{
    auto *job = makeJob<QKeychain::WritePasswordJob>(m_service, key);
    job->setTextData(value);
    QObject::connect(job, &QKeychain::Job::finished, job, [done](QKeychain::Job *j) {
        if (j->error() == QKeychain::NoError)
            done(VoidResult{});
        else
            done(keychainError(j->error(), j->errorString()));
    });
    job->start();
}

void KeychainSecretStore::read(const QString &key, Callback<QString> done)
{
    auto *job = makeJob<QKeychain::ReadPasswordJob>(m_service, key);
    QObject::connect(job, &QKeychain::Job::finished, job, [done](QKeychain::Job *j) {
        auto *rj = static_cast<QKeychain::ReadPasswordJob *>(j);
        if (rj->error() == QKeychain::NoError)
            done(rj->textData());
        else
            done(keychainError(rj->error(), rj->errorString()));
    });
    job->start();
}

void KeychainSecretStore::remove(const QString &key, Callback<void> done)
{
    auto *job = makeJob<QKeychain::DeletePasswordJob>(m_service, key);
    QObject::connect(job, &QKeychain::Job::finished, job, [done](QKeychain::Job *j) {
        if (j->error() == QKeychain::NoError || j->error() == QKeychain::EntryNotFound)
            done(VoidResult{});
        else
            done(keychainError(j->error(), j->errorString()));
    });
    job->start();
}

} // namespace sandbar
