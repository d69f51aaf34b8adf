#pragma once

#include <QString>

namespace contract {

// The command line of sandbar-contract-server, handed to each provider's install().
struct Options {
    QString provider; // a cloud provider's id (ContractServers.h)
    quint16 port = 0;
    QString faults; // --faults LIST (see Faults.h)
    QString tlsCert;
    QString tlsKey;
    QString apiKey;  // empty: the provider's default
    QString baseUrl; // filled after listen(): "http://127.0.0.1:PORT"
    quint16 boundPort = 0;
    bool tls = false;
};

} // namespace contract
