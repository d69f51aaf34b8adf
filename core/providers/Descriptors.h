#pragma once

#include "providers/Capabilities.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace sandbar {

enum class FieldType { String, Secret, Integer, Number, Boolean, Url, Path, Choice, Bytes, Duration };

// One field of an account or of a create call, described once and read by the account
// store, the window's dialogs and sandbarctl alike.
struct FieldDescriptor {
    QString key;       // stable identifier: settings key and CLI option (--key)
    QString label;     // translated, for forms
    QString help;      // translated, one line
    FieldType type = FieldType::String;
    bool secret = false;   // stored only in the OS keychain, never in settings or logs
    bool required = false;
    QVariant defaultValue; // invalid when none
    QVariant minimum;      // numbers, bytes, durations
    QVariant maximum;
    QStringList choices;   // FieldType::Choice
};

struct ProviderDescriptor {
    QString id;          // "docker", "podman", "local", ...
    QString displayName; // translated
    QString description; // translated, one line
    QList<FieldDescriptor> accountFields;
    QList<FieldDescriptor> createOptions;
    Capabilities capabilities;
    bool selfHosted = true; // costs nothing per hour (cost meter shows 0 and says so)

    const FieldDescriptor *accountField(const QString &key) const;
    const FieldDescriptor *createOption(const QString &key) const;
};

} // namespace sandbar
