#include "compare/CompareView.h"

#include "compare/ColdStartScatter.h"
#include "compare/CompareModel.h"
#include "compare/CostChart.h"
#include "compare/ProviderCards.h"
#include "compare/WorkloadForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSet>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>

namespace sandbar::ui {

namespace {

// The debounce of chart rebuilds: long enough to coalesce a held spin-box arrow, short
// enough to feel immediate.
constexpr int kRebuildDelayMs = 50;

QByteArray csvField(const QString &s)
{
    QByteArray f = s.toUtf8();
    if (f.contains(',') || f.contains('"') || f.contains('\n') || f.contains('\r')) {
        f.replace('"', "\"\"");
        f = '"' + f + '"';
    }
    return f;
}

QString csvNumber(double v)
{
    if (std::isinf(v))
        return QStringLiteral("unlimited");
    return QString::number(v, 'f', 4);
}

QStringList distinctSorted(QStringList values)
{
    values.removeDuplicates();
    values.removeAll(QString());
    values.sort(Qt::CaseInsensitive);
    return values;
}

} // namespace

CompareView::CompareView(std::shared_ptr<const catalog::Catalog> catalog, QWidget *parent)
    : QWidget(parent)
    , m_catalog(catalog ? std::move(catalog) : std::make_shared<const catalog::Catalog>())
{
    setObjectName(QStringLiteral("compareView"));
    m_model = new CompareModel(m_catalog, this);
    m_filter = new CompareFilter(this);
    m_filter->setSourceModel(m_model);

    QStringList gpuTypes;
    for (const auto &e : m_catalog->entries())
        if (e.gpus)
            for (const auto &g : *e.gpus)
                gpuTypes << g.type;
    m_form = new WorkloadForm(distinctSorted(gpuTypes), this);
    m_workload = m_form->workload();

    auto *workloadBox = new QGroupBox(tr("Workload a month"), this);
    auto *wl = new QVBoxLayout(workloadBox);
    wl->addWidget(m_form);
    auto *top = new QHBoxLayout;
    top->addWidget(workloadBox, 3);
    top->addWidget(buildFilters(), 1);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setAccessibleName(tr("Providers compared"));
    m_table->setModel(m_filter);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->sortByColumn(CompareModel::Monthly, Qt::AscendingOrder);

    m_chart = new CostChart(this);
    m_scatter = new ColdStartScatter(this);
    m_cards = new ProviderCards(m_catalog, this);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("compareTabs"));
    m_tabs->addTab(m_table, tr("Table"));
    m_tabs->addTab(m_chart, tr("Cost chart"));
    m_tabs->addTab(m_scatter, tr("Cold start vs price"));
    m_tabs->addTab(m_cards, tr("Side by side"));

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_csvButton = new QPushButton(tr("Export CSV…"), this);
    m_pngButton = new QPushButton(tr("Export PNG…"), this);
    m_pngButton->setToolTip(tr("Saves the current tab as an image"));
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_csvButton);
    bottom->addWidget(m_pngButton);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_tabs, 1);
    layout->addLayout(bottom);

    m_rebuildTimer.setSingleShot(true);
    m_rebuildTimer.setInterval(kRebuildDelayMs);
    connect(&m_rebuildTimer, &QTimer::timeout, this, &CompareView::rebuild);
    connect(m_form, &WorkloadForm::workloadChanged, this, &CompareView::onWorkloadChanged);
    // Whatever changes the shown rows (filter widgets or code calling the proxy) rebuilds.
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &CompareView::scheduleRebuild);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &CompareView::scheduleRebuild);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &CompareView::scheduleRebuild);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &CompareView::scheduleRebuild);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &CompareView::scheduleRebuild);
    connect(m_csvButton, &QPushButton::clicked, this, &CompareView::chooseCsvFile);
    connect(m_pngButton, &QPushButton::clicked, this, &CompareView::choosePngFile);

    onWorkloadChanged(m_workload);
    // The cost is what the user came for: show it next to the name, and keep the free-text
    // columns from pushing it off screen (tooltips carry their full text).
    m_table->horizontalHeader()->moveSection(CompareModel::Monthly, 1);
    m_table->resizeColumnsToContents();
    const std::pair<int, int> caps[] = {{CompareModel::Provider, 210},
                                        {CompareModel::Monthly, 200},
                                        {CompareModel::Gpus, 160},
                                        {CompareModel::Hosting, 170},
                                        {CompareModel::Regions, 160}};
    for (const auto &[column, cap] : caps)
        m_table->setColumnWidth(column, std::min(m_table->columnWidth(column), cap));
    flushPendingUpdates();
}

