#include "charts/StatsView.h"

#include "charts/StatsChart.h"

#include <QButtonGroup>
#include <QDateTime>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSet>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace sandbar::ui {

using metrics::Metric;
using metrics::SeriesKey;
using metrics::SessionStats;
using metrics::Window;

namespace {

// Fixed colours so that a figure keeps its colour in every view (lightened on dark themes).
const QColor kCpu(0x1f77b4);
const QColor kMemory(0xff7f0e);
const QColor kRx(0x2ca02c);
const QColor kTx(0x9467bd);
const QColor kRead(0x17becf);
const QColor kWrite(0xe377c2);
const QColor kFilesystem(0x8c8c2a);
const QColor kGpuUtil(0x5f9e00);
const QColor kGpuMemory(0x3f51b5);

// The reading behind a GPU series id (an index, or a MIG device's gpuSeriesId).
const GpuReading *gpuReading(const metrics::StatsHistory &h, int id)
{
    if (!h.latest())
        return nullptr;
    for (const GpuReading &g : h.latest()->gpus)
        if (metrics::gpuSeriesId(g) == id)
            return &g;
    return nullptr;
}

} // namespace

StatsView::StatsView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("statsView"));
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &StatsView::onTick);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statsStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    // A segmented 1 m / 5 m / 1 h switch: checkable buttons side by side, no gap.
    m_windowButtons = new QButtonGroup(this);
    m_windowButtons->setExclusive(true);
    auto *segments = new QHBoxLayout;
    segments->setSpacing(0);
    const std::array<std::pair<Window, QString>, 3> windows{
        {{Window::OneMinute, tr("1 m")}, {Window::FiveMinutes, tr("5 m")}, {Window::OneHour, tr("1 h")}}};
    const std::array<const char *, 3> names{"window1m", "window5m", "window1h"};
    for (std::size_t i = 0; i < windows.size(); ++i) {
        auto *b = new QToolButton(this);
        b->setObjectName(QLatin1String(names[i]));
        b->setText(windows[i].second);
        b->setCheckable(true);
        b->setToolTip(tr("Show the last %1").arg(windows[i].second));
        b->setMinimumWidth(44);
        // The checked segment in bold: some styles barely shade a checked tool button.
        connect(b, &QToolButton::toggled, b, [b](bool on) {
            QFont f = b->font();
            f.setBold(on);
            b->setFont(f);
        });
        m_windowButtons->addButton(b, int(windows[i].first));
        segments->addWidget(b);
        b->setChecked(windows[i].first == m_window);
    }
    connect(m_windowButtons, &QButtonGroup::idClicked, this, [this](int id) { setWindow(Window(id)); });

    auto *top = new QHBoxLayout;
    top->setContentsMargins(8, 6, 8, 2);
    top->addWidget(m_status, 1);
    top->addLayout(segments);

    m_grid = new QWidget;
    m_grid->setObjectName(QStringLiteral("statsGrid"));
    m_gridLayout = new QGridLayout(m_grid);
    m_gridLayout->setContentsMargins(4, 4, 4, 4);
    m_gridLayout->setSpacing(6);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_scroll->setWidget(m_grid);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(m_scroll, 1);

    m_cpu = makeChart(QStringLiteral("statsCpu"), int(units::Kind::Percent));
    m_cpu->setTitle(tr("CPU"));
    m_cpu->setSubtitle(tr("100 % = one core"));
    m_cpu->setLines({{{Metric::Cpu, -1}, tr("CPU"), kCpu}});
    m_memory = makeChart(QStringLiteral("statsMemory"), int(units::Kind::Bytes));
    m_memory->setTitle(tr("Memory"));
    m_memory->setLines({{{Metric::Memory, -1}, tr("Used"), kMemory}});
    m_network = makeChart(QStringLiteral("statsNetwork"), int(units::Kind::BytesPerSecond));
    m_network->setTitle(tr("Network"));
    m_network->setLines({{{Metric::NetworkRx, -1}, tr("Receive"), kRx}, {{Metric::NetworkTx, -1}, tr("Send"), kTx}});
    m_disk = makeChart(QStringLiteral("statsDisk"), int(units::Kind::BytesPerSecond));
    m_disk->setTitle(tr("Disk I/O"));
    m_disk->setLines({{{Metric::DiskRead, -1}, tr("Read"), kRead}, {{Metric::DiskWrite, -1}, tr("Write"), kWrite}});
    m_filesystem = makeChart(QStringLiteral("statsFilesystem"), int(units::Kind::Bytes));
    m_filesystem->setTitle(tr("Filesystem"));
    m_filesystem->setSubtitle(tr("The session's writable storage"));
    m_filesystem->setLines({{{Metric::FilesystemUsed, -1}, tr("Used"), kFilesystem}});

    m_dark = isDark();
    configure();
}

