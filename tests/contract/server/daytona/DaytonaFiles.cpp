#include "DaytonaFiles.h"

#include "DaytonaContext.h"
#include "kit/Responder.h"
#include "kit/SandboxHost.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QUuid>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>

namespace contract::daytona {

namespace {

constexpr qint64 kChunk = 256 * 1024;
constexpr qint64 kHighWater = 1024 * 1024;
constexpr qint64 kGiB = 1024LL * 1024 * 1024;

// Go's os.FileMode.String(): type letter then rwx triplets.
QString goModeString(mode_t mode)
{
    QString out;
    if (S_ISDIR(mode))
        out += QLatin1Char('d');
    else if (S_ISLNK(mode))
        out += QLatin1Char('L');
    else if (S_ISFIFO(mode))
        out += QLatin1Char('p');
    else if (S_ISSOCK(mode))
        out += QLatin1Char('S');
    else if (S_ISCHR(mode))
        out += QStringLiteral("Dc");
    else if (S_ISBLK(mode))
        out += QLatin1Char('D');
    else
        out += QLatin1Char('-');
    const char *letters = "rwxrwxrwx";
    for (int bit = 8; bit >= 0; --bit)
        out += (mode & (1u << bit)) ? QLatin1Char(letters[8 - bit]) : QLatin1Char('-');
    return out;
}

// Go's time.Time.String(): "2006-01-02 15:04:05.999999999 -0700 MST" (UTC here).
QString goTimeString(const QDateTime &time)
{
    const QDateTime utc = time.toUTC();
    QString frac = QString::number(utc.time().msec()).rightJustified(3, QLatin1Char('0'));
    while (frac.endsWith(QLatin1Char('0')))
        frac.chop(1);
    return utc.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) +
           (frac.isEmpty() ? QString() : QLatin1Char('.') + frac) + QStringLiteral(" +0000 UTC");
}

QString quoted(const QString &value)
{
    QString out = value;
    out.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    out.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return out;
}

// Feeds the parts of one bulk download into a chunked response, honouring back-pressure.
class DownloadStream : public QObject
{
public:
    DownloadStream(Responder *responder, QList<QPair<QString, QString>> files)
        : QObject(responder)
        , m_responder(responder)
        , m_files(std::move(files))
        , m_boundary(QUuid::createUuid().toByteArray(QUuid::Id128))
    {
        connect(responder, &Responder::drained, this, &DownloadStream::pump);
        connect(responder, &Responder::clientGone, this, [this] { m_gone = true; });
        responder->begin(200, {{"Content-Type", "multipart/form-data; boundary=" + m_boundary}});
        pump();
    }

private:
    void partHead(const QByteArray &name, const QString &fileName, const QByteArray &type, qint64 length)
    {
        QByteArray head = "--" + m_boundary + "\r\n";
        head +=
            "Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + quoted(fileName).toUtf8() + "\"\r\n";
        head += "Content-Type: " + type + "\r\n";
        head += "Content-Length: " + QByteArray::number(length) + "\r\n\r\n";
        m_responder->write(head);
    }

    void errorPart(const QString &asked, int status, const QString &code, const QString &message)
    {
        const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("message"), message},
                                                          {QStringLiteral("statusCode"), status},
                                                          {QStringLiteral("code"), code}})
                                    .toJson(QJsonDocument::Compact);
        partHead("error", asked, "application/json", body.size());
        m_responder->write(body + "\r\n");
    }

    // Opens the next file, or writes its error part; false when none is left.
    bool next()
    {
        while (m_index < m_files.size()) {
            const auto [asked, host] = m_files.at(m_index++);
            const QFileInfo info(host);
            if (host.isEmpty() || !info.exists()) {
                errorPart(asked, 404, QStringLiteral("FILE_NOT_FOUND"),
                          QStringLiteral("file not found: %1").arg(asked));
                continue;
            }
            if (info.isDir()) {
                errorPart(asked, 400, QStringLiteral("BAD_REQUEST"),
                          QStringLiteral("path is a directory: %1").arg(asked));
                continue;
            }
            m_file.setFileName(host);
            if (!m_file.open(QIODevice::ReadOnly)) {
                errorPart(asked, 403, QStringLiteral("FORBIDDEN"), m_file.errorString());
                continue;
            }
            partHead("file", asked, "application/octet-stream", m_file.size());
            return true;
        }
        return false;
    }

    void pump()
    {
        if (m_gone || !m_responder || m_responder->isFinished())
            return;
        while (m_responder->pendingBytes() < kHighWater) {
            if (!m_file.isOpen()) {
                if (!next()) {
                    m_responder->write("--" + m_boundary + "--\r\n");
                    m_responder->end();
                    return;
                }
            }
            const QByteArray chunk = m_file.read(kChunk);
            if (!chunk.isEmpty())
                m_responder->write(chunk);
            if (chunk.size() < kChunk) {
                m_file.close();
                m_responder->write("\r\n");
            }
        }
    }

    QPointer<Responder> m_responder;
    QList<QPair<QString, QString>> m_files;
    QByteArray m_boundary;
    qsizetype m_index = 0;
    QFile m_file;
    bool m_gone = false;
};

} // namespace

