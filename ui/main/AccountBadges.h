#pragma once

#include "sessions/SessionRegistry.h"

#include <QIcon>
#include <QString>

namespace sandbar::ui {

// The account list's look: a provider badge (its initials on its colour, the same for every
// account of that provider) with a health dot in the corner: green listed, red failing,
// grey not yet asked.
QIcon accountIcon(const QString &providerId, AccountStatus::State state);

// "Docker Engine · listed in 12 ms · 3 sessions, 2 running" or the error.
QString accountToolTip(const QString &providerName, const AccountStatus &status, int sessions, int running);

} // namespace sandbar::ui
