#pragma once

#include "common/NamespaceTr.h"

SANDBAR_NAMESPACE_TR(sandbar::sprites)