sandbar::Result<QString> mapApiPath(const Sandbox *sandbox, const QString &apiPath)
{
    static const QString daytonaHome = QStringLiteral("/home/daytona");
    QString path = apiPath;
    if (path == daytonaHome || path.startsWith(daytonaHome + QLatin1Char('/')))
        path = QStringLiteral("/home/user") + path.mid(daytonaHome.size());
    if (path.startsWith(QLatin1String("~/")))
        path = path.mid(2);
    return sandbox->mapPath(path);
}

QJsonObject fileInfoJson(const QString &hostPath)
{
    struct stat st {
    };
    if (::lstat(QFile::encodeName(hostPath).constData(), &st) != 0)
        return {};
    const QFileInfo info(hostPath);
    QString owner = QString::number(st.st_uid);
    if (const passwd *pw = ::getpwuid(st.st_uid))
        owner = QString::fromLocal8Bit(pw->pw_name);
    QString group = QString::number(st.st_gid);
    if (const struct group *gr = ::getgrgid(st.st_gid))
        group = QString::fromLocal8Bit(gr->gr_name);
    const QDateTime modified =
        QDateTime::fromMSecsSinceEpoch(qint64(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000, Qt::UTC);
    return QJsonObject{
        {QStringLiteral("name"), info.fileName()},
        {QStringLiteral("isDir"), bool(S_ISDIR(st.st_mode))},
        {QStringLiteral("size"), qint64(st.st_size)},
        {QStringLiteral("mode"), goModeString(st.st_mode)},
        {QStringLiteral("permissions"), QStringLiteral("%1").arg(st.st_mode & 07777, 4, 8, QLatin1Char('0'))},
        {QStringLiteral("owner"), owner},
        {QStringLiteral("group"), group},
        {QStringLiteral("modTime"), goTimeString(modified)},
        {QStringLiteral("modifiedAt"), modified.toString(Qt::ISODateWithMs)},
    };
}

bool setPosixMode(const QString &hostPath, uint mode)
{
    return ::chmod(QFile::encodeName(hostPath).constData(), mode_t(mode)) == 0;
}

void streamMultipartDownload(Responder *responder, const QList<QPair<QString, QString>> &files)
{
    new DownloadStream(responder, files);
}

QJsonObject systemMetricsJson(Sandbox *sandbox)
{
    const SandboxMetrics m = sandbox->metrics();
    const int cpus = qMax(1, sandbox->data.value(QStringLiteral("cpu")).toInt(1));
    return QJsonObject{
        {QStringLiteral("cpuCount"), cpus},
        {QStringLiteral("cpuUsedPct"), m.cpuPercent / cpus},
        {QStringLiteral("memTotal"), double(sandbox->data.value(QStringLiteral("memory")).toInt(1) * kGiB)},
        {QStringLiteral("memUsed"), double(m.memoryBytes)},
        {QStringLiteral("memCache"), 0},
        {QStringLiteral("diskTotal"), double(sandbox->data.value(QStringLiteral("disk")).toInt(3) * kGiB)},
        {QStringLiteral("diskUsed"), double(m.diskBytes)},
        {QStringLiteral("timestamp"), Context::nowIso()},
    };
}

} // namespace contract::daytona
