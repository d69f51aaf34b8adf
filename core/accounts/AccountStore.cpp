#include "accounts/AccountStore.h"

#include "common/OffThread.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QStringDecoder>
#include <QThreadPool>
#include <algorithm>
#include <memory>

namespace sandbar {

namespace {

constexpr int kSettingsVersion = 1;

// The store's own keys. Not in a group called "general": QSettings writes any group of
// that name, in any case, as [%General] and reads it back as "General", so on Linux a key
// under "general/" was never found again (and each write added another section).
const QString kStoreGroup = QStringLiteral("store");
const QString kVersionKey = QStringLiteral("store/version");
const QString kDefaultsKey = QStringLiteral("store/defaultsCreated");
const QString kKeptAsideKey = QStringLiteral("store/valuesKeptAside");
const QString kKeptProblemsKey = QStringLiteral("store/valuesKeptFor");
const QString kLegacyGroup = QStringLiteral("General");

// Why the INI file at path is not one Sandbar wrote, or empty. QSettings reads almost
// anything (random bytes become keys, a line without '=' is dropped) and writes back only
// what it understood, so a damaged file must be caught before the first write.
QString settingsFileProblem(const QString &path)
{
    QFile f(path);
    if (!f.exists())
        return {};
    if (!f.open(QIODevice::ReadOnly))
        return f.errorString();
    const QByteArray bytes = f.readAll();
    if (bytes.contains('\0'))
        return AccountStore::tr("it holds binary data");
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString text = utf8(bytes);
    if (utf8.hasError())
        return AccountStore::tr("it is not UTF-8 text");
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char(';')) || line.startsWith(QLatin1Char('#')) ||
            (line.startsWith(QLatin1Char('[')) && line.endsWith(QLatin1Char(']'))) || line.contains(QLatin1Char('=')))
            continue;
        return AccountStore::tr("line %1 is neither a [section] nor a key=value pair").arg(i + 1);
    }
    return {};
}

// Values of the wrong type (an account's provider that is not text, a version that is not
// a number): the file parsed, but a write would replace what QSettings could not read.
// Each problem has a key that does not depend on the language, so a later start can tell
// whether a copy already keeps the values.
struct ValueProblems {
    QStringList keys;
    QString first;
};

ValueProblems settingsValueProblems(QSettings &settings)
{
    ValueProblems out;
    const QVariant version = settings.value(kVersionKey);
    bool ok = true;
    if (version.isValid())
        (void)version.toString().toInt(&ok);
    if (!ok) {
        out.keys << QStringLiteral("version");
        out.first = AccountStore::tr("the version is not a number");
    }
    settings.beginGroup(QStringLiteral("accounts"));
    for (const QString &name : settings.childGroups()) {
        const QVariant provider = settings.value(name + QStringLiteral("/provider"));
        if (provider.typeId() != QMetaType::QString || provider.toString().isEmpty()) {
            out.keys << QStringLiteral("provider:") + name;
            if (out.first.isEmpty())
                out.first = AccountStore::tr("account '%1' names no provider").arg(name);
        }
    }
    settings.endGroup();
    return out;
}

// Where a damaged file is kept: stamped to the second, with a count when a copy from the
// same second is already there, so that no copy is ever overwritten.
QString asidePath(const QString &path)
{
    const QString stem = path + QStringLiteral(".corrupt-") +
                         QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString candidate = stem;
    for (int n = 2; QFileInfo::exists(candidate); ++n)
        candidate = stem + QLatin1Char('-') + QString::number(n);
    return candidate;
}

} // namespace