StatsView::~StatsView() = default;

StatsChart *StatsView::makeChart(const QString &name, int kind)
{
    auto *c = new StatsChart(name, units::Kind(kind), m_grid);
    c->applyTheme(isDark());
    c->hide();
    return c;
}

void StatsView::setStats(SessionStats *stats)
{
    if (m_stats == stats)
        return;
    if (m_stats)
        disconnect(m_stats, nullptr, this, nullptr);
    m_stats = stats;
    if (stats) {
        // Cheap while hidden: a flag. The timer (running only while visible) does the work.
        connect(stats, &SessionStats::appended, this, [this] { m_dirty = true; });
        connect(stats, &SessionStats::statusChanged, this, [this] { m_dirty = true; });
        connect(stats, &QObject::destroyed, this, [this] { m_dirty = true; });
    }
    m_dirty = true;
    if (isVisible())
        refresh();
}

void StatsView::setWindow(Window window)
{
    if (window == m_window)
        return;
    m_window = window;
    if (auto *b = m_windowButtons->button(int(window)))
        b->setChecked(true);
    m_dirty = true;
    if (isVisible())
        refresh();
    Q_EMIT windowChanged(window);
}

void StatsView::setClock(const Clock &clock)
{
    m_clock = &clock;
    if (isVisible())
        updateStatus();
}

StatsChart *StatsView::chart(const QString &objectName) const
{
    return m_grid->findChild<StatsChart *>(objectName, Qt::FindDirectChildrenOnly);
}

bool StatsView::isDark() const
{
    return palette().color(QPalette::Window).lightness() < 128;
}

QString StatsView::notProvided() const
{
    const QString provider = m_stats ? m_stats->providerName() : QString();
    return provider.isEmpty() ? tr("Not provided by this provider") : tr("Not provided by %1").arg(provider);
}

void StatsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
    m_timer.start();
}

void StatsView::hideEvent(QHideEvent *event)
{
    m_timer.stop();
    QWidget::hideEvent(event);
}

void StatsView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
        const bool dark = isDark();
        if (dark != m_dark) {
            m_dark = dark;
            for (StatsChart *c : m_grid->findChildren<StatsChart *>(Qt::FindDirectChildrenOnly))
                c->applyTheme(dark);
        }
    }
}

void StatsView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void StatsView::onTick()
{
    if (m_dirty)
        refresh();
    else
        updateStatus(); // the "retrying in 8 s" countdown
}

void StatsView::refresh()
{
    if (!isVisible()) {
        m_dirty = true; // nothing while hidden; the next show does it
        return;
    }
    m_dirty = false;
    configure();
    updateStatus();
    if (!m_stats)
        return;
    const metrics::StatsHistory &h = m_stats->history();
    for (StatsChart *c : std::as_const(m_order))
        c->refresh(h, m_window);
    ++m_updates;
}

