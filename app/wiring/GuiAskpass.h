#pragma once

#include <QWidget>
#include <memory>

namespace sandbar::net {
class AskpassServer;
}

namespace sandbar {

// The window answers what ssh asks (a key's passphrase, a security key's PIN) in a dialog over
// the window, never kept: the server that sandbar-askpass reaches, installed for every ssh
// Sandbar runs. Null (and ssh runs in batch mode, as for sandbarctl) when the helper is not
// found next to the program or the server cannot listen.
std::unique_ptr<net::AskpassServer> installWindowAskpass(QWidget *window);

} // namespace sandbar
