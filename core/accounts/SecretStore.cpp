#include "accounts/SecretStore.h"

#include <QLibrary>
#include <functional>
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

// libsecret, which QtKeychain loads on Linux, keeps one Secret Service proxy and session
// for the life of the process. Once gnome-keyring restarts, that session names an object
// the new daemon never had, and every call fails until the cache is dropped.
bool staleSecretService(QKeychain::Error code, const QString &detail)
{
    if (code != QKeychain::OtherError)
        return false;
    static const char *const stale[] = {
        "session wrapping the secret does not exist", // gnome-keyring: NoSession, storing
        "The session does not exist",                 // the same, reading
        "was not provided by any .service files",     // the name vanished from the bus
        "name has no owner",
        "Remote peer disconnected",
        "No such object path",
        "Connection is closed",
    };
    for (const char *needle : stale) {
        if (detail.contains(QLatin1String(needle), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

// Resolved in the copy of libsecret QtKeychain already loaded (same soname, so the same
// handle and the same cache); a no-op where QtKeychain uses another backend.
void dropCachedSecretService()
{
#if defined(Q_OS_UNIX) && !defined(Q_OS_DARWIN)
    using Disconnect = void (*)();
    static const Disconnect disconnect = [] {
        QLibrary lib(QStringLiteral("secret-1"), 0);
        return lib.load() ? reinterpret_cast<Disconnect>(lib.resolve("secret_service_disconnect")) : nullptr;
    }();
    if (disconnect)
        disconnect();
#endif
}

using JobFactory = std::function<QKeychain::Job *()>;
using JobDone = std::function<void(QKeychain::Job *)>;

// Runs a job; if libsecret's cached service turned out stale, drops it and runs the job
// once more on a fresh connection. A service that is really gone fails the second time
// too and is reported as such.
void runJob(const JobFactory &make, const JobDone &done, bool mayRetry = true)
{
    QKeychain::Job *job = make();
    QObject::connect(job, &QKeychain::Job::finished, job, [make, done, mayRetry](QKeychain::Job *j) {
        if (mayRetry && staleSecretService(j->error(), j->errorString())) {
            dropCachedSecretService();
            runJob(make, done, false);
            return;
        }
        done(j);
    });
    job->start();
}

} // namespace

KeychainSecretStore::KeychainSecretStore(QString service)
    : m_service(std::move(service))
{
}

void KeychainSecretStore::write(const QString &key, const QString &value, Callback<void> done)
{
    runJob(
        [service = m_service, key, value]() -> QKeychain::Job * {
            auto *job = makeJob<QKeychain::WritePasswordJob>(service, key);
            job->setTextData(value);
            return job;
        },
        [done](QKeychain::Job *j) {
            if (j->error() == QKeychain::NoError)
                done(VoidResult{});
            else
                done(keychainError(j->error(), j->errorString()));
        });
}

void KeychainSecretStore::read(const QString &key, Callback<QString> done)
{
    runJob(
        [service = m_service, key]() -> QKeychain::Job * { return makeJob<QKeychain::ReadPasswordJob>(service, key); },
        [done](QKeychain::Job *j) {
            auto *rj = static_cast<QKeychain::ReadPasswordJob *>(j);
            if (rj->error() == QKeychain::NoError)
                done(rj->textData());
            else
                done(keychainError(rj->error(), rj->errorString()));
        });
}

void KeychainSecretStore::remove(const QString &key, Callback<void> done)
{
    runJob([service = m_service,
            key]() -> QKeychain::Job * { return makeJob<QKeychain::DeletePasswordJob>(service, key); },
           [done](QKeychain::Job *j) {
               if (j->error() == QKeychain::NoError || j->error() == QKeychain::EntryNotFound)
                   done(VoidResult{});
               else
                   done(keychainError(j->error(), j->errorString()));
           });
}

} // namespace sandbar
