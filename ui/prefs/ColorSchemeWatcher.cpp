#include "ColorSchemeWatcher.h"

#include "Preferences.h"

#include <QApplication>
#include <QDBusError>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusServiceWatcher>
#include <QDBusVariant>
#include <QEvent>
#include <QGuiApplication>
#include <QLoggingCategory>
#include <QSettings>
#include <QTimer>

namespace sandbar::ui {

namespace {

Q_LOGGING_CATEGORY(lcTheme, "sandbar.theme", QtWarningMsg)

const QString kService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString kPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString kInterface = QStringLiteral("org.freedesktop.portal.Settings");
const QString kNamespace = QStringLiteral("org.freedesktop.appearance");
const QString kKey = QStringLiteral("color-scheme");
constexpr int kPortalTimeoutMs = 3000;

// Read wraps the value in one more variant than ReadOne; unwrap whatever is there.
QVariant unwrap(QVariant v)
{
    for (int i = 0; i < 4 && v.metaType() == QMetaType::fromType<QDBusVariant>(); ++i)
        v = qvariant_cast<QDBusVariant>(v).variant();
    return v;
}

} // namespace

ColorSchemeWatcher::ColorSchemeWatcher(QObject *parent)
    : QObject(parent)
    , m_fallback(QGuiApplication::palette())
{
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS) && !defined(Q_OS_ANDROID)
    m_bus = QDBusConnection::sessionBus();
#endif
}

ColorSchemeWatcher::ColorSchemeWatcher(const QDBusConnection &bus, QObject *parent)
    : QObject(parent)
    , m_bus(bus)
    , m_fallback(QGuiApplication::palette())
{
}

ColorSchemeWatcher::~ColorSchemeWatcher() = default;

std::optional<ColorScheme> ColorSchemeWatcher::fromPortalValue(int value)
{
    switch (value) {
    case 1: return ColorScheme::Dark;
    case 2: return ColorScheme::Light;
    default: return std::nullopt;
    }
}

void ColorSchemeWatcher::start()
{
    if (m_started)
        return;
    m_started = true;
    if (m_bus) {
        if (!m_bus->isConnected()) {
            qCDebug(lcTheme) << "no session bus; following the palette";
            update(std::nullopt, Source::Fallback);
            return;
        }
        // QtDBus has no pointer-to-member connect for bus signals: it takes a slot signature
        // ("1" is the code SLOT() would prepend). It resolves the parameter types by name, so
        // QDBusVariant must be registered before a reply happens to do it. A false return is
        // a mismatch between this signature and the slot, which tst_colorscheme would catch.
        qRegisterMetaType<QDBusVariant>();
        m_subscribed = m_bus->connect(kService, kPath, kInterface, QStringLiteral("SettingChanged"), this,
                                      "1onSettingChanged(QString,QString,QDBusVariant)");
        if (!m_subscribed)
            qCWarning(lcTheme) << "cannot follow SettingChanged:" << m_bus->lastError().message();
        // A portal started after us (a session still coming up) is read when it appears.
        auto *services = new QDBusServiceWatcher(kService, *m_bus, QDBusServiceWatcher::WatchForRegistration, this);
        connect(services, &QDBusServiceWatcher::serviceRegistered, this, [this]() { readPortal(true); });
        readPortal(true);
        return;
    }
#ifdef Q_OS_WIN
    readRegistry();
    // Windows says nothing Qt 6.4 passes on when the setting flips: read it again now and then.
    auto *poll = new QTimer(this);
    poll->setInterval(3000);
    connect(poll, &QTimer::timeout, this, &ColorSchemeWatcher::readRegistry);
    poll->start();
#else
    readPalette();
    if (qApp)
        qApp->installEventFilter(this);
#endif
}

