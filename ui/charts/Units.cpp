#include "charts/Units.h"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>
#include <array>
#include <cmath>

namespace sandbar::ui::units {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("sandbar::ui::units", text);
}

// Digits after the point so that a value shows three significant digits (but never more
// than two decimals: "1.25 MiB", "12.5 MiB", "125 MiB").
int decimalsFor(double scaled)
{
    const double a = std::abs(scaled);
    if (a == 0 || a >= 100)
        return 0;
    if (a >= 10)
        return 1;
    return 2;
}

} // namespace

Scale scaleFor(Kind kind, double maxValue)
{
    if (kind == Kind::Percent)
        return {kind, 1, tr("%")};
    static const std::array<const char *, 5> bytes{
        QT_TRANSLATE_NOOP("sandbar::ui::units", "B"), QT_TRANSLATE_NOOP("sandbar::ui::units", "KiB"),
        QT_TRANSLATE_NOOP("sandbar::ui::units", "MiB"), QT_TRANSLATE_NOOP("sandbar::ui::units", "GiB"),
        QT_TRANSLATE_NOOP("sandbar::ui::units", "TiB")};
    static const std::array<const char *, 5> rates{
        QT_TRANSLATE_NOOP("sandbar::ui::units", "B/s"), QT_TRANSLATE_NOOP("sandbar::ui::units", "KiB/s"),
        QT_TRANSLATE_NOOP("sandbar::ui::units", "MiB/s"), QT_TRANSLATE_NOOP("sandbar::ui::units", "GiB/s"),
        QT_TRANSLATE_NOOP("sandbar::ui::units", "TiB/s")};
    const auto &names = kind == Kind::Bytes ? bytes : rates;
    double divisor = 1;
    std::size_t i = 0;
    // 1000 rather than 1024 as the switch point: "1000 KiB" reads worse than "0.98 MiB".
    while (i + 1 < names.size() && std::abs(maxValue) >= divisor * 1000) {
        divisor *= 1024;
        ++i;
    }
    return {kind, divisor, tr(names[i])};
}

QString format(const Scale &scale, double value)
{
    const double scaled = value / scale.divisor;
    // Whole bytes have no fraction; a percentage needs one decimal at most.
    int decimals = decimalsFor(scaled);
    if (scale.kind != Kind::Percent && scale.divisor == 1)
        decimals = 0;
    else if (scale.kind == Kind::Percent)
        decimals = std::min(decimals, 1);
    return QStringLiteral("%1 %2").arg(QLocale().toString(scaled, 'f', decimals), scale.suffix);
}

QString format(Kind kind, double value)
{
    return format(scaleFor(kind, value), value);
}

double niceStep(double raw)
{
    if (!(raw > 0) || !std::isfinite(raw))
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0})
        if (m * p >= raw * (1 - 1e-9))
            return m * p;
    return 10 * p;
}

AxisRange niceRange(double maxScaled, int targetSteps)
{
    targetSteps = std::max(1, targetSteps);
    if (!(maxScaled > 0) || !std::isfinite(maxScaled))
        maxScaled = 1;
    // The smallest 1-2-5 step that needs at most one step more than asked for.
    AxisRange r;
    r.step = niceStep(maxScaled / (targetSteps + 1));
    while (std::ceil(maxScaled / r.step - 1e-9) > targetSteps + 1)
        r.step = niceStep(r.step * 1.01);
    const int steps = std::max(1, int(std::ceil(maxScaled / r.step - 1e-9)));
    r.max = steps * r.step;
    r.tickCount = steps + 1;
    r.decimals = r.step >= 1 ? 0 : int(std::ceil(-std::log10(r.step) - 1e-9));
    return r;
}

} // namespace sandbar::ui::units