AccountStore::AccountStore(const QString &configDir, const ProviderFactories &factories, SecretStore &secrets,
                           QObject *parent)
    : QObject(parent)
    , m_configDir(configDir)
    , m_factories(factories)
    , m_secrets(secrets)
{
    QDir().mkpath(configDir);
    const QString path = QDir(configDir).filePath(QStringLiteral("sandbar.ini"));
    QString problem = settingsFileProblem(path);
    if (problem.isEmpty()) {
        m_settings = std::make_unique<QSettings>(path, QSettings::IniFormat);
        if (m_settings->status() != QSettings::NoError)
            problem = tr("it is not a valid settings file");
    }
    if (!problem.isEmpty()) {
        // Keep what was there for the user to inspect; start afresh beside it.
        m_settings.reset();
        const QString aside = asidePath(path);
        if (QFile::rename(path, aside)) {
            m_loadWarning = tr("The settings file %1 could not be read (%2); it was kept as %3 and Sandbar started "
                               "with empty settings.")
                                .arg(path, problem, aside);
        } else {
            m_loadWarning = tr("The settings file %1 could not be read (%2) and could not be kept aside; Sandbar "
                               "will not change it.")
                                .arg(path, problem);
        }
        m_settings = std::make_unique<QSettings>(path, QSettings::IniFormat);
    } else {
        migrateLegacyKeys();
        keepWrongValues(path);
    }
    if (m_settings->value(kVersionKey).toInt() != kSettingsVersion)
        m_settings->setValue(kVersionKey, kSettingsVersion);
}

AccountStore::~AccountStore() = default;

void AccountStore::migrateLegacyKeys()
{
    // Files written before the store's keys moved hold them (some twice) under [%General].
    if (!m_settings->childGroups().contains(kLegacyGroup))
        return;
    m_settings->beginGroup(kLegacyGroup);
    const QStringList keys = m_settings->childKeys();
    QVariantMap values;
    for (const QString &k : keys)
        values.insert(k, m_settings->value(k));
    m_settings->endGroup();
    m_settings->remove(kLegacyGroup);
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        const QString key = kStoreGroup + QLatin1Char('/') + it.key();
        if (!m_settings->contains(key))
            m_settings->setValue(key, it.value());
    }
}

void AccountStore::keepWrongValues(const QString &path)
{
    const ValueProblems wrong = settingsValueProblems(*m_settings);
    if (wrong.keys.isEmpty()) {
        m_settings->remove(kKeptAsideKey);
        m_settings->remove(kKeptProblemsKey);
        return;
    }
    // The first start that meets the values copies the file, before its first write turns
    // them into what QSettings understood. Later starts find nothing new to keep as long as
    // the problems are among those the copy was made for, so copies do not pile up.
    const QString keptName = m_settings->value(kKeptAsideKey).toString();
    const QStringList keptFor = m_settings->value(kKeptProblemsKey).toStringList();
    const QString kept = QDir(m_configDir).filePath(keptName);
    const bool covered =
        std::all_of(wrong.keys.cbegin(), wrong.keys.cend(), [&](const QString &k) { return keptFor.contains(k); });
    if (!keptName.isEmpty() && !keptName.contains(QLatin1Char('/')) && covered && QFileInfo::exists(kept)) {
        m_loadWarning = tr("The settings file %1 still has values Sandbar cannot use (%2); the copy made when they "
                           "were found is %3.")
                            .arg(path, wrong.first, kept);
        return;
    }
    const QString aside = asidePath(path);
    if (QFile::copy(path, aside)) {
        m_settings->setValue(kKeptAsideKey, QFileInfo(aside).fileName());
        m_settings->setValue(kKeptProblemsKey, wrong.keys);
        m_loadWarning = tr("The settings file %1 has values Sandbar cannot use (%2); a copy was kept as %3.")
                            .arg(path, wrong.first, aside);
    } else {
        m_loadWarning = tr("The settings file %1 has values Sandbar cannot use (%2).").arg(path, wrong.first);
    }
}

QString AccountStore::dataDirFor(const QString &name) const
{
    return QDir(m_configDir).filePath(QStringLiteral("data/") + name);
}