void ColorSchemeWatcher::readPortal(bool readOne)
{
    QDBusMessage msg = QDBusMessage::createMethodCall(kService, kPath, kInterface,
                                                      readOne ? QStringLiteral("ReadOne") : QStringLiteral("Read"));
    msg << kNamespace << kKey;
    auto *call = new QDBusPendingCallWatcher(m_bus->asyncCall(msg, kPortalTimeoutMs), this);
    connect(call, &QDBusPendingCallWatcher::finished, this,
            [this, readOne](QDBusPendingCallWatcher *w) { onPortalReply(w, readOne); });
}

void ColorSchemeWatcher::onPortalReply(QDBusPendingCallWatcher *call, bool readOne)
{
    call->deleteLater();
    const QDBusMessage reply = call->reply();
    if (reply.type() == QDBusMessage::ErrorMessage) {
        const QString name = reply.errorName();
        // Portals before version 2 of the Settings interface have Read only.
        if (readOne && name == QLatin1String("org.freedesktop.DBus.Error.UnknownMethod"))
            return readPortal(false);
        // No portal, or one that does not know the key: the palette decides, quietly.
        qCDebug(lcTheme) << "portal color-scheme unavailable:" << name << reply.errorMessage();
        if (!m_scheme || m_source != Source::Portal)
            update(std::nullopt, Source::Fallback);
        return;
    }
    const QVariant value = reply.arguments().isEmpty() ? QVariant() : unwrap(reply.arguments().constFirst());
    bool ok = false;
    const int n = int(value.toUInt(&ok));
    setPortalValue(ok ? n : 0);
}

void ColorSchemeWatcher::onSettingChanged(const QString &ns, const QString &key, const QDBusVariant &value)
{
    if (ns != kNamespace || key != kKey)
        return;
    bool ok = false;
    const int n = int(unwrap(value.variant()).toUInt(&ok));
    setPortalValue(ok ? n : 0);
}

void ColorSchemeWatcher::setPortalValue(int value)
{
    m_portalValue = value;
    update(fromPortalValue(value), Source::Portal);
}

void ColorSchemeWatcher::readRegistry()
{
#ifdef Q_OS_WIN
    const QSettings personalize(
        QStringLiteral("HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Themes\\Personalize"),
        QSettings::NativeFormat);
    const QVariant light = personalize.value(QStringLiteral("AppsUseLightTheme"));
    if (!light.isValid())
        return update(std::nullopt, Source::Fallback);
    update(light.toInt() == 0 ? ColorScheme::Dark : ColorScheme::Light, Source::Registry);
#endif
}

void ColorSchemeWatcher::readPalette()
{
    update(colorSchemeOf(QGuiApplication::palette()), Source::Palette);
}

bool ColorSchemeWatcher::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == qApp && (event->type() == QEvent::ApplicationPaletteChange || event->type() == QEvent::ThemeChange))
        readPalette();
    return QObject::eventFilter(watched, event);
}

void ColorSchemeWatcher::update(std::optional<ColorScheme> scheme, Source source)
{
    const ColorScheme now = scheme.value_or(colorSchemeOf(m_fallback));
    const bool first = !m_scheme.has_value();
    const bool differs = first || *m_scheme != now;
    m_scheme = now;
    m_source = source;
    if (differs)
        Q_EMIT schemeChanged(now);
}

void followTheme(QApplication &app, PreferencesStore &store, ColorSchemeWatcher &watcher)
{
    const auto apply = [&app, &store, &watcher]() {
        Theme::applyMode(app, store.preferences().theme, watcher.scheme());
    };
    QObject::connect(&watcher, &ColorSchemeWatcher::schemeChanged, &watcher, apply);
    QObject::connect(&store, &PreferencesStore::changed, &watcher,
                     [apply](const Preferences &now, const Preferences &before) {
                         if (now.theme != before.theme)
                             apply();
                     });
    // The fallback now, so the first frame is already themed; the desktop's answer follows.
    apply();
    watcher.start();
}

} // namespace sandbar::ui
