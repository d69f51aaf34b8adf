#pragma once

#include "catalog/Catalog.h"

#include <QJsonArray>
#include <QJsonObject>
#include <memory>

namespace sandbar::test {

// The shipped catalog with one entry (catalogId) managed by a test provider (providerId):
// that provider's sessions are then priced by the entry's published rates. Header-only so
// that only tests that link sandbar-catalog include it.
inline std::shared_ptr<const catalog::Catalog> catalogPricing(const QString &providerId, const QString &catalogId)
{
    auto shipped = catalog::Catalog::shipped();
    const QJsonObject overlay{
        {QStringLiteral("schema"), shipped->document().value(QStringLiteral("schema"))},
        {QStringLiteral("providers"),
         QJsonArray{QJsonObject{{QStringLiteral("id"), catalogId}, {QStringLiteral("managed_by"), providerId}}}}};
    auto merged = catalog::Catalog::fromDocument(catalog::mergeDocuments(shipped->document(), overlay));
    if (!merged.ok())
        qFatal("%s", qPrintable(merged.message()));
    return std::make_shared<const catalog::Catalog>(merged.value());
}

// E2B's published rates for 2 vCPU and 4 GiB: $0.0504 per vCPU-hour, $0.0162 per GiB-hour.
inline constexpr double kE2bUsdPerHour2x4 = 2 * 0.0504 + 4 * 0.0162;

} // namespace sandbar::test
