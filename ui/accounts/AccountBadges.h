#pragma once

#include "providers/Descriptors.h"
#include "sessions/SessionRegistry.h"

#include <QIcon>
#include <QString>

namespace sandbar::ui {

// The account list's look: a provider badge (its letter on its colour, both from the
// provider's descriptor and the same for every account of it) with a health dot in the
// corner: green listed, red failing, grey not yet asked. An account whose provider is not
// built in (settings from a newer Sandbar) gets a steady colour made from providerId.
QIcon accountIcon(const QString &providerId, const ProviderLook &look, AccountStatus::State state);

// "Docker Engine · listed in 12 ms · 3 sessions, 2 running" or the error.
QString accountToolTip(const QString &providerName, const AccountStatus &status, int sessions, int running);

} // namespace sandbar::ui
