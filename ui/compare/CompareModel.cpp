#include "compare/CompareModel.h"

#include <QColor>
#include <QCoreApplication>
#include <QJsonArray>
#include <cmath>
#include <limits>
#include <utility>

namespace sandbar::ui {

namespace {

QString tr(const char *s)
{
    return QCoreApplication::translate("sandbar::ui::compare", s);
}

QJsonValue rawValue(const catalog::ProviderEntry &e, const char *field)
{
    return e.raw.value(QLatin1String(field)).toObject().value(QStringLiteral("value"));
}

} // namespace

namespace compare {

std::optional<double> longestSessionHours(const catalog::ProviderEntry &e)
{
    std::optional<double> best;
    for (const auto &p : e.plans) {
        if (p.maxSessionHours.unlimited)
            return std::numeric_limits<double>::infinity();
        if (p.maxSessionHours.known() && (!best || *p.maxSessionHours.value > *best))
            best = *p.maxSessionHours.value;
    }
    return best;
}

QStringList regions(const catalog::ProviderEntry &e)
{
    QStringList out;
    const QJsonValue v = rawValue(e, "regions");
    if (v.isArray()) {
        for (const auto &r : v.toArray())
            if (r.isString() && !r.toString().isEmpty())
                out << r.toString();
    } else if (v.isString() && !v.toString().isEmpty()) {
        out << v.toString();
    }
    return out;
}

QString selfHostText(const catalog::ProviderEntry &e)
{
    return rawValue(e, "self_host").toString();
}

bool selfHostOrByoc(const catalog::ProviderEntry &e)
{
    if (e.selfHosted)
        return true;
    const QString t = selfHostText(e).toLower();
    // "managed only; no self-hosted or BYOC" names both words while denying them.
    if (t.isEmpty() || t.contains(QLatin1String("managed only")) || t.startsWith(QLatin1String("no ")))
        return false;
    return t.contains(QLatin1String("byoc")) || t.contains(QLatin1String("self-host")) ||
           t.contains(QLatin1String("on-prem"));
}

bool offersGpus(const catalog::ProviderEntry &e)
{
    return e.gpus && !e.gpus->isEmpty();
}

QString gpuText(const catalog::ProviderEntry &e)
{
    if (!e.gpus)
        return QStringLiteral("?");
    QStringList out;
    for (const auto &g : *e.gpus)
        out << (g.usdPerHour.known() ? tr("%1 $%2/h").arg(g.type, QString::number(*g.usdPerHour.value, 'g', 6))
                                     : g.type);
    return out.isEmpty() ? tr("none") : out.join(QStringLiteral(", "));
}

QString figureText(const catalog::Figure &f, const QString &suffix)
{
    return catalog::figureText(f, suffix, QStringLiteral("–"));
}

QString money(double usd)
{
    if (std::abs(usd) < 5e-7) // float residue of a difference must not print as -0.00
        return QStringLiteral("$0");
    const QString n = QString::number(std::abs(usd), 'f', std::abs(usd) < 1 ? 4 : 2);
    return (usd < 0 ? QStringLiteral("-$") : QStringLiteral("$")) + n;
}

const QStringList &componentOrder()
{
    static const QStringList order = {QStringLiteral("cpu"),        QStringLiteral("tier"),   QStringLiteral("memory"),
                                      QStringLiteral("gpu"),        QStringLiteral("idle"),   QStringLiteral("storage"),
                                      QStringLiteral("creates"),    QStringLiteral("egress"), QStringLiteral("plan"),
                                      QStringLiteral("free_credit")};
    return order;
}

QString componentLabel(const QString &component)
{
    static const QHash<QString, const char *> labels = {
        {QStringLiteral("cpu"), QT_TRANSLATE_NOOP("sandbar::ui::CompareModel", "CPU")},
        {QStringLiteral("tier"), QT_TRANSLATE_NOOP("sandbar::ui::CompareModel", "Fixed size")},
        {QStringLiteral("memory"), QT_TRANSLATE_NOOP("sandbar::ui::CompareModel", "Memory")},
        {QStringLiteral("gpu"), QT_TRANSLATE_NOOP("sandbar::ui::CompareModel", "GPU")},
        {QStringLiteral("idle"), QT_TRANSLATE_NOOP("sandbar::ui::CompareModel", "Idle")},
        {QStringLiteral("storage"), QT_TRANSLATE_NOOP("sandbar::ui::CompareModel", "Storage")},
        {QStringLiteral("creates"), QT_TRANSLATE_NOOP("sandbar::ui::CompareModel", "Creates")},
        {QStringLiteral("egress"), QT_TRANSLATE_NOOP("sandbar::ui::CompareModel", "Egress")},
        {QStringLiteral("plan"), QT_TRANSLATE_NOOP("sandbar::ui::CompareModel", "Plan fee")},
        {QStringLiteral("free_credit"), QT_TRANSLATE_NOOP("sandbar::ui::CompareModel", "Free credit")},
    };
    const char *label = labels.value(component);
    return label ? QCoreApplication::translate("sandbar::ui::CompareModel", label) : component;
}

} // namespace compare

CompareModel::CompareModel(std::shared_ptr<const catalog::Catalog> catalog, QObject *parent)
    : QAbstractTableModel(parent)
    , m_catalog(std::move(catalog))
{
    Q_ASSERT(m_catalog);
}

int CompareModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_catalog->entries().size());
}

int CompareModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void CompareModel::setEstimates(const QList<costs::Estimate> &estimates)
{
    m_estimates = estimates;
    m_estimateIndex.clear();
    for (int i = 0; i < m_estimates.size(); ++i)
        m_estimateIndex.insert(m_estimates.at(i).providerId, i);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, Monthly), index(rowCount() - 1, Monthly));
}

const costs::Estimate *CompareModel::estimateFor(const QString &providerId) const
{
    const auto it = m_estimateIndex.constFind(providerId);
    return it == m_estimateIndex.constEnd() ? nullptr : &m_estimates.at(*it);
}

int CompareModel::rowOf(const QString &providerId) const
{
    const auto &entries = m_catalog->entries();
    for (int i = 0; i < entries.size(); ++i)
        if (entries.at(i).id == providerId)
            return i;
    return -1;
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == Monthly)
        return tr("Estimated cost a month of the workload above; excluded providers say why");
    if (role == Qt::ToolTipRole && section == Hosting)
        return tr("What the catalog says about self-hosting or bring-your-own-cloud");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Provider: return tr("Provider");
    case Kind: return tr("Kind");
    case Isolation: return tr("Isolation");
    case ColdStart: return tr("Cold start");
    case MaxSession: return tr("Max session");
    case Gpus: return tr("GPUs");
    case Hosting: return tr("Self-host / BYOC");
    case Regions: return tr("Regions");
    case Monthly: return tr("Est. monthly");
    default: return {};
    }
}

QVariant CompareModel::display(const catalog::ProviderEntry &e, int column) const
{
    switch (column) {
    case Provider: return e.name;
    case Kind: return e.kindName;
    case Isolation: return e.isolation.isEmpty() ? QStringLiteral("–") : e.isolation;
    case ColdStart: return compare::figureText(e.coldStartMs, tr(" ms"));
    case MaxSession: {
        const auto h = compare::longestSessionHours(e);
        if (!h)
            return QStringLiteral("–");
        return std::isinf(*h) ? tr("unlimited") : tr("%1 h").arg(QString::number(*h, 'g', 6));
    }
    case Gpus: return compare::gpuText(e);
    case Hosting: {
        const QString t = compare::selfHostText(e);
        return t.isEmpty() ? QStringLiteral("?") : t;
    }
    case Regions: {
        const QStringList r = compare::regions(e);
        return r.isEmpty() ? QStringLiteral("?") : r.join(QStringLiteral(", "));
    }
    case Monthly: {
        const costs::Estimate *est = estimateFor(e.id);
        if (!est)
            return QStringLiteral("–");
        if (est->excluded)
            return tr("excluded: %1").arg(est->reason());
        if (est->selfHosted)
            return tr("%1 (self-hosted)").arg(compare::money(est->totalUsd));
        return compare::money(est->totalUsd);
    }
    default: return {};
    }
}

QVariant CompareModel::sortValue(const catalog::ProviderEntry &e, int column) const
{
    switch (column) {
    case ColdStart: return e.coldStartMs.known() ? QVariant(*e.coldStartMs.value) : QVariant();
    case MaxSession: {
        const auto h = compare::longestSessionHours(e);
        return h ? QVariant(*h) : QVariant();
    }
    case Gpus: return e.gpus ? QVariant(double(e.gpus->size())) : QVariant();
    case Monthly: {
        const costs::Estimate *est = estimateFor(e.id);
        return est && !est->excluded ? QVariant(est->totalUsd) : QVariant();
    }
    default: return display(e, column).toString().toLower();
    }
}

