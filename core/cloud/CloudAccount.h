#pragma once

// The account every cloud provider has: an API key kept in the keychain, the service's URL
// (https, or http on loopback) with a default, and the PEM file of a self-hosted service's own
// certificate authority. Its fields are described here once, with each provider's own help
// text, and read back checked, so a new cloud provider writes neither again.

#include "common/Result.h"
#include "providers/Descriptors.h"
#include "providers/ProviderFactory.h"

#include <QList>
#include <QSslCertificate>
#include <QString>
#include <QUrl>

namespace sandbar::cloud {

// What tells one provider's account apart; every text is for people, already translated.
struct CloudAccountSpec {
    QString service;         // "E2B", in messages
    QString defaultEndpoint; // the service's own API URL
    QString keyHelp;         // "The team's API key (e2b_…), kept in the keychain"
    QString endpointHelp;    // "E2B's control plane; change it for a self-hosted E2B"
    QString caFileHelp;      // empty: the kit's own words
};

// The three fields, keyed api-key (secret, required), endpoint and ca-file, for a provider's
// descriptor to place among its own.
struct CloudAccountFields {
    FieldDescriptor apiKey;
    FieldDescriptor endpoint;
    FieldDescriptor caFile;
};
CloudAccountFields cloudAccountFields(const CloudAccountSpec &spec);

// An account's values, checked: the endpoint (the default when empty) parsed with
// parseServiceUrl, the key present (Unauthorized, naming the account, when it is not) and
// the CA file's certificates read.
struct CloudAccount {
    QUrl endpoint;
    QString apiKey; // a secret: never logged, never put in an error
    QList<QSslCertificate> caCertificates;
};
Result<CloudAccount> readCloudAccount(const AccountConfig &account, const CloudAccountSpec &spec);

} // namespace sandbar::cloud
