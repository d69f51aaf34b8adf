#include "providers/docker/PullProgress.h"

#include "providers/docker/DockerTr.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <limits>

namespace sandbar::docker {

namespace {
// Statuses after which a layer's bytes are all there (Extracting reports its own
// current/total, which must not pull the download figure back).
bool meansDownloaded(const QString &status)
{
    static const QStringList done = {QStringLiteral("Download complete"), QStringLiteral("Verifying Checksum"),
                                     QStringLiteral("Extracting"),        QStringLiteral("Pull complete"),
                                     QStringLiteral("Already exists"),    QStringLiteral("Layer already exists")};
    return done.contains(status);
}
} // namespace

QString PullProgress::tr(const char *text)
{
    return QCoreApplication::translate("sandbar::docker::PullProgress", text);
}

void PullProgress::feed(const QByteArray &bytes)
{
    m_buffer += bytes;
    qsizetype nl;
    while ((nl = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(nl);
        m_buffer.remove(0, nl + 1);
        feedLine(line);
    }
    // A stream that never sends a newline must not grow without bound.
    if (m_buffer.size() > (1 << 20))
        m_buffer.clear();
}

void PullProgress::feedLine(const QByteArray &line)
{
    const QByteArray trimmed = line.trimmed();
    if (trimmed.isEmpty())
        return;
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(trimmed, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return;
    const QJsonObject o = doc.object();
    if (const QString e = o.value(QStringLiteral("error")).toString(); !e.isEmpty()) {
        m_error = e;
        return;
    }
    const QString status = o.value(QStringLiteral("status")).toString();
    const QString id = o.value(QStringLiteral("id")).toString();
    if (status.isEmpty())
        return;
    if (id.isEmpty() || status.startsWith(QLatin1String("Pulling from"))) {
        // Whole-image lines: "Digest: ...", "Status: Downloaded newer image for ...".
        if (status.startsWith(QLatin1String("Status:"))) {
            m_finished = true;
            for (Layer &l : m_layers)
                l.complete = true;
        }
        if (!status.startsWith(QLatin1String("Digest:")))
            m_lastStatus = status;
        recompute();
        return;
    }
    if (!m_layers.contains(id))
        m_order << id;
    Layer &layer = m_layers[id];
    m_lastStatus = status;
    const QJsonObject detail = o.value(QStringLiteral("progressDetail")).toObject();
    if (status == QLatin1String("Downloading")) {
        // toInteger: 0 for what is no whole qint64 (1e91 from a hostile engine).
        const qint64 total = detail.value(QStringLiteral("total")).toInteger();
        const qint64 current = detail.value(QStringLiteral("current")).toInteger();
        if (total > 0)
            layer.total = total;
        layer.current = std::max(layer.current, std::clamp<qint64>(current, 0, std::max(layer.total, current)));
    } else if (meansDownloaded(status)) {
        layer.complete = true;
    }
    recompute();
}

void PullProgress::recompute()
{
    qint64 done = 0;
    qint64 total = 0;
    // Saturating sums: any number of layers of any size cannot overflow.
    const auto add = [](qint64 a, qint64 b) {
        qint64 r = 0;
        return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<qint64>::max() : r;
    };
    for (const Layer &l : std::as_const(m_layers)) {
        total = add(total, l.total);
        done = add(done, l.complete ? l.total : std::min(l.current, l.total));
    }
    m_total = std::max(total, m_done);
    m_done = std::max(m_done, done);
    if (m_finished) {
        m_done = m_total;
        m_percent = 100;
        return;
    }
    if (m_total > 0) // 99 at most until the engine says the image is there
        m_percent = std::max(m_percent, int(std::min(99.0, double(m_done) * 100.0 / double(m_total))));
}

QString PullProgress::text() const
{
    if (!m_error.isEmpty())
        return tr("Pulling image failed: %1").arg(m_error);
    if (m_total > 0)
        return tr("Pulling image… %1% (%2 of %3)")
            .arg(m_percent)
            .arg(formatPullBytes(m_done), formatPullBytes(m_total));
    if (m_finished)
        return tr("Pulling image… 100%");
    return m_lastStatus.isEmpty() ? tr("Pulling image…") : tr("Pulling image… %1").arg(m_lastStatus);
}

QString formatPullBytes(qint64 bytes)
{
    const double b = double(bytes);
    if (bytes < 1024)
        return tr("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return tr("%1 KiB").arg(qRound(b / 1024));
    if (bytes < qint64(1024) * 1024 * 1024)
        return tr("%1 MiB").arg(qRound(b / (1024 * 1024)));
    return tr("%1 GiB").arg(b / (1024.0 * 1024 * 1024), 0, 'f', 1);
}

} // namespace sandbar::docker