// Which charts show, and whether each shows its chart or a sentence saying why not.
void StatsView::configure()
{
    const SessionStats *s = m_stats;
    const Capabilities caps = s ? s->capabilities() : Capabilities{};
    const bool any = s && s->history().sampleCount() > 0;
    const QString waiting = s ? tr("Waiting for the first sample…") : tr("No session selected");
    auto place = [&](StatsChart *c, Capability cap, SeriesKey key) {
        if (s && !caps.testFlag(cap))
            c->setPlaceholder(notProvided());
        else if (!any || !s->history().has(key))
            c->setPlaceholder(any ? tr("No samples of this figure yet") : waiting);
        else
            c->setPlaceholder({});
    };
    place(m_cpu, Capability::StatsCpu, {Metric::Cpu, -1});
    place(m_memory, Capability::StatsMemory, {Metric::Memory, -1});
    place(m_disk, Capability::StatsDisk, {Metric::DiskRead, -1});
    place(m_filesystem, Capability::StatsDisk, {Metric::FilesystemUsed, -1});
    if (s && !s->session().network)
        m_network->setPlaceholder(tr("Network off: this session has no network access"));
    else
        place(m_network, Capability::StatsNetwork, {Metric::NetworkRx, -1});

    if (s) {
        const SessionInfo &info = s->session();
        if (info.cpus && *info.cpus > 0)
            m_cpu->setLimit(*info.cpus * 100.0, tr("Limit (%1 CPUs)").arg(QLocale().toString(*info.cpus)));
        else
            m_cpu->setLimit(std::nullopt, {});
        const auto &latest = s->history().latest();
        std::optional<double> memLimit;
        if (latest && latest->memoryLimitBytes && *latest->memoryLimitBytes > 0)
            memLimit = double(*latest->memoryLimitBytes);
        else if (info.memoryBytes && *info.memoryBytes > 0)
            memLimit = double(*info.memoryBytes);
        m_memory->setLimit(memLimit, tr("Limit"), false);
        m_memory->setMarkers(s->history().oomMarkers(), tr("Out-of-memory kill"));
        std::optional<double> fsTotal;
        if (latest && latest->filesystemTotalBytes && *latest->filesystemTotalBytes > 0)
            fsTotal = double(*latest->filesystemTotalBytes);
        m_filesystem->setLimit(fsTotal, tr("Total"));
    }
    configureGpus();
    relayout();
}

void StatsView::configureGpus()
{
    const SessionStats *s = m_stats;
    QSet<int> indices;
    if (s) {
        const metrics::StatsHistory &h = s->history();
        for (const SeriesKey &k : h.keys())
            if (k.gpu >= 0)
                indices.insert(k.gpu);
        if (h.latest())
            for (const GpuReading &g : h.latest()->gpus)
                indices.insert(metrics::gpuSeriesId(g));
        for (int i = 0; i < s->session().gpus; ++i)
            indices.insert(i);
    }
    for (auto it = m_gpus.begin(); it != m_gpus.end();) {
        if (indices.contains(it->first)) {
            ++it;
            continue;
        }
        delete it->second.util;
        delete it->second.memory;
        it = m_gpus.erase(it);
    }
    if (!s)
        return;
    const metrics::StatsHistory &h = s->history();
    const bool any = h.sampleCount() > 0;
    for (int i : std::as_const(indices)) {
        GpuCharts &g = m_gpus[i];
        // "0", or "1 MIG 2" for the third MIG slot of GPU 1 (gpuSeriesId).
        const QString label = metrics::isMigSeriesId(i) ? tr("%1 MIG %2").arg((i - 1000) / 100).arg((i - 1000) % 100)
                                                        : QString::number(i);
        if (!g.util) {
            g.util = makeChart(QStringLiteral("statsGpuUtil%1").arg(i), int(units::Kind::Percent));
            g.util->setTitle(tr("GPU %1 utilisation (whole device)").arg(label));
            g.util->setLines({{{Metric::GpuUtilization, i}, tr("Utilisation"), kGpuUtil}});
            g.util->setFixedMax(100);
            g.memory = makeChart(QStringLiteral("statsGpuMemory%1").arg(i), int(units::Kind::Bytes));
        }
        const GpuReading *r = gpuReading(h, i);
        const QString name = r && !r->name.isEmpty() ? r->name : tr("GPU %1").arg(label);
        g.util->setSubtitle(tr("%1 · all processes on the device").arg(name));
        const bool own = h.has({Metric::GpuSessionMemory, i});
        if (own) {
            g.memory->setTitle(tr("GPU %1 memory used by this session").arg(label));
            g.memory->setSubtitle(tr("%1 · this session's processes").arg(name));
            g.memory->setLines({{{Metric::GpuSessionMemory, i}, tr("This session"), kGpuMemory}});
        } else {
            g.memory->setTitle(tr("GPU %1 memory (whole device)").arg(label));
            g.memory->setSubtitle(tr("%1 · all processes on the device").arg(name));
            g.memory->setLines({{{Metric::GpuMemory, i}, tr("Device"), kGpuMemory}});
        }
        std::optional<double> total;
        if (r && r->memoryTotalBytes && *r->memoryTotalBytes > 0)
            total = double(*r->memoryTotalBytes);
        g.memory->setLimit(total, tr("Device total"), !own);

        const bool capable = s->capabilities().testFlag(Capability::StatsGpu);
        if (!capable) {
            g.util->setPlaceholder(notProvided());
            g.memory->setPlaceholder(notProvided());
            continue;
        }
        if (h.has({Metric::GpuUtilization, i}))
            g.util->setPlaceholder({});
        else if (r && r->mig)
            g.util->setPlaceholder(tr("Not reported for a MIG device"));
        else
            g.util->setPlaceholder(any ? tr("No samples of this figure yet") : tr("Waiting for the first sample…"));
        const bool mem = own || h.has({Metric::GpuMemory, i});
        g.memory->setPlaceholder(
            mem ? QString() : (any ? tr("No samples of this figure yet") : tr("Waiting for the first sample…")));
    }
}