QString CompareModel::costTooltip(const costs::Estimate &est) const
{
    if (est.excluded)
        return est.reason();
    QStringList lines;
    for (const auto &l : est.breakdown)
        lines << QStringLiteral("%1: %2  (%3)")
                     .arg(compare::componentLabel(l.component), compare::money(l.usd), l.detail.toString());
    if (!est.plan.isEmpty())
        lines << tr("Plan: %1").arg(est.plan);
    for (const auto &n : est.notes())
        lines << tr("Note: %1").arg(n);
    return lines.join(QLatin1Char('\n'));
}

QVariant CompareModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const catalog::ProviderEntry &e = entry(index.row());
    switch (role) {
    case Qt::DisplayRole: return display(e, index.column());
    case Qt::ToolTipRole: {
        if (index.column() == Monthly) {
            const costs::Estimate *est = estimateFor(e.id);
            return est ? QVariant(costTooltip(*est)) : QVariant();
        }
        if (index.column() == Provider)
            return e.id;
        const catalog::Figure *f = index.column() == ColdStart ? &e.coldStartMs : nullptr;
        if (f && !f->note.isEmpty())
            return f->note;
        return display(e, index.column());
    }
    case Qt::TextAlignmentRole:
        if (index.column() == ColdStart || index.column() == MaxSession)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        if (index.column() == Monthly) { // amounts line up on the right; reasons read from the left
            const costs::Estimate *est = estimateFor(e.id);
            return int((est && est->excluded ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() == Monthly) {
            const costs::Estimate *est = estimateFor(e.id);
            if (est && est->excluded)
                return QColor(Qt::gray);
        }
        return {};
    case SortRole: return sortValue(e, index.column());
    case ProviderIdRole: return e.id;
    case ExcludedRole: {
        const costs::Estimate *est = estimateFor(e.id);
        return est && est->excluded;
    }
    default: return {};
    }
}

CompareFilter::CompareFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(CompareModel::SortRole);
    setDynamicSortFilter(true);
}

void CompareFilter::refilter()
{
    invalidateFilter();
}

void CompareFilter::setNeedsGpu(bool on)
{
    if (std::exchange(m_needsGpu, on) != on)
        refilter();
}

void CompareFilter::setSelfHostOrByoc(bool on)
{
    if (std::exchange(m_selfHostOrByoc, on) != on)
        refilter();
}

void CompareFilter::setMinSessionHours(double hours)
{
    const double h = std::max(0.0, hours);
    if (std::exchange(m_minSessionHours, h) != h)
        refilter();
}

void CompareFilter::setIsolation(const QString &isolation)
{
    if (std::exchange(m_isolation, isolation) != isolation)
        refilter();
}

void CompareFilter::setRegion(const QString &region)
{
    if (std::exchange(m_region, region) != region)
        refilter();
}

bool CompareFilter::accepts(const catalog::ProviderEntry &e) const
{
    if (m_needsGpu && !compare::offersGpus(e))
        return false;
    if (m_selfHostOrByoc && !compare::selfHostOrByoc(e))
        return false;
    if (m_minSessionHours > 0) {
        const auto h = compare::longestSessionHours(e);
        if (!h || *h + 1e-9 < m_minSessionHours)
            return false;
    }
    if (!m_isolation.isEmpty() && e.isolation != m_isolation)
        return false;
    if (!m_region.isEmpty() && !compare::regions(e).contains(m_region, Qt::CaseInsensitive))
        return false;
    return true;
}

bool CompareFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *m = qobject_cast<const CompareModel *>(sourceModel());
    if (!m || sourceParent.isValid())
        return true;
    return accepts(m->entry(sourceRow));
}

bool CompareFilter::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    // Unknown figures and excluded providers go last in either order: the proxy reverses
    // lessThan for a descending sort, so "last" means greatest ascending, least descending.
    if (a.isValid() != b.isValid())
        return sortOrder() == Qt::AscendingOrder ? a.isValid() : !a.isValid();
    if (!a.isValid())
        return left.row() < right.row();
    if (a.typeId() == QMetaType::Double && b.typeId() == QMetaType::Double) {
        if (a.toDouble() != b.toDouble())
            return a.toDouble() < b.toDouble();
        return left.row() < right.row();
    }
    return QString::localeAwareCompare(a.toString(), b.toString()) < 0;
}

} // namespace sandbar::ui
