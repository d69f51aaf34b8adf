#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QThreadPool>
#include <functional>
#include <memory>

namespace sandbar {

// Runs blocking work (socket probes, deleting a tree) on a thread pool and delivers
// its result to then() on context's thread, through a queued signal; nothing is called once
// context is gone. The worker shares only the promise and what work captured, so work must
// hold copies, never context or its members.
template <typename T>
void runOffThread(QObject *context, std::function<T()> work, std::function<void(T)> then,
                  QThreadPool *pool = QThreadPool::globalInstance())
{
    auto promise = std::make_shared<QPromise<T>>();
    auto *watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context, [watcher, then = std::move(then)] {
        watcher->deleteLater();
        if (watcher->future().resultCount() > 0)
            then(watcher->result());
    });
    watcher->setFuture(promise->future());
    promise->start();
    pool->start([promise, work = std::move(work)] {
        promise->addResult(work());
        promise->finish();
    });
}

} // namespace sandbar
