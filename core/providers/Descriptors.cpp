#include "providers/Descriptors.h"

namespace sandbar {

namespace {
const FieldDescriptor *findField(const QList<FieldDescriptor> &fields, const QString &key)
{
    for (const auto &f : fields) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}
} // namespace

const FieldDescriptor *ProviderDescriptor::accountField(const QString &key) const
{
    return findField(accountFields, key);
}

const FieldDescriptor *ProviderDescriptor::createOption(const QString &key) const
{
    return findField(createOptions, key);
}

} // namespace sandbar
