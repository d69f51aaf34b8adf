#include "PreferencesDialog.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFontComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {

QLabel *note(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    label->setFont(f);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

// A labelled row whose label is the field's buddy: screen readers read the label, and
// its mnemonic focuses the field.
void addRow(QFormLayout *form, const QString &label, QWidget *field, const QString &name)
{
    auto *l = new QLabel(label, form->parentWidget());
    l->setBuddy(field);
    field->setAccessibleName(name);
    form->addRow(l, field);
}

QSpinBox *periodSpin(QWidget *parent, const QString &object)
{
    auto *spin = new QSpinBox(parent);
    spin->setObjectName(object);
    spin->setRange(Preferences::MinPeriodMs, Preferences::MaxPeriodMs);
    spin->setSingleStep(250);
    spin->setSuffix(PreferencesDialog::tr(" ms"));
    return spin;
}

} // namespace

PreferencesDialog::PreferencesDialog(PreferencesStore &store, QWidget *parent)
    : QDialog(parent)
    , m_store(store)
    , m_defaultFamily(QFontDatabase::systemFont(QFontDatabase::FixedFont).family())
{
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(tr("Preferences"));
    setAccessibleName(tr("Preferences"));

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("preferencesTabs"));
    m_tabs->setAccessibleName(tr("Preference pages"));
    m_tabs->addTab(makeAppearanceTab(), tr("&Appearance"));
    m_tabs->addTab(makeTerminalTab(), tr("&Terminal"));
    m_tabs->addTab(makeSessionsTab(), tr("&Sessions"));
    m_tabs->addTab(makeTrayTab(), tr("T&ray"));
    m_tabs->addTab(makeAgentsTab(), tr("A&gents"));

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Apply, this);
    m_buttons->setObjectName(QStringLiteral("preferencesButtons"));
    m_buttons->button(QDialogButtonBox::Ok)->setAccessibleName(tr("Save and close"));
    m_buttons->button(QDialogButtonBox::Cancel)->setAccessibleName(tr("Close without saving"));
    m_buttons->button(QDialogButtonBox::Apply)->setAccessibleName(tr("Apply"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this]() {
        // The dialog stays open on a failed save, so the edits are not lost with it.
        if (apply())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &PreferencesDialog::apply);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("saveError"));
    m_error->setWordWrap(true);
    m_error->setForegroundRole(QPalette::BrightText);
    m_error->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    setPreferences(m_store.preferences());
    setTrayAvailable(true);
    connect(&m_store, &PreferencesStore::changed, this, &PreferencesDialog::updateApply);
    resize(sizeHint().expandedTo(QSize(520, 0)));
}

QWidget *PreferencesDialog::makeAppearanceTab()
{
    auto *page = new QWidget(this);
    page->setObjectName(QStringLiteral("appearancePage"));
    auto *form = new QFormLayout(page);
    m_theme = new QComboBox(page);
    m_theme->setObjectName(QStringLiteral("theme"));
    m_theme->addItem(tr("Follow the system"), int(ThemeMode::System));
    m_theme->addItem(tr("Light"), int(ThemeMode::Light));
    m_theme->addItem(tr("Dark"), int(ThemeMode::Dark));
    addRow(form, tr("&Theme:"), m_theme, tr("Theme"));
    form->addRow(note(tr("Terminals use the same light or dark colours as the window."), page));
    connect(m_theme, &QComboBox::currentIndexChanged, this, &PreferencesDialog::updateApply);
    return page;
}

