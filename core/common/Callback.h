#pragma once

#include "common/Result.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <functional>

namespace sandbar {

// An asynchronous completion bound to a context object: it is dropped, not called,
// once the context is gone, so no callback outlives the widget or job that asked.
template <typename T>
class Callback
{
public:
    using Fn = std::function<void(Result<T>)>;

    Callback() = default;
    Callback(QObject *context, Fn fn)
        : m_context(context)
        , m_hasContext(context != nullptr)
        , m_fn(std::move(fn))
    {
    }

    // Calls now, on the current thread, if the context is still alive.
    void operator()(Result<T> result) const
    {
        if (!m_fn || (m_hasContext && m_context.isNull()))
            return;
        m_fn(std::move(result));
    }

    // Queues the call in the context's thread (never re-enters the caller); without a
    // context, in the application's.
    void post(Result<T> result) const
    {
        QObject *target = m_hasContext ? m_context.data() : QCoreApplication::instance();
        if (!m_fn || !target)
            return;
        auto fn = m_fn;
        QMetaObject::invokeMethod(
            target, [fn, r = std::move(result)]() mutable { fn(std::move(r)); }, Qt::QueuedConnection);
    }

    QObject *context() const { return m_context.data(); }
    // Bound to a context that is gone: calling would do nothing, so work for it can stop.
    bool expired() const { return m_hasContext && m_context.isNull(); }
    explicit operator bool() const { return bool(m_fn); }

private:
    QPointer<QObject> m_context;
    bool m_hasContext = false;
    Fn m_fn;
};

} // namespace sandbar
