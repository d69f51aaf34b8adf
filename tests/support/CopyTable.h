#pragma once
// docker cp's rules, run against a live session of any provider (Docker, Podman, Local):
// the same table for every provider, both directions and the tar streams of `cp -`.

#include "TestSupport.h"
#include "providers/Provider.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>

namespace sandbar::test {

namespace copytable {

inline VoidResult transfer(std::unique_ptr<TransferJob> job)
{
    std::optional<VoidResult> result;
    QObject::connect(job.get(), &TransferJob::finished, job.get(), [&](const VoidResult &r) { result = r; });
    job->start();
    if (!waitUntil([&] { return result.has_value(); }, 60000))
        return makeError(ErrorCode::Timeout, QStringLiteral("the transfer did not finish"));
    return *result;
}

// Exit code (or -1) and stdout of a command in the session.
inline std::pair<int, QByteArray> run(Provider *p, const QString &id, const QStringList &argv)
{
    ExecRequest req;
    req.argv = argv;
    auto job = p->commands()->exec(id, req);
    std::optional<Result<int>> code;
    QByteArray out;
    QObject::connect(job.get(), &ExecJob::stdoutData, job.get(), [&](const QByteArray &b) { out += b; });
    QObject::connect(job.get(), &ExecJob::finished, job.get(), [&](const Result<int> &c) { code = c; });
    job->start();
    waitUntil([&] { return code.has_value(); }, 30000);
    return {code && *code ? **code : -1, out};
}

inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

inline QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

} // namespace copytable

// Runs the table under base (a path in the session whose parent exists and which does not
// exist yet). Returns what went wrong, one line each; empty when every row held.
inline QStringList runCopyTable(Provider *p, const QString &id, const QString &base)
{
    using namespace copytable;
    QStringList failures;
    const auto check = [&](bool ok, const QString &what) {
        if (!ok)
            failures << what;
    };
    const auto remoteText = [&](const QString &path) {
        auto [code, out] = run(p, id, {QStringLiteral("cat"), base + path});
        return code == 0 ? out : QByteArray("<missing>");
    };
    const auto remoteIs = [&](const char *flag, const QString &path) {
        return run(p, id, {QStringLiteral("test"), QLatin1String(flag), base + path}).first == 0;
    };
    const auto up = [&](const QString &local, const QString &dest) {
        return transfer(p->files()->upload(id, local, base + dest));
    };
    const auto expectOk = [&](const VoidResult &r, const QString &row) {
        check(r.ok(), row + QStringLiteral(": ") + (r.ok() ? QString() : r.error().message));
    };
    const auto expectError = [&](const VoidResult &r, const QString &row) {
        check(!r.ok() && !r.error().message.isEmpty(), row + QStringLiteral(": should have failed"));
    };

    QTemporaryDir l;
    const QString file = l.filePath(QStringLiteral("a.txt"));
    const QString tree = l.filePath(QStringLiteral("tree"));
    const QString empty = l.filePath(QStringLiteral("empty"));
    if (!writeFile(file, "A") || !writeFile(tree + QStringLiteral("/x.txt"), "X") ||
        !writeFile(tree + QStringLiteral("/sub/y.txt"), "Y") || !QDir().mkpath(empty))
        return {QStringLiteral("cannot make the local fixtures")};

    // Upload: a folder to a new path whose parent exists is created under that name.
    expectOk(transfer(p->files()->upload(id, empty, base)), QStringLiteral("up empty folder names base"));
    check(remoteIs("-d", QString()), QStringLiteral("base is a folder"));
    expectOk(up(file, QString()), QStringLiteral("up file into folder"));
    check(remoteText(QStringLiteral("/a.txt")) == "A", QStringLiteral("up file into folder: content"));
    expectOk(up(file, QStringLiteral("/blob")), QStringLiteral("up file names new path"));
    check(remoteIs("-f", QStringLiteral("/blob")) && remoteText(QStringLiteral("/blob")) == "A",
          QStringLiteral("up file names new path: a file, not a folder"));
    writeFile(file, "B");
    expectOk(up(file, QStringLiteral("/blob")), QStringLiteral("up file over file"));
    check(remoteText(QStringLiteral("/blob")) == "B", QStringLiteral("up file over file: replaced"));
    expectOk(up(file, QStringLiteral("/./")), QStringLiteral("up file into folder/."));
    check(remoteText(QStringLiteral("/a.txt")) == "B", QStringLiteral("up file into folder/.: content"));
    expectError(up(file, QStringLiteral("/nodir/")), QStringLiteral("up file to missing folder/"));
    check(!remoteIs("-e", QStringLiteral("/nodir")), QStringLiteral("up file to missing folder/: nothing made"));
    expectError(up(file, QStringLiteral("/nope/x")), QStringLiteral("up file, parent missing"));
    expectError(up(file, QStringLiteral("/blob/")), QStringLiteral("up file to file/"));
    expectOk(up(tree, QString()), QStringLiteral("up folder into folder"));
    check(remoteText(QStringLiteral("/tree/sub/y.txt")) == "Y", QStringLiteral("up folder into folder: content"));
    expectOk(up(tree, QStringLiteral("/copy")), QStringLiteral("up folder names new path"));
    check(remoteText(QStringLiteral("/copy/x.txt")) == "X" && !remoteIs("-e", QStringLiteral("/copy/tree")),
          QStringLiteral("up folder names new path: its contents, not the folder"));
    writeFile(tree + QStringLiteral("/z.txt"), "Z");
    expectOk(up(tree + QStringLiteral("/."), QStringLiteral("/copy")), QStringLiteral("up folder/. into folder"));
    check(remoteText(QStringLiteral("/copy/z.txt")) == "Z" && !remoteIs("-e", QStringLiteral("/copy/tree")),
          QStringLiteral("up folder/. into folder: contents merged"));
    expectOk(up(tree, QStringLiteral("/copy")), QStringLiteral("up folder into existing folder"));
    check(remoteText(QStringLiteral("/copy/tree/x.txt")) == "X",
          QStringLiteral("up folder into existing folder: under its own name"));
    expectError(up(tree, QStringLiteral("/blob")), QStringLiteral("up folder onto file"));
    // A link to a folder is that folder, as with docker cp.
    check(run(p, id,
              {QStringLiteral("ln"), QStringLiteral("-s"), base + QStringLiteral("/copy"),
               base + QStringLiteral("/link")})
                  .first == 0,
          QStringLiteral("ln -s in the session"));
    expectOk(up(file, QStringLiteral("/link")), QStringLiteral("up file into link to folder"));
    check(remoteText(QStringLiteral("/copy/a.txt")) == "B" && remoteIs("-L", QStringLiteral("/link")),
          QStringLiteral("up file into link to folder: lands in the folder, the link stays"));
    expectError(up(l.filePath(QStringLiteral("missing")), QString()), QStringLiteral("up missing local"));

    // Download: the same rules on this side.
    QTemporaryDir d;
    const auto down = [&](const QString &remote, const QString &local) {
        return transfer(p->files()->download(id, base + remote, d.path() + local));
    };
    expectOk(down(QStringLiteral("/blob"), QStringLiteral("/back")), QStringLiteral("down file names new path"));
    check(QFileInfo(d.filePath(QStringLiteral("back"))).isFile() && readFile(d.filePath(QStringLiteral("back"))) == "B",
          QStringLiteral("down file names new path: a file, not a folder"));
    expectOk(down(QStringLiteral("/a.txt"), QStringLiteral("/")), QStringLiteral("down file into folder/"));
    check(readFile(d.filePath(QStringLiteral("a.txt"))) == "B", QStringLiteral("down file into folder/: content"));
    expectOk(down(QStringLiteral("/copy"), QString()), QStringLiteral("down folder into folder"));
    check(readFile(d.filePath(QStringLiteral("copy/tree/sub/y.txt"))) == "Y",
          QStringLiteral("down folder into folder: content"));
    expectOk(down(QStringLiteral("/copy"), QStringLiteral("/renamed")), QStringLiteral("down folder names new path"));
    check(readFile(d.filePath(QStringLiteral("renamed/z.txt"))) == "Z" &&
              !QFileInfo::exists(d.filePath(QStringLiteral("renamed/copy"))),
          QStringLiteral("down folder names new path: its contents"));
    expectOk(down(QStringLiteral("/tree/."), QStringLiteral("/")), QStringLiteral("down folder/. into folder"));
    check(readFile(d.filePath(QStringLiteral("sub/y.txt"))) == "Y" &&
              !QFileInfo::exists(d.filePath(QStringLiteral("tree"))),
          QStringLiteral("down folder/. into folder: contents merged"));
    expectOk(down(QStringLiteral("/tree/."), QStringLiteral("/fresh")), QStringLiteral("down folder/. names new path"));
    check(readFile(d.filePath(QStringLiteral("fresh/x.txt"))) == "X",
          QStringLiteral("down folder/. names new path: contents"));
    expectError(down(QStringLiteral("/blob"), QStringLiteral("/nodir/")),
                QStringLiteral("down file to missing folder/"));
    expectError(down(QStringLiteral("/copy"), QStringLiteral("/back")), QStringLiteral("down folder onto file"));
    const VoidResult missing = down(QStringLiteral("/missing"), QString());
    check(!missing.ok() && missing.error().code == ErrorCode::NotFound, QStringLiteral("down missing: NotFound"));

    // `-`: a tar out, and the same tar in.
    QBuffer tar;
    tar.open(QIODevice::ReadWrite);
    expectOk(transfer(p->files()->downloadTar(id, base + QStringLiteral("/copy"), &tar)), QStringLiteral("down tar"));
    check(tar.size() >= 1024, QStringLiteral("down tar: a tar came out"));
    expectOk(transfer(p->files()->upload(id, empty, base + QStringLiteral("/fromtar"))),
             QStringLiteral("up empty folder"));
    tar.seek(0);
    expectOk(transfer(p->files()->uploadTar(id, &tar, base + QStringLiteral("/fromtar"))), QStringLiteral("up tar"));
    check(remoteText(QStringLiteral("/fromtar/copy/tree/x.txt")) == "X", QStringLiteral("up tar: content"));
    tar.seek(0);
    expectError(transfer(p->files()->uploadTar(id, &tar, base + QStringLiteral("/nodir"))),
                QStringLiteral("up tar, no folder"));
    tar.seek(0);
    expectError(transfer(p->files()->uploadTar(id, &tar, base + QStringLiteral("/blob"))),
                QStringLiteral("up tar onto file"));
    return failures;
}

} // namespace sandbar::test
