#include "LocalGpu.h"

#include "providers/local/LocalTr.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTimer>

namespace sandbar::local {

void listNvidiaGpus(QObject *context, const QString &smiPath, std::function<void(Result<QList<NvidiaSmiGpu>>)> done)
{
    auto *p = new QProcess(context);
    QObject::connect(p, &QProcess::finished, context, [p, done] {
        p->deleteLater();
        if (p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0) {
            const QString why =
                QString::fromLocal8Bit(p->readAllStandardError()).trimmed().section(QLatin1Char('\n'), 0, 0);
            done(makeError(ErrorCode::Unavailable, tr("nvidia-smi could not list this computer's GPUs: %1").arg(why)));
            return;
        }
        done(parseNvidiaSmiGpus(p->readAllStandardOutput()));
    });
    QObject::connect(p, &QProcess::errorOccurred, context, [p, done](QProcess::ProcessError err) {
        if (err != QProcess::FailedToStart)
            return;
        p->deleteLater();
        done(makeError(ErrorCode::Unavailable, tr("nvidia-smi could not be run: %1").arg(p->errorString())));
    });
    QTimer::singleShot(15000, p, [p] { p->kill(); });
    p->start(smiPath, nvidiaSmiQueryArgs());
}

} // namespace sandbar::local