QList<Account> AccountStore::accounts() const
{
    QList<Account> out;
    m_settings->beginGroup(QStringLiteral("accounts"));
    const auto names = m_settings->childGroups();
    m_settings->endGroup();
    for (const auto &n : names) {
        if (auto a = find(n))
            out << *a;
    }
    return out;
}

std::optional<Account> AccountStore::find(const QString &name) const
{
    if (!validateName(name).ok())
        return std::nullopt;
    const QString g = QStringLiteral("accounts/") + name;
    if (!m_settings->childGroups().contains(QStringLiteral("accounts")))
        return std::nullopt;
    m_settings->beginGroup(g);
    const bool exists = m_settings->contains(QStringLiteral("provider"));
    Account a;
    if (exists) {
        a.name = name;
        a.provider = m_settings->value(QStringLiteral("provider")).toString();
        a.created = m_settings->value(QStringLiteral("created")).toDateTime();
        a.secretKeys = m_settings->value(QStringLiteral("secretKeys")).toStringList();
        m_settings->beginGroup(QStringLiteral("settings"));
        for (const auto &k : m_settings->childKeys())
            a.settings.insert(k, m_settings->value(k));
        m_settings->endGroup();
    }
    m_settings->endGroup();
    if (!exists)
        return std::nullopt;
    return a;
}

VoidResult AccountStore::validateName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    if (!re.match(name).hasMatch())
        return makeError(ErrorCode::InvalidArgument,
                         tr("'%1' is not a valid account name: use letters, digits, '.', '_' and '-' (at most 64, "
                            "starting with a letter or digit)")
                             .arg(name));
    return {};
}

VoidResult AccountStore::validate(const Account &account, const QMap<QString, QString> &secrets) const
{
    if (auto r = validateName(account.name); !r.ok())
        return r;
    const ProviderFactory *factory = m_factories.find(account.provider);
    if (!factory)
        return makeError(ErrorCode::InvalidArgument,
                         tr("Unknown provider '%1'; known providers: %2")
                             .arg(account.provider, m_factories.ids().join(QLatin1String(", "))));
    const auto &desc = factory->descriptor();
    for (auto it = account.settings.cbegin(); it != account.settings.cend(); ++it) {
        const FieldDescriptor *f = desc.accountField(it.key());
        if (!f)
            return makeError(ErrorCode::InvalidArgument,
                             tr("%1 accounts have no setting '%2'").arg(desc.displayName, it.key()));
        if (f->secret)
            return makeError(ErrorCode::InvalidArgument,
                             tr("'%1' is a secret and is kept only in the keychain").arg(f->label));
        if (auto r = validateFieldValue(*f, it.value()); !r.ok())
            return r;
    }
    for (auto it = secrets.cbegin(); it != secrets.cend(); ++it) {
        const FieldDescriptor *f = desc.accountField(it.key());
        if (!f || !f->secret)
            return makeError(ErrorCode::InvalidArgument,
                             tr("%1 accounts have no secret '%2'").arg(desc.displayName, it.key()));
    }
    for (const auto &f : desc.accountFields) {
        if (!f.required)
            continue;
        const bool present = f.secret ? secrets.contains(f.key) : account.settings.contains(f.key);
        if (!present)
            return makeError(ErrorCode::InvalidArgument, tr("%1 accounts need '%2'").arg(desc.displayName, f.label));
    }
    return {};
}

QString AccountStore::secretKey(const QString &account, const QString &field) const
{
    // The config directory is part of the key so that two directories never share secrets.
    return QStringLiteral("%1|%2|%3").arg(QDir(m_configDir).absolutePath(), account, field);
}

VoidResult AccountStore::commitSettings()
{
    m_settings->sync();
    if (m_settings->status() == QSettings::NoError)
        return {};
    const QString path = m_settings->fileName();
    // Read back what the disk holds: the change that failed must not look done, and
    // QSettings keeps an error status until it is made again.
    m_settings = std::make_unique<QSettings>(path, QSettings::IniFormat);
    return makeError(ErrorCode::Unavailable,
                     tr("The settings file %1 could not be written (a read-only folder or a full disk?); "
                        "nothing was changed.")
                         .arg(path));
}