QWidget *PreferencesDialog::makeTerminalTab()
{
    auto *page = new QWidget(this);
    page->setObjectName(QStringLiteral("terminalPage"));
    auto *form = new QFormLayout(page);

    m_fontFamily = new QFontComboBox(page);
    m_fontFamily->setObjectName(QStringLiteral("fontFamily"));
    m_fontFamily->setFontFilters(QFontComboBox::MonospacedFonts);
    m_fontFamily->setEditable(false);
    addRow(form, tr("&Font:"), m_fontFamily, tr("Terminal font"));

    m_fontSize = new QSpinBox(page);
    m_fontSize->setObjectName(QStringLiteral("fontSize"));
    // The value below the smallest size stands for the system's own size.
    m_fontSize->setRange(Preferences::MinFontSize - 1, Preferences::MaxFontSize);
    m_fontSize->setSpecialValueText(tr("Default"));
    m_fontSize->setSuffix(tr(" pt"));
    addRow(form, tr("Font &size:"), m_fontSize, tr("Terminal font size"));

    m_scrollback = new QSpinBox(page);
    m_scrollback->setObjectName(QStringLiteral("scrollback"));
    m_scrollback->setRange(Preferences::MinScrollback, Preferences::MaxScrollback);
    m_scrollback->setSingleStep(1000);
    m_scrollback->setSuffix(tr(" lines"));
    m_scrollback->setGroupSeparatorShown(true);
    addRow(form, tr("Scroll&back:"), m_scrollback, tr("Scrollback lines"));

    m_copyOnSelect = new QCheckBox(tr("&Copy selected text automatically"), page);
    m_copyOnSelect->setObjectName(QStringLiteral("copyOnSelect"));
    form->addRow(m_copyOnSelect);
    form->addRow(note(tr("Font and scrollback apply to terminals opened from now on."), page));

    connect(m_fontFamily, &QFontComboBox::currentFontChanged, this, &PreferencesDialog::updateApply);
    connect(m_fontSize, &QSpinBox::valueChanged, this, &PreferencesDialog::updateApply);
    connect(m_scrollback, &QSpinBox::valueChanged, this, &PreferencesDialog::updateApply);
    connect(m_copyOnSelect, &QCheckBox::toggled, this, &PreferencesDialog::updateApply);
    return page;
}

QWidget *PreferencesDialog::makeSessionsTab()
{
    auto *page = new QWidget(this);
    page->setObjectName(QStringLiteral("sessionsPage"));
    auto *form = new QFormLayout(page);

    // The same choices as the New Session dialog, so the default is always one it offers.
    m_ttl = new QComboBox(page);
    m_ttl->setObjectName(QStringLiteral("defaultTtl"));
    const QList<QPair<QString, qint64>> limits = {{tr("15 minutes"), 900},   {tr("1 hour"), 3600},
                                                  {tr("4 hours"), 4 * 3600}, {tr("8 hours"), 8 * 3600},
                                                  {tr("1 day"), 86400},      {tr("No limit"), 0}};
    for (const auto &[text, seconds] : limits)
        m_ttl->addItem(text, seconds);
    addRow(form, tr("Default &time limit:"), m_ttl, tr("Default session time limit"));

    m_listPeriod = periodSpin(page, QStringLiteral("listPeriod"));
    addRow(form, tr("Statistics in the &list every:"), m_listPeriod, tr("Statistics period in the session list"));
    m_detailPeriod = periodSpin(page, QStringLiteral("detailPeriod"));
    addRow(form, tr("Statistics in &charts every:"), m_detailPeriod, tr("Statistics period in the charts"));
    form->addRow(
        note(tr("New sessions start with this time limit. Statistics periods apply at the next start."), page));

    connect(m_ttl, &QComboBox::currentIndexChanged, this, &PreferencesDialog::updateApply);
    connect(m_listPeriod, &QSpinBox::valueChanged, this, &PreferencesDialog::updateApply);
    connect(m_detailPeriod, &QSpinBox::valueChanged, this, &PreferencesDialog::updateApply);
    return page;
}

QWidget *PreferencesDialog::makeTrayTab()
{
    auto *page = new QWidget(this);
    page->setObjectName(QStringLiteral("trayPage"));
    auto *form = new QFormLayout(page);
    m_closeToTray = new QCheckBox(tr("&Keep running in the tray when the window is closed"), page);
    m_closeToTray->setObjectName(QStringLiteral("closeToTray"));
    form->addRow(m_closeToTray);
    m_notifications = new QCheckBox(tr("Show &notifications (failures, time limits, budgets)"), page);
    m_notifications->setObjectName(QStringLiteral("notifications"));
    form->addRow(m_notifications);
    m_trayNote = note(tr("This desktop has no system tray: closing the window quits Sandbar."), page);
    m_trayNote->setObjectName(QStringLiteral("trayNote"));
    form->addRow(m_trayNote);
    connect(m_closeToTray, &QCheckBox::toggled, this, &PreferencesDialog::updateApply);
    connect(m_notifications, &QCheckBox::toggled, this, &PreferencesDialog::updateApply);
    return page;
}

