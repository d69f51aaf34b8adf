// ssh:// engine addresses and the ssh command lines Sandbar runs: a table of good, odd and
// hostile addresses, and the safety options every call carries, in the order ssh reads them
// (options, then "--", then the destination).
#include "net/SshTarget.h"

#include <QTest>

using namespace sandbar;
using namespace sandbar::net;

class TestSshTarget : public QObject
{
    Q_OBJECT

    static void row(const char *name, const char *url, bool ok, const char *user, const char *host, int port,
                    const char *socket)
    {
        QTest::newRow(name) << QString::fromUtf8(url) << ok << QString::fromUtf8(user) << QString::fromUtf8(host)
                            << port << QString::fromUtf8(socket);
    }

private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("socket");
        row("host only", "ssh://build1", true, "", "build1", 0, "");
        row("user port path", "ssh://core@build1:2222/run/user/1000/podman/podman.sock", true, "core", "build1", 2222,
            "/run/user/1000/podman/podman.sock");
        row("root slash", "ssh://me@h/", true, "me", "h", 0, "");
        row("ipv6", "ssh://me@[::1]:22/var/run/docker.sock", true, "me", "::1", 22, "/var/run/docker.sock");
        row("upper scheme", "SSH://h", true, "", "h", 0, "");
        row("dotted path", "ssh://h/run/../run/docker.sock", true, "", "h", 0, "/run/docker.sock");
        row("empty", "", false, "", "", 0, "");
        row("no host", "ssh://", false, "", "", 0, "");
        row("other scheme", "tcp://h:2375", false, "", "", 0, "");
        row("password", "ssh://me:secret@h", false, "", "", 0, "");
        row("option host", "ssh://-oProxyCommand=x", false, "", "", 0, "");
        row("option user", "ssh://-oProxyCommand=touch%20x@h", false, "", "", 0, "");
        row("space user", "ssh://a%20b@h", false, "", "", 0, "");
        row("query", "ssh://h?x=1", false, "", "", 0, "");
        row("bad port", "ssh://h:99999", false, "", "", 0, "");
        row("garbage", "ssh://\x01\x02", false, "", "", 0, "");
    }
    void parse()
    {
        QFETCH(QString, url);
        QFETCH(bool, ok);
        const auto r = SshTarget::parse(url);
        QCOMPARE(r.ok(), ok);
        if (!ok) {
            QVERIFY(!r.error().message.isEmpty());
            return;
        }
        QTEST(r->user, "user");
        QTEST(r->host, "host");
        QTEST(r->port, "port");
        QTEST(r->socketPath, "socket");
        // What it prints reads back the same.
        const auto again = SshTarget::parse(r->toUrl());
        QVERIFY(again.ok());
        QCOMPARE(again->destination(), r->destination());
        QCOMPARE(again->port, r->port);
        QCOMPARE(again->socketPath, r->socketPath);
    }

    void everyCallCarriesTheSafetyOptions()
    {
        SshTarget t = *SshTarget::parse(QStringLiteral("ssh://core@build1:2222/run/docker.sock"));
        t.identityFile = QStringLiteral("/keys/id_ed25519");
        t.configFile = QStringLiteral("/cfg/ssh_config");
        SshOptions o;
        o.controlDir = QStringLiteral("/run/user/0/sandbar/ssh");
        o.batchMode = true;
        // Every call SshLink makes: the master, a command, a forwarding, check and exit.
        const QList<QStringList> calls = {
            sshMasterArguments(t, o), sshCommandArguments(t, o, QStringLiteral("docker system dial-stdio")),
            sshForwardArguments(t, o, QStringLiteral("/tmp/x/engine.sock"), QStringLiteral("/run/docker.sock")),
            sshControlArguments(t, o, QStringLiteral("exit")), sshControlArguments(t, o, QStringLiteral("check"))};
        for (const QStringList &args : calls) {
            const qsizetype dashes = args.indexOf(QStringLiteral("--"));
            QVERIFY2(dashes > 0 && args.value(dashes + 1) == QLatin1String("core@build1"), qPrintable(args.join(u' ')));
            const QStringList options = args.mid(0, dashes);
            for (const char *opt :
                 {"ForwardAgent=no", "ForwardX11=no", "PermitLocalCommand=no", "StrictHostKeyChecking=yes",
                  "BatchMode=yes", "ControlMaster=auto", "ControlPath=/run/user/0/sandbar/ssh/%C"})
                QVERIFY2(options.contains(QLatin1String(opt)), opt);
            QVERIFY(options.join(u' ').contains(QLatin1String("-F /cfg/ssh_config -p 2222 -i /keys/id_ed25519")));
            QVERIFY(options.contains(QStringLiteral("ServerAliveInterval=15")));
        }
        // The master binds what it forwards (owner only) and fails rather than half-forward;
        // it runs nothing and goes to the background once logged in.
        const QStringList master = calls.at(0);
        QVERIFY(master.contains(QStringLiteral("ExitOnForwardFailure=yes")));
        QVERIFY(master.contains(QStringLiteral("StreamLocalBindMask=0177")));
        QVERIFY(master.join(u' ').contains(QLatin1String("-N -f --")));
        QVERIFY(calls.at(2).join(u' ').contains(QLatin1String("-O forward -L /tmp/x/engine.sock:/run/docker.sock --")));
        QCOMPARE(calls.at(1).last(), QStringLiteral("docker system dial-stdio"));
        QVERIFY(calls.at(3).join(u' ').contains(QLatin1String("-O exit --")));
        QVERIFY(calls.at(4).join(u' ').contains(QLatin1String("-O check --")));

        // The window asks for passphrases (SSH_ASKPASS), so it does not set BatchMode; without
        // a control folder there is no master connection.
        const QStringList plain = sshBaseArguments(*SshTarget::parse(QStringLiteral("ssh://h")), SshOptions{});
        QVERIFY(!plain.contains(QStringLiteral("BatchMode=yes")));
        QVERIFY(!plain.join(u' ').contains(QLatin1String("Control")));
        QVERIFY(!plain.contains(QStringLiteral("-p")));
    }

    // Learning a host's key offers no credential and trusts nothing where ssh looks: the
    // options come before the config file's (ssh keeps the first value it gets), the key goes
    // to the scratch file, and there is no identity, agent or master connection.
    void scanningOffersNoCredential()
    {
        SshTarget t = *SshTarget::parse(QStringLiteral("ssh://core@build1:2222"));
        t.identityFile = QStringLiteral("/keys/id_ed25519");
        t.configFile = QStringLiteral("/cfg/ssh_config");
        SshOptions o;
        o.controlDir = QStringLiteral("/run/user/0/sandbar/ssh");
        const QStringList args = sshScanArguments(t, o, QStringLiteral("/tmp/seen"));
        const qsizetype config = args.indexOf(QStringLiteral("-F"));
        QVERIFY(config > 0);
        for (const char *opt :
             {"StrictHostKeyChecking=accept-new", "UserKnownHostsFile=/tmp/seen", "GlobalKnownHostsFile=/dev/null",
              "IdentityAgent=none", "PreferredAuthentications=hostbased", "HostbasedAuthentication=no",
              "ControlMaster=no", "ControlPath=none", "ForwardAgent=no", "BatchMode=yes"}) {
            const qsizetype at = args.indexOf(QLatin1String(opt));
            QVERIFY2(at > 0 && at < config && args.at(at - 1) == QLatin1String("-o"), opt);
        }
        QVERIFY(!args.contains(QStringLiteral("-i")));
        QVERIFY(!args.contains(QStringLiteral("/keys/id_ed25519")));
        QVERIFY(args.join(u' ').endsWith(QLatin1String("-p 2222 -T -- core@build1 true")));
        QCOMPARE(sshConfigQueryArguments(t),
                 (QStringList{QStringLiteral("-F"), QStringLiteral("/cfg/ssh_config"), QStringLiteral("-p"),
                              QStringLiteral("2222"), QStringLiteral("-G"), QStringLiteral("--"),
                              QStringLiteral("core@build1")}));
    }

    void fingerprint_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("fingerprint");
        // The key and its fingerprint as ssh-keygen -lf printed them.
        const QByteArray key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHs1syRJuMPv9VSVTcKcTJPZ99RXnb+YKuxxjEnkvqOW";
        const QString fp = QStringLiteral("SHA256:IWx/hUlf4vmwEsrhE7d7I8IDFPqRO6DlfLdKBPcqM64");
        QTest::newRow("plain host") << QByteArray("[127.0.0.1]:42222 " + key) << fp;
        QTest::newRow("hashed host, comment")
            << QByteArray("|1|qAVMEYWYQpTJGzAVBwJ1BlNqVxI=|dNbqNrtaeWk1t5kqE+bLG6SCqI4= " + key + " root@vm\n") << fp;
        QTest::newRow("marker") << QByteArray("@cert-authority *.example.org " + key) << fp;
        QTest::newRow("tabs") << QByteArray("host\t" + key).replace(' ', '\t') << fp;
        QTest::newRow("empty") << QByteArray() << QString();
        QTest::newRow("comment line") << QByteArray("# host " + key) << QString();
        QTest::newRow("no key") << QByteArray("host ssh-ed25519") << QString();
        QTest::newRow("truncated key") << QByteArray("host " + key.left(40)) << QString();
        QTest::newRow("type differs") << QByteArray("host ssh-rsa " + key.mid(12)) << QString();
        QTest::newRow("garbage") << QByteArray("host ssh-ed25519 %%%%not*base64") << QString();
    }
    void fingerprint()
    {
        QFETCH(QByteArray, line);
        QTEST(hostKeyFingerprint(line), "fingerprint");
    }

    void knownHostsFile_data()
    {
        QTest::addColumn<QByteArray>("config");
        QTest::addColumn<QString>("file");
        QTest::newRow("two files") << QByteArray(
                                          "user root\nuserknownhostsfile /root/.ssh/known_hosts /root/.ssh/kh2\n")
                                   << QStringLiteral("/root/.ssh/known_hosts");
        QTest::newRow("one") << QByteArray("userknownhostsfile /tmp/kh\nport 22") << QStringLiteral("/tmp/kh");
        QTest::newRow("none") << QByteArray("userknownhostsfile none\n") << QString();
        QTest::newRow("not expanded") << QByteArray("userknownhostsfile ~/.ssh/known_hosts\n") << QString();
        QTest::newRow("missing") << QByteArray("globalknownhostsfile /etc/ssh/ssh_known_hosts\n") << QString();
        QTest::newRow("empty") << QByteArray() << QString();
    }
    void knownHostsFile()
    {
        QFETCH(QByteArray, config);
        QTEST(userKnownHostsFile(config), "file");
    }

    // AES-GCM goes first only where the person chose no ciphers and the processor has AES.
    void cipherPreference_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<bool>("aes");
        QTest::addColumn<QString>("ciphers");
        const QByteArray defaults = "user root\nciphers chacha20-poly1305@openssh.com,aes128-ctr,aes192-ctr,"
                                    "aes256-ctr,aes128-gcm@openssh.com,aes256-gcm@openssh.com\nport 22\n";
        const QString gcmFirst = QStringLiteral("^aes128-gcm@openssh.com,aes256-gcm@openssh.com");
        QTest::newRow("defaults, AES") << defaults << true << gcmFirst;
        QTest::newRow("defaults, no AES") << defaults << false << QString();
        QTest::newRow("the person's order")
            << QByteArray("ciphers aes256-ctr,chacha20-poly1305@openssh.com\n") << true << QString();
        QTest::newRow("same set, other order")
            << QByteArray("ciphers aes128-gcm@openssh.com,chacha20-poly1305@openssh.com,aes128-ctr,aes192-ctr,"
                          "aes256-ctr,aes256-gcm@openssh.com\n")
            << true << QString();
        QTest::newRow("no ciphers line") << QByteArray("user root\n") << true << QString();
        QTest::newRow("empty") << QByteArray() << true << QString();
        QTest::newRow("garbage") << QByteArray("\x01\xff ciphers\n\n") << true << QString();
    }
    void cipherPreference()
    {
        QFETCH(QByteArray, host);
        QFETCH(bool, aes);
        const QByteArray defaults = "user root\nciphers chacha20-poly1305@openssh.com,aes128-ctr,aes192-ctr,"
                                    "aes256-ctr,aes128-gcm@openssh.com,aes256-gcm@openssh.com\nport 22\n";
        QTEST(preferredCiphers(host, defaults, aes), "ciphers");
        // A defaults list without AES-GCM (a FIPS build) is left alone.
        QCOMPARE(preferredCiphers("ciphers aes128-ctr\n", "ciphers aes128-ctr\n", true), QString());
        // The choice reaches every call, and ssh's -F /dev/null query reads nothing of the person's.
        SshTarget t;
        t.host = QStringLiteral("build1");
        SshOptions o;
        o.ciphers = QStringLiteral("^aes128-gcm@openssh.com");
        QVERIFY(sshMasterArguments(t, o).join(u' ').contains(QLatin1String("-o Ciphers=^aes128-gcm@openssh.com")));
        QCOMPARE(sshDefaultConfigQueryArguments(t).join(u' '), QStringLiteral("-F /dev/null -G -- build1"));
    }
};

QTEST_GUILESS_MAIN(TestSshTarget)
#include "tst_sshtarget.moc"
