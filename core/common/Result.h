#pragma once

#include <QCoreApplication>
#include <QString>
#include <optional>
#include <utility>
#include <variant>

namespace sandbar {

// Codes the UI and sandbarctl branch on; the message is for people.
enum class ErrorCode {
    NotFound,
    Unauthorized,
    UnknownHost, // an SSH host whose key is not trusted yet: the person may trust it
    LimitReached,
    Unavailable,
    Timeout,
    InvalidArgument,
    Conflict,
    Unsupported,
    Cancelled,
    Internal,
};

QString errorCodeName(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::Internal;
    QString message;

    QString toString() const { return message; }
};

inline Error makeError(ErrorCode code, QString message)
{
    return Error{code, std::move(message)};
}

// A value or an Error. Deliberately small: std::expected is C++23.
template <typename T>
class [[nodiscard]] Result
{
public:
    Result(T value)
        : m_v(std::in_place_index<0>, std::move(value))
    {
    }
    Result(Error error)
        : m_v(std::in_place_index<1>, std::move(error))
    {
    }

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<0>(m_v); }
    const T &value() const & { return std::get<0>(m_v); }
    T &&value() && { return std::get<0>(std::move(m_v)); }
    T valueOr(T fallback) const { return ok() ? std::get<0>(m_v) : std::move(fallback); }

    const Error &error() const { return std::get<1>(m_v); }
    ErrorCode code() const { return error().code; }
    const QString &message() const { return error().message; }

    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

private:
    std::variant<T, Error> m_v;
};

template <>
class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error)
        : m_error(std::move(error))
    {
    }

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }
    ErrorCode code() const { return m_error->code; }
    const QString &message() const { return m_error->message; }

private:
    std::optional<Error> m_error;
};

using VoidResult = Result<void>;

} // namespace sandbar
