// The pure parts of what tst_podman_oom checks against a Podman service, here so that
// `ctest -L unit` runs them with no service: the oom_kill count read from a container's cgroup
// files (DockerUsage.h), and the seccomp profile that refuses user namespaces (PodmanSeccomp.h).
#include "TestSupport.h"
#include "providers/docker/DockerUsage.h"
#include "providers/docker/PodmanSeccomp.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace sandbar;

namespace {
// Where Podman keeps its default profile; the file comes with the package, no service needed.
QString noEngineDefault()
{
    return QStringLiteral("no /etc/containers/seccomp.json or /usr/share/containers/seccomp.json: Podman is not "
                          "installed");
}
} // namespace

class TestPodmanOomParsers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cgroupCount_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<qint64>("kills"); // -1: none
        QTest::newRow("v2 memory.events")
            << QByteArray("low 0\nhigh 0\nmax 12\noom 2\noom_kill 2\noom_group_kill 0\n") << qint64(2);
        QTest::newRow("v1 memory.oom_control")
            << QByteArray("oom_kill_disable 0\nunder_oom 0\noom_kill 1\n") << qint64(1);
        QTest::newRow("none yet") << QByteArray("oom_kill 0\n") << qint64(0);
        QTest::newRow("both, larger wins") << QByteArray("oom_kill 3\noom_kill_disable 0\noom_kill 5") << qint64(5);
        QTest::newRow("no counter") << QByteArray("cat: can't open '/sys/fs/cgroup/memory.events'\n") << qint64(-1);
        QTest::newRow("empty") << QByteArray() << qint64(-1);
        QTest::newRow("not a number") << QByteArray("oom_kill lots\noom_kill -4\n") << qint64(-1);
        QTest::newRow("oom_group_kill alone") << QByteArray("oom_group_kill 7\n") << qint64(-1);
    }
    void cgroupCount()
    {
        QFETCH(QByteArray, text);
        QFETCH(qint64, kills);
        const auto got = docker::oomKillsFromCgroup(text);
        QCOMPARE(got.value_or(-1), kills);
    }

    void profileShape_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("missing"); // why the row has no profile to check
        QTest::newRow("built-in copy") << docker::podmanSeccompProfile() << QString();
        // Podman's own default where Podman is installed (in CI always: test.sh installs it).
        const QByteArray engineDefault = docker::engineDefaultSeccompProfile();
        QTest::newRow("this machine's default")
            << (engineDefault.isEmpty() ? QByteArray() : docker::podmanSeccompProfile(engineDefault))
            << (engineDefault.isEmpty() ? noEngineDefault() : QString());
    }

    // Podman's default with the user-namespace rules changed, nothing else dropped.
    void profileShape()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, missing);
        SANDBAR_REQUIRE(missing.isEmpty(), missing);
        const auto j = nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
        QVERIFY(!j.is_discarded());
        QCOMPARE(QString::fromStdString(j.value("defaultAction", "")), QStringLiteral("SCMP_ACT_ERRNO"));
        int unconditional = 0, newUserRefused = 0, clone3Enosys = 0, allowedNames = 0;
        for (const auto &rule : j.at("syscalls")) {
            const auto &names = rule.at("names");
            const std::string action = rule.value("action", "");
            const bool hasArgs = rule.contains("args") && rule.at("args").is_array() && !rule.at("args").empty();
            const bool conditional = (rule.contains("includes") && !rule.at("includes").empty()) ||
                                     (rule.contains("excludes") && !rule.at("excludes").empty());
            for (const auto &n : names) {
                const std::string name = n.get<std::string>();
                if (action == "SCMP_ACT_ALLOW" && !hasArgs && !conditional) {
                    ++allowedNames;
                    if (name == "clone" || name == "clone3" || name == "unshare")
                        ++unconditional;
                }
                if ((name == "clone" || name == "unshare") && action == "SCMP_ACT_ERRNO" && hasArgs &&
                    rule.at("args")[0].value("value", 0ULL) == 0x10000000ULL &&
                    rule.at("args")[0].value("valueTwo", 0ULL) == 0x10000000ULL && rule.value("errnoRet", 0) == 1)
                    ++newUserRefused;
                if (name == "clone3" && action == "SCMP_ACT_ERRNO" && rule.value("errnoRet", 0) == 38)
                    ++clone3Enosys;
            }
        }
        QCOMPARE(unconditional, 0);
        QCOMPARE(newUserRefused, 3); // clone (flags first; s390: second) and unshare
        QCOMPARE(clone3Enosys, 1);
        QVERIFY2(allowedNames > 300, qPrintable(QString::number(allowedNames)));
    }

    // Not a profile: the built-in copy, never a profile without the change. Run on their own,
    // so that a machine without Podman still checks them.
    void profileFallbacks()
    {
        QCOMPARE(docker::refuseUserNamespaces("[]"), QByteArray());
        QCOMPARE(docker::refuseUserNamespaces("{\"syscalls\":[{\"names\":7}]}"), QByteArray());
        QCOMPARE(docker::podmanSeccompProfile("garbage"), docker::podmanSeccompProfile());
        QVERIFY(docker::isSeccompFileError(
            "{\"cause\":\"no such file or directory\",\"message\":\"container create: opening seccomp profile failed: "
            "open /x.json: no such file or directory\",\"response\":500}"));
        QVERIFY(!docker::isSeccompFileError("{\"message\":\"no such image\"}"));
        // A real profile is taken, changed, as it is.
        const QByteArray engineDefault = docker::engineDefaultSeccompProfile();
        SANDBAR_REQUIRE(!engineDefault.isEmpty(), noEngineDefault());
        QCOMPARE(docker::podmanSeccompProfile(engineDefault), docker::refuseUserNamespaces(engineDefault));
    }
};

QTEST_GUILESS_MAIN(TestPodmanOomParsers)
#include "tst_podman_oom_parsers.moc"
