#pragma once

#include "providers/ProviderFactory.h"

#include <memory>

namespace sandbar::sprites {

ProviderDescriptor makeSpritesDescriptor();
std::unique_ptr<ProviderFactory> makeSpritesFactory();

} // namespace sandbar::sprites
