#pragma once

#include <QString>

namespace sandbar::bench {

// The real `sandbar` process's start and idle figures (bench/ui_process.cpp); 0 on success.
int runUiProcessFigures(const QString &dockerHost, const QString &podmanHost, const QString &image);

} // namespace sandbar::bench
