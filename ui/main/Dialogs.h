#pragma once

// The account and New session dialogs, for callers that include them together.
#include "main/AccountDialog.h"
#include "main/FirstStartPanel.h"
#include "main/NewSessionDialog.h"
