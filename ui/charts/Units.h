#pragma once

// Human units for the statistics views: a scale (KiB, MiB/s, %) chosen from a figure's peak,
// and an axis range of 1-2-5 steps in that scale. Pure functions, shared by the charts and
// the sessions-list sparklines so both write a value the same way.

#include <QString>

namespace sandbar::ui::units {

enum class Kind {
    Percent,        // 100 = one core / the whole device
    Bytes,          // binary units: B, KiB, MiB, GiB, TiB
    BytesPerSecond, // B/s, KiB/s, MiB/s, GiB/s
};

struct Scale {
    Kind kind = Kind::Percent;
    double divisor = 1; // raw value / divisor = value in this unit
    QString suffix;     // "MiB/s", "%"
};

// The unit in which maxValue reads between 1 and 1024 (bytes) or as is (percent).
Scale scaleFor(Kind kind, double maxValue);

// "37 %", "512 MiB", "1.25 MiB/s": three significant digits at most, unit from the value.
QString format(Kind kind, double value);
// As format(), in a given scale (so a column of values shares one unit).
QString format(const Scale &scale, double value);

// An axis from 0 to at least maxScaled in ticks of 1, 2 or 5 times a power of ten.
struct AxisRange {
    double max = 1;
    double step = 1;
    int tickCount = 2; // including 0
    int decimals = 0;  // for the labels
};
AxisRange niceRange(double maxScaled, int targetSteps = 4);

// 1, 2 or 5 times a power of ten, at least raw.
double niceStep(double raw);

} // namespace sandbar::ui::units