VoidResult AccountStore::writeAccount(const Account &account)
{
    const QString g = QStringLiteral("accounts/") + account.name;
    m_settings->remove(g);
    m_settings->beginGroup(g);
    m_settings->setValue(QStringLiteral("provider"), account.provider);
    m_settings->setValue(QStringLiteral("created"),
                         account.created.isValid() ? account.created : QDateTime::currentDateTimeUtc());
    if (!account.secretKeys.isEmpty())
        m_settings->setValue(QStringLiteral("secretKeys"), account.secretKeys);
    m_settings->beginGroup(QStringLiteral("settings"));
    for (auto it = account.settings.cbegin(); it != account.settings.cend(); ++it)
        m_settings->setValue(it.key(), it.value());
    m_settings->endGroup();
    m_settings->endGroup();
    return commitSettings();
}

void AccountStore::add(const Account &account, const QMap<QString, QString> &secrets, Callback<void> done)
{
    if (auto r = validate(account, secrets); !r.ok())
        return done(r);
    if (find(account.name))
        return done(makeError(ErrorCode::Conflict, tr("An account named '%1' already exists").arg(account.name)));
    Account stored = account;
    stored.secretKeys = secrets.keys();
    writeSecrets(
        account.name, secrets,
        [this, stored, done]() {
            if (auto w = writeAccount(stored); !w.ok())
                return done(w);
            Q_EMIT accountAdded(stored);
            Q_EMIT accountsChanged();
            done(VoidResult{});
        },
        done);
}

void AccountStore::update(const Account &account, const QMap<QString, QString> &replacedSecrets, Callback<void> done)
{
    const auto existing = find(account.name);
    if (!existing)
        return done(makeError(ErrorCode::NotFound, tr("No account named '%1'").arg(account.name)));
    if (existing->provider != account.provider)
        return done(makeError(ErrorCode::InvalidArgument,
                              tr("An account's provider cannot change; add a new account instead")));
    // Secrets kept in the keychain count as present for the required-field check.
    QMap<QString, QString> check = replacedSecrets;
    for (const QString &key : existing->secretKeys) {
        if (!check.contains(key))
            check.insert(key, QString());
    }
    if (auto r = validate(account, check); !r.ok())
        return done(r);
    Account stored = account;
    stored.created = existing->created;
    stored.secretKeys = check.keys();
    writeSecrets(
        account.name, replacedSecrets,
        [this, stored, done]() {
            if (auto w = writeAccount(stored); !w.ok())
                return done(w);
            Q_EMIT accountUpdated(stored.name);
            Q_EMIT accountsChanged();
            done(VoidResult{});
        },
        done);
}

// One secret after another; `then` runs once all are stored, `done` hears the first failure.
void AccountStore::writeSecrets(const QString &account, const QMap<QString, QString> &secrets,
                                std::function<void()> then, Callback<void> done)
{
    auto pending = std::make_shared<QList<QPair<QString, QString>>>();
    for (auto it = secrets.cbegin(); it != secrets.cend(); ++it)
        pending->append({secretKey(account, it.key()), it.value()});
    auto step = std::make_shared<std::function<void()>>();
    *step = [this, pending, then = std::move(then), done, step]() {
        if (pending->isEmpty()) {
            then();
            *step = nullptr; // break the cycle
            return;
        }
        const auto [key, value] = pending->takeFirst();
        m_secrets.write(key, value, Callback<void>(this, [step, done](VoidResult r) {
                            if (!r.ok()) {
                                done(r);
                                *step = nullptr;
                                return;
                            }
                            (*step)();
                        }));
    };
    (*step)();
}

