// Plays "the app": creates a Local session, runs a command in a terminal, prints the
// session and terminal ids and exits without closing anything. tst_localprovider then
// checks that the sandbox outlived this process and that the terminal reattaches.

#include "providers/local/LocalProvider.h"
#include "terminal/PtyChannel.h"

#include <QCoreApplication>
#include <QTimer>
#include <cstdio>

using namespace sandbar;
using namespace sandbar::local;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: tst_local_helper DATADIR\n");
        return 2;
    }
    AccountConfig account;
    account.name = QStringLiteral("local-test");
    account.provider = QStringLiteral("local");
    account.dataDir = QString::fromLocal8Bit(argv[1]);
    auto provider = std::make_unique<LocalProvider>(account, LocalEnvironment::detect());
    std::unique_ptr<PtyChannel> pty;
    QByteArray seen;
    bool printed = false; // output can still arrive after quit() until the loop returns
    CreateSpec spec;
    spec.name = QStringLiteral("helper");
    spec.ttlSeconds = 120;
    provider->create(spec, Callback<SessionInfo>(&app, [&](Result<SessionInfo> r) {
                         if (!r) {
                             std::printf("ERROR %s\n", qPrintable(r.message()));
                             app.exit(1);
                             return;
                         }
                         const QString id = r->id;
                         pty = provider->openPty(id, PtyOptions{});
                         QObject::connect(pty.get(), &PtyChannel::started, &app,
                                          [&] { pty->write("echo sandbar-marker-$((6*7))\n"); });
                         QObject::connect(pty.get(), &PtyChannel::dataReceived, &app, [&, id](const QByteArray &b) {
                             seen += b;
                             if (!printed && seen.contains("sandbar-marker-42")) {
                                 printed = true;
                                 std::printf("SESSION %s PTY %s\n", qPrintable(id),
                                             qPrintable(pty->property("attachId").toString()));
                                 std::fflush(stdout);
                                 app.quit();
                             }
                         });
                         QObject::connect(pty.get(), &PtyChannel::errorOccurred, &app, [&](const Error &e) {
                             std::printf("ERROR %s\n", qPrintable(e.message));
                             app.exit(1);
                         });
                         pty->start();
                     }));
    QTimer::singleShot(20000, &app, [&] {
        std::printf("ERROR timeout\n");
        app.exit(3);
    });
    return app.exec();
}