// Cards flow in columns (3 when wide); the session's figures and each group of GPU charts
// start on a new row, and a row's last card spans what the row has left.
void StatsView::relayout()
{
    QList<QList<StatsChart *>> groups{{m_cpu, m_memory, m_network, m_disk, m_filesystem}};
    QList<StatsChart *> gpus;
    for (const auto &[index, g] : m_gpus)
        gpus << g.util << g.memory;
    if (!gpus.isEmpty())
        groups.append(gpus);
    QList<StatsChart *> order;
    for (const auto &g : std::as_const(groups))
        order += g;
    const int width = m_scroll->viewport()->width() > 0 ? m_scroll->viewport()->width() : this->width();
    const int columns = width >= 1050 ? 3 : width >= 620 ? 2 : 1;
    QList<bool> placeholders;
    for (StatsChart *c : std::as_const(order))
        placeholders.append(c->placeholderShown());
    if (order == m_order && columns == m_columns && placeholders == m_placeholders)
        return;
    m_placeholders = placeholders;
    for (StatsChart *c : std::as_const(m_order))
        m_gridLayout->removeWidget(c);
    for (int r = 0; r < m_gridLayout->rowCount(); ++r)
        m_gridLayout->setRowStretch(r, 0);
    for (int c = 0; c < m_gridLayout->columnCount(); ++c)
        m_gridLayout->setColumnStretch(c, 0);
    int row = 0;
    bool rowHasChart = false;
    for (const auto &g : std::as_const(groups)) {
        for (qsizetype i = 0; i < g.size(); ++i) {
            const int col = int(i % columns);
            const bool last = i + 1 == g.size();
            m_gridLayout->addWidget(g.at(i), row, col, 1, last ? columns - col : 1);
            g.at(i)->show();
            rowHasChart = rowHasChart || !g.at(i)->placeholderShown();
            if (col == columns - 1 || last) {
                // Rows of sentences only keep their small height; chart rows share the rest.
                m_gridLayout->setRowStretch(row, rowHasChart ? 1 : 0);
                rowHasChart = false;
                ++row;
            }
        }
    }
    for (int c = 0; c < columns; ++c)
        m_gridLayout->setColumnStretch(c, 1);
    m_order = order;
    m_columns = columns;
}

QString StatsView::statusText() const
{
    return m_status->text();
}

void StatsView::updateStatus()
{
    const SessionStats *s = m_stats;
    if (!s) {
        m_status->setText(tr("No session selected"));
        return;
    }
    QString state;
    switch (s->state()) {
    case SessionStats::State::Idle: state = tr("Not sampling"); break;
    case SessionStats::State::Polling: state = tr("Sampling"); break;
    case SessionStats::State::Streaming: state = tr("Live"); break;
    case SessionStats::State::Stopped: state = tr("Session stopped; showing its last samples"); break;
    case SessionStats::State::BackingOff: {
        const QString why = s->lastError() ? s->lastError()->message : tr("unknown error");
        const QDateTime next = s->nextRetry();
        if (next.isValid()) {
            const qint64 secs = std::max<qint64>(0, (m_clock->currentDateTimeUtc().msecsTo(next) + 999) / 1000);
            state = tr("Sampling failed: %1 — retrying in %2 s").arg(why).arg(secs);
        } else {
            state = tr("Sampling failed: %1").arg(why);
        }
        break;
    }
    }
    if (s->state() != SessionStats::State::BackingOff && s->lastError())
        state += QStringLiteral(" · ") + s->lastError()->message;
    const qint64 newest = s->history().newestMs();
    if (newest > 0)
        state += QStringLiteral(" · ") +
                 tr("last sample %1")
                     .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(newest), QStringLiteral("HH:mm:ss")));
    const QString provider = s->providerName();
    m_status->setText(provider.isEmpty() ? state : tr("%1 · %2").arg(provider, state));
}

} // namespace sandbar::ui