void AccountStore::remove(const QString &name, Callback<void> done)
{
    const auto account = find(name);
    if (!account)
        return done(makeError(ErrorCode::NotFound, tr("No account named '%1'").arg(name)));
    m_settings->remove(QStringLiteral("accounts/") + name);
    if (auto w = commitSettings(); !w.ok())
        return done(w);
    Q_EMIT accountRemoved(*account);
    Q_EMIT accountsChanged();
    // Secrets go after the settings: a failure here leaves no account pointing at them.
    for (const auto &field : account->secretKeys)
        m_secrets.remove(secretKey(name, field), Callback<void>(this, [](VoidResult) {}));
    done(VoidResult{});
}

AccountConfig configWithoutSecrets(const Account &account)
{
    AccountConfig config;
    config.name = account.name;
    config.provider = account.provider;
    config.settings = account.settings;
    return config;
}

void AccountStore::loadConfig(const QString &name, Callback<AccountConfig> done)
{
    const auto account = find(name);
    if (!account)
        return done(makeError(ErrorCode::NotFound, tr("No account named '%1'").arg(name)));
    auto config = std::make_shared<AccountConfig>(configWithoutSecrets(*account));
    config->dataDir = dataDirFor(name);
    auto pending = std::make_shared<QStringList>(account->secretKeys);
    auto step = std::make_shared<std::function<void()>>();
    *step = [this, pending, config, done, step, name]() {
        if (pending->isEmpty()) {
            done(*config);
            *step = nullptr;
            return;
        }
        const QString field = pending->takeFirst();
        m_secrets.read(secretKey(name, field), Callback<QString>(this, [step, done, config, field](Result<QString> r) {
                           if (!r.ok()) {
                               done(r.error());
                               *step = nullptr;
                               return;
                           }
                           config->secrets.insert(field, r.value());
                           (*step)();
                       }));
    };
    (*step)();
}

QStringList AccountStore::createDefaultAccounts()
{
    if (m_settings->value(kDefaultsKey).toBool())
        return {};
    QList<QPair<QString, QVariantMap>> detected;
    for (const auto &factory : m_factories.all()) {
        if (find(factory->descriptor().id))
            continue;
        if (const auto settings = factory->detectDefault())
            detected.append({factory->descriptor().id, *settings});
    }
    return addDefaultAccounts(detected);
}

void AccountStore::createDefaultAccounts(Callback<QStringList> done)
{
    if (m_settings->value(kDefaultsKey).toBool())
        return done.post(QStringList{});
    QList<const ProviderFactory *> factories;
    for (const auto &factory : m_factories.all()) {
        if (!find(factory->descriptor().id))
            factories.append(factory.get());
    }
    if (!m_detectPool)
        m_detectPool = std::make_unique<QThreadPool>();
    using Detected = QList<QPair<QString, QVariantMap>>;
    runOffThread<Detected>(
        this,
        [factories] {
            Detected detected;
            for (const ProviderFactory *factory : factories) {
                if (const auto settings = factory->detectDefault())
                    detected.append({factory->descriptor().id, *settings});
            }
            return detected;
        },
        [this, done](Detected detected) { done(addDefaultAccounts(detected)); }, m_detectPool.get());
}

QStringList AccountStore::addDefaultAccounts(const QList<QPair<QString, QVariantMap>> &detected)
{
    const QString &flag = kDefaultsKey;
    if (m_settings->value(flag).toBool())
        return {};
    QStringList added;
    for (const auto &[id, settings] : detected) {
        if (find(id)) // added meanwhile
            continue;
        Account a;
        a.name = id;
        a.provider = id;
        a.settings = settings;
        if (!validate(a, {}).ok())
            continue;
        if (!writeAccount(a).ok())
            break;
        added << id;
    }
    m_settings->setValue(flag, true);
    (void)commitSettings(); // a read-only folder: probed again at the next start
    if (!added.isEmpty())
        Q_EMIT accountsChanged();
    return added;
}

} // namespace sandbar
