#pragma once

#include "common/Result.h"

#include <QList>
#include <QNetworkProxy>
#include <QSslCertificate>
#include <QString>
#include <optional>

namespace sandbar::net {

// Where an HTTP/1.1 server listens: a unix socket, a Windows named pipe, or TCP (with TLS).
struct Endpoint {
    enum class Kind { Unix, NamedPipe, Tcp };
    Kind kind = Kind::Unix;
    QString path;     // Unix: socket path; NamedPipe: pipe name as QLocalSocket wants it
    QString host;     // Tcp
    quint16 port = 0; // Tcp
    bool tls = false;
    QString caFile, certFile, keyFile; // PEM files, TLS only
    bool verifyPeer = true;
    // Trusted on top of the system's certificate authorities (a caFile replaces them instead).
    QList<QSslCertificate> extraCaCertificates;
    // Tcp: the proxy to go through (HTTP CONNECT or SOCKS5); unset, Qt's application default.
    std::optional<QNetworkProxy> proxy;

    // unix:///run/docker.sock, npipe:////./pipe/docker_engine, tcp://h:2375, https://h:2376,
    // http://127.0.0.1:8080. tcp:// gets TLS when tls is set afterwards (DOCKER_TLS_VERIFY).
    static Result<Endpoint> parse(const QString &url);
    QString toUrl() const;
    // What a person should read in an error message.
    QString display() const { return toUrl(); }

private:
    // Translates in the context lupdate gives this struct's tr() calls, "sandbar::net::Endpoint".
    static QString tr(const char *text);
};

} // namespace sandbar::net
