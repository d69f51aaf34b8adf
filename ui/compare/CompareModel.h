#pragma once

#include "catalog/Catalog.h"
#include "costs/CostModel.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>
#include <memory>
#include <optional>

namespace sandbar::ui {

// Facts about a catalog entry that the compare view derives from its raw JSON, kept as free
// functions so the filter, the cards and the CSV export read them the same way.
namespace compare {
// Longest session any plan allows: +infinity when a plan says unlimited, empty when unknown.
std::optional<double> longestSessionHours(const catalog::ProviderEntry &e);
// The published regions (free text such as "iad1" or "multi-region"); empty when unknown.
QStringList regions(const catalog::ProviderEntry &e);
// The published self-host / BYOC text, empty when unknown.
QString selfHostText(const catalog::ProviderEntry &e);
// True when the user can run it on their own machines or cloud account: Sandbar's own
// self-hosted runtimes, or a provider whose self_host text offers BYOC, on-premises or
// self-hosting (and does not say "managed only").
bool selfHostOrByoc(const catalog::ProviderEntry &e);
// True when the catalog lists at least one GPU type (unknown counts as no).
bool offersGpus(const catalog::ProviderEntry &e);
QString gpuText(const catalog::ProviderEntry &e);
QString figureText(const catalog::Figure &f, const QString &suffix = {});
QString money(double usd);
// Cost components in a fixed display order; the chart and the CSV use it.
const QStringList &componentOrder();
QString componentLabel(const QString &component);
} // namespace compare

// The catalog, one row per provider in catalog order, with the current estimate of each.
class CompareModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Provider, Kind, Isolation, ColdStart, MaxSession, Gpus, Hosting, Regions, Monthly, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, // a number for numeric columns, invalid when unknown or excluded
        ProviderIdRole,
        ExcludedRole,
    };

    explicit CompareModel(std::shared_ptr<const catalog::Catalog> catalog, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Estimates as costs::estimate returns them (cheapest first, then the excluded ones).
    void setEstimates(const QList<costs::Estimate> &estimates);
    const QList<costs::Estimate> &estimates() const { return m_estimates; }
    const costs::Estimate *estimateFor(const QString &providerId) const;

    const catalog::Catalog &catalog() const { return *m_catalog; }
    const catalog::ProviderEntry &entry(int row) const { return m_catalog->entries().at(row); }
    int rowOf(const QString &providerId) const;

private:
    QVariant display(const catalog::ProviderEntry &e, int column) const;
    QVariant sortValue(const catalog::ProviderEntry &e, int column) const;
    QString costTooltip(const costs::Estimate &est) const;

    std::shared_ptr<const catalog::Catalog> m_catalog;
    QList<costs::Estimate> m_estimates;
    QHash<QString, int> m_estimateIndex; // provider id -> index in m_estimates
};

// The five filters of the compare view over CompareModel, plus numeric sorting in which
// unknown figures and excluded providers stay last whichever way the column is sorted.
class CompareFilter final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit CompareFilter(QObject *parent = nullptr);

    void setNeedsGpu(bool on);
    void setSelfHostOrByoc(bool on);
    void setMinSessionHours(double hours);       // 0: any; unknown limits are hidden otherwise
    void setIsolation(const QString &isolation); // empty: any
    void setRegion(const QString &region);       // empty: any; matched case-insensitively

    bool needsGpu() const { return m_needsGpu; }
    bool selfHostOrByoc() const { return m_selfHostOrByoc; }
    double minSessionHours() const { return m_minSessionHours; }
    QString isolation() const { return m_isolation; }
    QString region() const { return m_region; }

    bool accepts(const catalog::ProviderEntry &e) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    void refilter();

    bool m_needsGpu = false;
    bool m_selfHostOrByoc = false;
    double m_minSessionHours = 0;
    QString m_isolation;
    QString m_region;
};

} // namespace sandbar::ui