CompareView::~CompareView() = default;

QWidget *CompareView::buildFilters()
{
    auto *box = new QGroupBox(tr("Filters"), this);
    m_needsGpu = new QCheckBox(tr("Needs GPU"), box);
    m_needsGpu->setToolTip(tr("Only providers whose catalog entry lists GPU types"));
    m_selfHost = new QCheckBox(tr("Self-host or BYOC"), box);
    m_selfHost->setToolTip(tr("Runs on your own machines, or offers bring-your-own-cloud or on-premises"));
    m_minSession = new QDoubleSpinBox(box);
    m_minSession->setRange(0, 10000);
    m_minSession->setDecimals(1);
    m_minSession->setSuffix(tr(" h"));
    m_minSession->setSpecialValueText(tr("any"));
    m_minSession->setToolTip(tr("Hides providers whose longest plan allows shorter sessions, and those whose "
                                "limit is not known"));
    m_isolation = new QComboBox(box);
    m_isolation->addItem(tr("any"), QString());
    m_region = new QComboBox(box);
    m_region->addItem(tr("any"), QString());
    QStringList isolations;
    QStringList regions;
    for (const auto &e : m_catalog->entries()) {
        isolations << e.isolation;
        regions << compare::regions(e);
    }
    for (const auto &i : distinctSorted(isolations))
        m_isolation->addItem(i, i);
    for (const auto &r : distinctSorted(regions))
        m_region->addItem(r, r);

    auto *checks = new QHBoxLayout;
    checks->addWidget(m_needsGpu);
    checks->addWidget(m_selfHost);
    checks->addStretch(1);
    auto *form = new QFormLayout(box);
    form->addRow(checks);
    form->addRow(tr("Min. session"), m_minSession);
    form->addRow(tr("Isolation"), m_isolation);
    form->addRow(tr("Region"), m_region);

    connect(m_needsGpu, &QCheckBox::toggled, m_filter, &CompareFilter::setNeedsGpu);
    connect(m_selfHost, &QCheckBox::toggled, m_filter, &CompareFilter::setSelfHostOrByoc);
    connect(m_minSession, &QDoubleSpinBox::valueChanged, m_filter, &CompareFilter::setMinSessionHours);
    connect(m_isolation, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setIsolation(m_isolation->currentData().toString()); });
    connect(m_region, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setRegion(m_region->currentData().toString()); });
    return box;
}

costs::Workload CompareView::workload() const
{
    return m_workload;
}

void CompareView::setWorkload(const costs::Workload &w)
{
    m_form->setWorkload(w); // emits workloadChanged when valid
}

void CompareView::onWorkloadChanged(const costs::Workload &w)
{
    m_workload = w;
    m_model->setEstimates(costs::estimate(*m_catalog, w));
    scheduleRebuild();
}

void CompareView::scheduleRebuild()
{
    m_rebuildTimer.start();
}

void CompareView::flushPendingUpdates()
{
    if (m_rebuildTimer.isActive())
        m_rebuildTimer.stop();
    rebuild();
}

void CompareView::rebuild()
{
    m_rebuildTimer.stop();
    QList<costs::Estimate> shown;
    for (const auto &est : m_model->estimates()) {
        const catalog::ProviderEntry *e = m_catalog->find(est.providerId);
        if (e && m_filter->accepts(*e))
            shown << est;
    }
    m_chart->setEstimates(shown);
    m_scatter->setData(shown, *m_catalog);
    m_cards->setProviders(selectedProviderIds(), m_model->estimates());
    updateStatus();
}

void CompareView::updateStatus()
{
    int priced = 0;
    for (int r = 0; r < m_filter->rowCount(); ++r)
        if (!m_filter->index(r, 0).data(CompareModel::ExcludedRole).toBool())
            ++priced;
    m_status->setText(tr("%1 of %2 providers match the filters; %3 of them can run this workload. "
                         "Estimates use published list prices; hover a cost for its breakdown.")
                          .arg(m_filter->rowCount())
                          .arg(m_model->rowCount())
                          .arg(priced));
}

