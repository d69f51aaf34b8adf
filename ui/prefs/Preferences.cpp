#include "Preferences.h"

#include "terminal/TerminalView.h"

#include <QFontDatabase>

namespace sandbar::ui {

namespace {

const QString kTheme = QStringLiteral("appearance/theme");
const QString kFontFamily = QStringLiteral("terminal/fontFamily");
const QString kFontSize = QStringLiteral("terminal/fontSize");
const QString kScrollback = QStringLiteral("terminal/scrollbackLines");
const QString kCopyOnSelect = QStringLiteral("terminal/copyOnSelect");
const QString kListPeriod = QStringLiteral("stats/listPeriodMs");
const QString kDetailPeriod = QStringLiteral("stats/detailPeriodMs");
const QString kTtl = QStringLiteral("sessions/defaultTtlSeconds");
const QString kCloseToTray = QStringLiteral("tray/closeToTray");
const QString kNotifications = QStringLiteral("tray/notifications");
const QString kMcpHttp = QStringLiteral("mcp/httpEnabled");
const QString kMcpHttpPort = QStringLiteral("mcp/httpPort");

// A hand-edited file may hold anything: only a clean integer in range replaces the default.
template <typename T>
void readInt(const QSettings &s, const QString &key, T min, T max, T &out)
{
    const QVariant v = s.value(key);
    if (!v.isValid())
        return;
    bool ok = false;
    const qlonglong n = v.toString().trimmed().toLongLong(&ok);
    if (ok && n >= qlonglong(min) && n <= qlonglong(max))
        out = T(n);
}

// QVariant::toBool takes any non-empty string but "false"/"0" as true; be strict instead.
void readBool(const QSettings &s, const QString &key, bool &out)
{
    const QVariant v = s.value(key);
    if (!v.isValid())
        return;
    const QString t = v.toString().trimmed().toLower();
    if (t == QLatin1String("true") || t == QLatin1String("1") || t == QLatin1String("yes"))
        out = true;
    else if (t == QLatin1String("false") || t == QLatin1String("0") || t == QLatin1String("no"))
        out = false;
}

} // namespace

QString themeModeName(ThemeMode mode)
{
    switch (mode) {
    case ThemeMode::Light: return QStringLiteral("light");
    case ThemeMode::Dark: return QStringLiteral("dark");
    case ThemeMode::System: break;
    }
    return QStringLiteral("system");
}

Preferences Preferences::load(const QSettings &s)
{
    Preferences p;
    const QString theme = s.value(kTheme).toString().trimmed().toLower();
    if (theme == QLatin1String("light"))
        p.theme = ThemeMode::Light;
    else if (theme == QLatin1String("dark"))
        p.theme = ThemeMode::Dark;
    const QString family = s.value(kFontFamily).toString().trimmed();
    // A family name is one line of printable text; anything else is a damaged file.
    if (family.size() <= 200 && !family.contains(QLatin1Char('\n')))
        p.terminalFontFamily = family;
    readInt(s, kFontSize, MinFontSize, MaxFontSize, p.terminalFontSize);
    readInt(s, kScrollback, MinScrollback, MaxScrollback, p.scrollbackLines);
    readBool(s, kCopyOnSelect, p.copyOnSelect);
    readInt(s, kListPeriod, MinPeriodMs, MaxPeriodMs, p.statsListPeriodMs);
    readInt(s, kDetailPeriod, MinPeriodMs, MaxPeriodMs, p.statsDetailPeriodMs);
    readInt(s, kTtl, qint64(0), MaxTtlSeconds, p.defaultTtlSeconds);
    readBool(s, kCloseToTray, p.closeToTray);
    readBool(s, kNotifications, p.notifications);
    readBool(s, kMcpHttp, p.mcpHttp);
    readInt(s, kMcpHttpPort, MinPort, MaxPort, p.mcpHttpPort);
    return p;
}

void Preferences::save(QSettings &s) const
{
    s.setValue(kTheme, themeModeName(theme));
    s.setValue(kFontFamily, terminalFontFamily);
    s.setValue(kFontSize, terminalFontSize);
    s.setValue(kScrollback, scrollbackLines);
    s.setValue(kCopyOnSelect, copyOnSelect);
    s.setValue(kListPeriod, statsListPeriodMs);
    s.setValue(kDetailPeriod, statsDetailPeriodMs);
    s.setValue(kTtl, defaultTtlSeconds);
    s.setValue(kCloseToTray, closeToTray);
    s.setValue(kNotifications, notifications);
    s.setValue(kMcpHttp, mcpHttp);
    s.setValue(kMcpHttpPort, mcpHttpPort);
}

bool shouldHideOnClose(const Preferences &prefs, bool trayAvailable)
{
    return prefs.closeToTray && trayAvailable;
}

TerminalSettings terminalSettingsFrom(const Preferences &prefs, TerminalSettings base)
{
    base.copyOnSelect = prefs.copyOnSelect;
    return base;
}

void applyTerminalPreferences(TerminalView *view, const Preferences &prefs)
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (!prefs.terminalFontFamily.isEmpty())
        font.setFamily(prefs.terminalFontFamily);
    if (prefs.terminalFontSize > 0)
        font.setPointSize(prefs.terminalFontSize);
    font.setStyleHint(QFont::TypeWriter);
    view->setTerminalFont(font);
    view->setCopyOnSelect(prefs.copyOnSelect);
    if (view->screen())
        view->screen()->setScrollbackLimit(prefs.scrollbackLines);
}

PreferencesStore::PreferencesStore(const QString &iniPath, QObject *parent)
    : QObject(parent)
    , m_path(iniPath)
{
    reload();
}

QSettings::Status PreferencesStore::set(const Preferences &prefs)
{
    QSettings settings(m_path, QSettings::IniFormat);
    prefs.save(settings);
    settings.sync();
    if (prefs == m_prefs)
        return settings.status();
    const Preferences before = m_prefs;
    m_prefs = prefs;
    Q_EMIT changed(m_prefs, before);
    return settings.status();
}

void PreferencesStore::reload()
{
    const QSettings settings(m_path, QSettings::IniFormat);
    const Preferences before = m_prefs;
    m_prefs = Preferences::load(settings);
    if (!(m_prefs == before))
        Q_EMIT changed(m_prefs, before);
}

} // namespace sandbar::ui
