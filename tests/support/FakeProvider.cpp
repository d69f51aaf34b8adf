#include "FakeProvider.h"

#include "providers/Provider.h"

namespace sandbar::test {

DescriptorOnlyFactory::DescriptorOnlyFactory()
{
    m_desc.id = QStringLiteral("fake");
    m_desc.displayName = QStringLiteral("Fake cloud");
    FieldDescriptor endpoint;
    endpoint.key = QStringLiteral("endpoint");
    endpoint.label = QStringLiteral("Endpoint");
    endpoint.type = FieldType::Url;
    FieldDescriptor token;
    token.key = QStringLiteral("token");
    token.label = QStringLiteral("API token");
    token.type = FieldType::Secret;
    token.secret = true;
    token.required = true;
    FieldDescriptor region;
    region.key = QStringLiteral("region");
    region.label = QStringLiteral("Region");
    region.type = FieldType::Choice;
    region.choices = {QStringLiteral("eu"), QStringLiteral("us")};
    m_desc.accountFields = {endpoint, token, region};
}

Result<std::unique_ptr<Provider>> DescriptorOnlyFactory::create(const AccountConfig &) const
{
    return makeError(ErrorCode::Unsupported, QStringLiteral("the fake provider only describes itself"));
}

} // namespace sandbar::test
