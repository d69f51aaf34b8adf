#pragma once

#include "common/Result.h"

#include <QList>
#include <QSslCertificate>
#include <QString>
#include <QUrl>

namespace sandbar::cloud {

// Whether host names this machine's loopback (127.0.0.0/8, ::1, localhost): the only place a
// plain-http service URL is accepted, because nothing on the way can read or change it.
bool isLoopbackHost(const QString &host);

// A cloud account's service URL as a person typed it: https, or http on loopback alone (a
// contract server, a tunnel); no query, no fragment, no user info (keys go in the keychain,
// not in a URL). The path is kept without a trailing '/', so "base + /sandboxes" composes.
// `what` names the field in the error ("API URL").
Result<QUrl> parseServiceUrl(const QString &text, const QString &what);

// base's path + path (which starts with '/'), keeping base's scheme, host and port.
QUrl joinUrl(const QUrl &base, const QString &path);

// The certificates of a PEM file an account names for a self-hosted service's private CA.
Result<QList<QSslCertificate>> loadCaFile(const QString &path);

} // namespace sandbar::cloud
