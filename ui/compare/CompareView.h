#pragma once

#include "costs/CostModel.h"

#include <QImage>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableView;

namespace sandbar::ui {

class ColdStartScatter;
class CompareFilter;
class CompareModel;
class CostChart;
class ProviderCards;
class WorkloadForm;

// The provider compare view: a workload and five filters on top; the catalog as a sortable
// table, a stacked cost chart, a cold start / price scatter and side-by-side cards below;
// CSV and PNG export. The catalog is built by the composition root and shared read-only.
class CompareView final : public QWidget
{
    Q_OBJECT
public:
    explicit CompareView(std::shared_ptr<const catalog::Catalog> catalog, QWidget *parent = nullptr);
    ~CompareView() override;

    const catalog::Catalog &catalog() const { return *m_catalog; }
    costs::Workload workload() const;
    void setWorkload(const costs::Workload &w);

    // Selects the providers' rows in the table (the cards follow the selection).
    void selectProviders(const QStringList &ids);
    QStringList selectedProviderIds() const;
    // The chart, scatter and cards are rebuilt on a short timer after each edit; this runs
    // a pending rebuild now (exports and tests use it).
    void flushPendingUpdates();

    // The table as shown (filtered, in its sort order), RFC 4180: one header line, CRLF.
    QByteArray toCsv() const;
    bool exportCsv(const QString &path, QString *error = nullptr) const;
    // The widget as drawn on screen, at its device pixel ratio.
    static QImage renderPng(QWidget *widget);
    // Writes the current tab as a PNG.
    bool exportPng(const QString &path, QString *error = nullptr);

    CompareModel *model() const { return m_model; }
    CompareFilter *filter() const { return m_filter; }
    QTableView *table() const { return m_table; }
    CostChart *costChart() const { return m_chart; }
    ColdStartScatter *scatter() const { return m_scatter; }
    ProviderCards *cards() const { return m_cards; }
    WorkloadForm *workloadForm() const { return m_form; }
    QTabWidget *tabs() const { return m_tabs; }

private:
    QWidget *buildFilters();
    void onWorkloadChanged(const costs::Workload &w);
    void scheduleRebuild();
    void rebuild();
    void updateStatus();
    void chooseCsvFile();
    void choosePngFile();
    // Asks for a file name without blocking; save returns an error text, empty on success.
    void askPath(const QString &title, const QString &name, const QString &filter,
                 std::function<QString(const QString &)> save);

    std::shared_ptr<const catalog::Catalog> m_catalog;
    costs::Workload m_workload;
    CompareModel *m_model;
    CompareFilter *m_filter;
    WorkloadForm *m_form;
    QCheckBox *m_needsGpu = nullptr;
    QCheckBox *m_selfHost = nullptr;
    QDoubleSpinBox *m_minSession = nullptr;
    QComboBox *m_isolation = nullptr;
    QComboBox *m_region = nullptr;
    QTabWidget *m_tabs;
    QTableView *m_table;
    CostChart *m_chart;
    ColdStartScatter *m_scatter;
    ProviderCards *m_cards;
    QLabel *m_status;
    QPushButton *m_csvButton;
    QPushButton *m_pngButton;
    QTimer m_rebuildTimer;
};

} // namespace sandbar::ui