void CompareView::selectProviders(const QStringList &ids)
{
    QItemSelection selection;
    for (const auto &id : ids) {
        const int row = m_model->rowOf(id);
        if (row < 0)
            continue;
        const QModelIndex proxy = m_filter->mapFromSource(m_model->index(row, 0));
        if (proxy.isValid())
            selection.select(proxy, proxy.siblingAtColumn(CompareModel::ColumnCount - 1));
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

QStringList CompareView::selectedProviderIds() const
{
    QStringList ids;
    // Table order, so the cards sit in the order the user sees the rows.
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const auto &idx : rows)
        ids << idx.data(CompareModel::ProviderIdRole).toString();
    return ids;
}

QByteArray CompareView::toCsv() const
{
    QStringList header = {QStringLiteral("provider"),      QStringLiteral("name"),
                          QStringLiteral("kind"),          QStringLiteral("isolation"),
                          QStringLiteral("cold_start_ms"), QStringLiteral("max_session_hours"),
                          QStringLiteral("gpus"),          QStringLiteral("self_host_or_byoc"),
                          QStringLiteral("regions"),       QStringLiteral("total_usd")};
    for (const auto &c : compare::componentOrder())
        header << c + QStringLiteral("_usd");
    header << QStringLiteral("plan") << QStringLiteral("excluded_reason") << QStringLiteral("notes");

    QByteArray out;
    auto line = [&out](const QStringList &fields) {
        for (qsizetype i = 0; i < fields.size(); ++i) {
            if (i)
                out += ',';
            out += csvField(fields.at(i));
        }
        out += "\r\n";
    };
    line(header);
    for (int r = 0; r < m_filter->rowCount(); ++r) {
        const int sourceRow = m_filter->mapToSource(m_filter->index(r, 0)).row();
        const catalog::ProviderEntry &e = m_model->entry(sourceRow);
        const costs::Estimate *est = m_model->estimateFor(e.id);
        const auto session = compare::longestSessionHours(e);
        QStringList gpus;
        if (e.gpus)
            for (const auto &g : *e.gpus)
                gpus << g.type;
        QStringList f = {e.id,
                         e.name,
                         e.kindName,
                         e.isolation,
                         e.coldStartMs.known() ? csvNumber(*e.coldStartMs.value) : QString(),
                         session ? csvNumber(*session) : QString(),
                         e.gpus ? gpus.join(QLatin1Char(';')) : QStringLiteral("unknown"),
                         compare::selfHostOrByoc(e) ? QStringLiteral("yes") : QStringLiteral("no"),
                         compare::regions(e).join(QLatin1Char(';'))};
        const bool priced = est && !est->excluded;
        f << (priced ? csvNumber(est->totalUsd) : QString());
        for (const auto &c : compare::componentOrder())
            f << (priced ? csvNumber(est->component(c)) : QString());
        f << (est ? est->plan : QString()) << (est && est->excluded ? est->reason() : QString())
          << (est ? est->notes().join(QStringLiteral("; ")) : QString());
        line(f);
    }
    return out;
}

bool CompareView::exportCsv(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(toCsv()) < 0 || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

QImage CompareView::renderPng(QWidget *widget)
{
    if (!widget)
        return {};
    return widget->grab().toImage();
}

bool CompareView::exportPng(const QString &path, QString *error)
{
    flushPendingUpdates();
    const QImage image = renderPng(m_tabs->currentWidget());
    if (image.isNull()) {
        if (error)
            *error = tr("Nothing to draw");
        return false;
    }
    if (!image.save(path, "PNG")) {
        if (error)
            *error = tr("Cannot write %1").arg(path);
        return false;
    }
    return true;
}

void CompareView::chooseCsvFile()
{
    askPath(tr("Export CSV"), QStringLiteral("providers.csv"), tr("CSV files (*.csv)"), [this](const QString &path) {
        QString error;
        return exportCsv(path, &error) ? QString() : error;
    });
}

void CompareView::choosePngFile()
{
    askPath(tr("Export PNG"), QStringLiteral("providers.png"), tr("PNG images (*.png)"), [this](const QString &path) {
        QString error;
        return exportPng(path, &error) ? QString() : error;
    });
}

void CompareView::askPath(const QString &title, const QString &name, const QString &filter,
                          std::function<QString(const QString &)> save)
{
    // Window-modal and asynchronous: no nested event loop in the view.
    auto *dlg = new QFileDialog(this, title, name, filter);
    dlg->setAcceptMode(QFileDialog::AcceptSave);
    dlg->setDefaultSuffix(QFileInfo(name).suffix());
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    connect(dlg, &QFileDialog::fileSelected, this, [this, title, save = std::move(save)](const QString &path) {
        const QString error = save(path);
        if (error.isEmpty())
            return;
        auto *box = new QMessageBox(QMessageBox::Warning, title, tr("Could not save %1: %2").arg(path, error),
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    dlg->open();
}

} // namespace sandbar::ui