QWidget *PreferencesDialog::makeAgentsTab()
{
    auto *page = new QWidget(this);
    page->setObjectName(QStringLiteral("agentsPage"));
    auto *form = new QFormLayout(page);
    form->addRow(note(tr("Agents reach Sandbar through sandbarctl mcp (set it as a stdio MCP server in the agent), "
                         "or over HTTP while this window runs. Both follow the agent policy of the Agents view."),
                      page));
    m_mcpHttp = new QCheckBox(tr("Serve &MCP over HTTP on this computer (127.0.0.1 only)"), page);
    m_mcpHttp->setObjectName(QStringLiteral("mcpHttp"));
    form->addRow(m_mcpHttp);
    m_mcpPort = new QSpinBox(page);
    m_mcpPort->setObjectName(QStringLiteral("mcpPort"));
    m_mcpPort->setRange(Preferences::MinPort, Preferences::MaxPort);
    addRow(form, tr("&Port:"), m_mcpPort, tr("MCP HTTP port"));
    m_mcpUrl = new QLabel(page);
    m_mcpUrl->setObjectName(QStringLiteral("mcpUrl"));
    m_mcpUrl->setTextInteractionFlags(Qt::TextSelectableByMouse);
    addRow(form, tr("Address:"), m_mcpUrl, tr("MCP HTTP address"));

    auto *tokenRow = new QWidget(page);
    auto *tokenLayout = new QHBoxLayout(tokenRow);
    tokenLayout->setContentsMargins(0, 0, 0, 0);
    m_mcpToken = new QLineEdit(tokenRow);
    m_mcpToken->setObjectName(QStringLiteral("mcpToken"));
    m_mcpToken->setReadOnly(true);
    // A secret: hidden unless asked for, so it does not end up in a screenshot.
    m_mcpToken->setEchoMode(QLineEdit::Password);
    m_mcpToken->setAccessibleName(tr("MCP HTTP bearer token"));
    m_mcpShow = new QPushButton(tr("S&how"), tokenRow);
    m_mcpShow->setObjectName(QStringLiteral("mcpShowToken"));
    m_mcpShow->setCheckable(true);
    auto *copy = new QPushButton(tr("&Copy"), tokenRow);
    copy->setObjectName(QStringLiteral("mcpCopyToken"));
    auto *renew = new QPushButton(tr("&New token"), tokenRow);
    renew->setObjectName(QStringLiteral("mcpNewToken"));
    renew->setToolTip(tr("Makes a new token; agents using the old one are refused from now on."));
    tokenLayout->addWidget(m_mcpToken, 1);
    tokenLayout->addWidget(m_mcpShow);
    tokenLayout->addWidget(copy);
    tokenLayout->addWidget(renew);
    addRow(form, tr("Bearer &token:"), tokenRow, tr("MCP HTTP bearer token and its buttons"));
    form->addRow(note(tr("Every request must carry the header Authorization: Bearer followed by the token, and "
                         "requests from web pages are refused. The token is kept in the system keychain."),
                      page));
    m_mcpProblem = note(QString(), page);
    m_mcpProblem->setObjectName(QStringLiteral("mcpProblem"));
    m_mcpProblem->setVisible(false);
    form->addRow(m_mcpProblem);

    connect(m_mcpHttp, &QCheckBox::toggled, this, &PreferencesDialog::updateApply);
    connect(m_mcpHttp, &QCheckBox::toggled, m_mcpPort, &QWidget::setEnabled);
    connect(m_mcpPort, &QSpinBox::valueChanged, this, &PreferencesDialog::updateApply);
    connect(m_mcpShow, &QPushButton::toggled, m_mcpToken,
            [this](bool shown) { m_mcpToken->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password); });
    connect(copy, &QPushButton::clicked, m_mcpToken, [this] {
        if (!m_mcpToken->text().isEmpty())
            QGuiApplication::clipboard()->setText(m_mcpToken->text());
    });
    connect(renew, &QPushButton::clicked, this, &PreferencesDialog::newMcpTokenRequested);
    setMcpEndpoint(QString(), QString(), QString());
    return page;
}

