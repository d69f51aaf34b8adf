#pragma once

// Reading fields of an engine's JSON replies. json::value() throws when a key holds
// another type, and a throw through the event loop ends the app: a field of the wrong
// type reads as absent (or as the fallback) instead.

#include <QByteArray>
#include <QStringList>
#include <climits>
#include <nlohmann/json.hpp>
#include <string>

namespace sandbar::docker {

inline std::string jsonText(const nlohmann::json &o, const char *key, std::string fallback = {})
{
    const auto it = o.is_object() ? o.find(key) : o.end();
    return it != o.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// Integers only within int's range; anything else is the fallback.
inline int jsonInt(const nlohmann::json &o, const char *key, int fallback = 0)
{
    const auto it = o.is_object() ? o.find(key) : o.end();
    if (it == o.end() || !it->is_number_integer())
        return fallback;
    const auto v = it->get<long long>();
    return v >= INT_MIN && v <= INT_MAX ? int(v) : fallback;
}

// Writing request bodies: a list of strings as a JSON array, and a value as its text.
inline nlohmann::json jsonStrings(const QStringList &list)
{
    nlohmann::json a = nlohmann::json::array();
    for (const auto &s : list)
        a.push_back(s.toStdString());
    return a;
}

inline QByteArray jsonBytes(const nlohmann::json &j)
{
    return QByteArray::fromStdString(j.dump());
}

} // namespace sandbar::docker
