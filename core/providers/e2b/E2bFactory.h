#pragma once

#include "providers/ProviderFactory.h"

#include <memory>

namespace sandbar::e2b {

ProviderDescriptor makeE2bDescriptor();
std::unique_ptr<ProviderFactory> makeE2bFactory();

} // namespace sandbar::e2b
