#pragma once

// The account and New session dialogs, for callers that include them together.
#include "accounts/AccountDialog.h"
#include "accounts/FirstStartPanel.h"
#include "dialogs/NewSessionDialog.h"
