#pragma once

// An account of a cloud provider that talks to its contract server instead of the service:
// every URL field of the account at the server, under the path the service's own URL has
// (Daytona's API is at /api), the key the server was started with (--api-key), and each other
// required field (Vercel's team and project) as "contract-KEY", which the servers accept.
// Header only: the bench's contract group uses it without the tests' libraries.

#include "providers/Descriptors.h"
#include "providers/ProviderFactory.h"

#include <QUrl>

namespace contract {

inline sandbar::AccountConfig contractAccount(const sandbar::ProviderDescriptor &d, const QString &name,
                                              const QString &baseUrl, const QString &apiKey)
{
    sandbar::AccountConfig a;
    a.name = name;
    a.provider = d.id;
    for (const sandbar::FieldDescriptor &f : d.accountFields) {
        if (f.type == sandbar::FieldType::Url)
            a.settings.insert(f.key, QString(baseUrl + QUrl(f.defaultValue.toString()).path()));
        else if (f.required && !f.secret && f.type == sandbar::FieldType::String)
            a.settings.insert(f.key, QString(QStringLiteral("contract-") + f.key));
    }
    a.secrets.insert(QStringLiteral("api-key"), apiKey);
    return a;
}

} // namespace contract