void PreferencesDialog::setMcpEndpoint(const QString &url, const QString &token, const QString &problem)
{
    m_mcpUrl->setText(url.isEmpty() ? tr("not serving") : url);
    m_mcpToken->setText(token);
    m_mcpToken->setPlaceholderText(tr("made when HTTP is first turned on"));
    m_mcpProblem->setText(problem.isEmpty() ? QString() : tr("Not serving: %1").arg(problem));
    m_mcpProblem->setVisible(!problem.isEmpty());
}

void PreferencesDialog::setTrayAvailable(bool available)
{
    m_closeToTray->setEnabled(available);
    m_trayNote->setVisible(!available);
}

void PreferencesDialog::setPreferences(const Preferences &p)
{
    m_shown = p;
    m_theme->setCurrentIndex(qMax(0, m_theme->findData(int(p.theme))));
    const QString family = p.terminalFontFamily.isEmpty() ? m_defaultFamily : p.terminalFontFamily;
    m_fontFamily->setCurrentFont(QFont(family));
    m_familyShown = m_fontFamily->currentFont().family();
    m_fontSize->setValue(p.terminalFontSize > 0 ? p.terminalFontSize : m_fontSize->minimum());
    m_scrollback->setValue(p.scrollbackLines);
    m_copyOnSelect->setChecked(p.copyOnSelect);
    int ttl = m_ttl->findData(p.defaultTtlSeconds);
    if (ttl < 0) {
        // A value set by hand in sandbar.ini: shown as it is, and kept unless changed.
        const qint64 s = p.defaultTtlSeconds;
        const QString text = s % 3600 == 0 ? tr("%n hour(s)", "", int(s / 3600))
                             : s % 60 == 0 ? tr("%n minute(s)", "", int(s / 60))
                                           : tr("%n second(s)", "", int(s));
        m_ttl->addItem(text, s);
        ttl = m_ttl->count() - 1;
    }
    m_ttl->setCurrentIndex(ttl);
    m_shown = p;
    m_listPeriod->setValue(p.statsListPeriodMs);
    m_detailPeriod->setValue(p.statsDetailPeriodMs);
    m_closeToTray->setChecked(p.closeToTray);
    m_notifications->setChecked(p.notifications);
    m_mcpHttp->setChecked(p.mcpHttp);
    m_mcpPort->setValue(p.mcpHttpPort);
    m_mcpPort->setEnabled(p.mcpHttp);
    updateApply();
}

Preferences PreferencesDialog::edited() const
{
    Preferences p = m_shown;
    p.theme = ThemeMode(m_theme->currentData().toInt());
    const QString family = m_fontFamily->currentFont().family();
    // Untouched, the stored choice stays (the box may show a near match of an alias
    // such as "Monospace"); picking the system's fixed font means following the system.
    if (family != m_familyShown)
        p.terminalFontFamily = family == m_defaultFamily ? QString() : family;
    p.terminalFontSize = m_fontSize->value() == m_fontSize->minimum() ? 0 : m_fontSize->value();
    p.scrollbackLines = m_scrollback->value();
    p.copyOnSelect = m_copyOnSelect->isChecked();
    p.defaultTtlSeconds = m_ttl->currentData().toLongLong();
    p.statsListPeriodMs = m_listPeriod->value();
    p.statsDetailPeriodMs = m_detailPeriod->value();
    p.closeToTray = m_closeToTray->isChecked();
    p.notifications = m_notifications->isChecked();
    p.mcpHttp = m_mcpHttp->isChecked();
    p.mcpHttpPort = m_mcpPort->value();
    return p;
}

bool PreferencesDialog::apply()
{
    const QSettings::Status status = m_store.set(edited());
    updateApply();
    m_error->setVisible(status != QSettings::NoError);
    if (status != QSettings::NoError)
        m_error->setText(tr("The preferences could not be saved to %1. They apply until Sandbar quits.")
                             .arg(QDir::toNativeSeparators(m_store.iniPath())));
    return status == QSettings::NoError;
}

void PreferencesDialog::updateApply()
{
    if (!m_buttons)
        return;
    m_buttons->button(QDialogButtonBox::Apply)->setEnabled(!(edited() == m_store.preferences()));
}

} // namespace sandbar::ui
