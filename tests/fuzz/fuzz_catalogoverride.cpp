// libFuzzer target: a user's <configDir>/catalog.json, the provider catalog override, through
// Catalog::load (the shipped catalog merged with the file), and the same bytes as a whole
// catalog document (Catalog::fromJson).
//
// Input: byte 0 bit 0 takes the full Catalog::load path (which parses the shipped catalog
// again, slower); otherwise the steps load() takes (readOverride, mergeDocuments,
// fromDocument) run over a shipped catalog parsed once. The rest is the file.
// A broken override never costs the catalog: load() then returns the shipped one.
#include "FuzzInput.h"
#include "catalog/Catalog.h"

#include <QFile>
#include <QTemporaryDir>

using namespace sandbar;
using namespace sandbar::catalog;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const Catalog shipped = Catalog::shipped().value();
    static QTemporaryDir dir;
    FUZZ_CHECK(dir.isValid() && !shipped.entries().isEmpty());
    const QString path = dir.filePath(QStringLiteral("catalog.json"));

    fuzz::Input in(data, size);
    const uint8_t flags = in.byte();
    const QByteArray file = in.rest();
    {
        QFile f(path);
        FUZZ_CHECK(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(file) == file.size());
    }

    if (flags & 1) {
        std::optional<Error> error;
        const Catalog c = Catalog::load(dir.path(), &error);
        if (error)
            FUZZ_CHECK(c.entries().size() == shipped.entries().size());
        for (const QString &id : requiredProviderIds())
            FUZZ_CHECK(c.find(id) != nullptr);
    } else {
        auto overlay = readOverride(path);
        if (overlay.ok()) {
            const QJsonObject merged = mergeDocuments(shipped.document(), *overlay, QStringLiteral("user-catalog"));
            auto c = Catalog::fromDocument(merged);
            if (c.ok()) {
                FUZZ_CHECK(validateDocument(merged).isEmpty());
                for (const QString &id : requiredProviderIds())
                    FUZZ_CHECK(c->find(id) != nullptr);
                for (const ProviderEntry &e : c->entries()) {
                    // What the window shows of every figure.
                    (void)figureText(e.coldStartMs, QStringLiteral(" ms"));
                    (void)figureText(e.prices.vcpuHour);
                    for (const Plan &p : e.plans)
                        (void)figureText(p.maxSessionHours, QStringLiteral(" h"));
                }
            }
        }
    }
    auto whole = Catalog::fromJson(file);
    if (whole.ok())
        for (const ProviderEntry &e : whole->entries())
            (void)whole->find(e.id);
    return 0;
}
