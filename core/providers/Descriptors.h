#pragma once

#include "common/Result.h"
#include "providers/Capabilities.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace sandbar {

// Gpus: a GPU request (parseGpuRequest in providers/Session.h); its value is the canonical
// text, "all", "2" or "GPU-...,GPU-...".
// Env and Mounts hold several values (a QStringList): one per line in a form, one per repeated
// option on the command line. Env: KEY=VALUE; Mounts: HOST:PATH[:ro] (parseMountSpec), with
// HOST made absolute; Ports: [HOST:]SESSION[/tcp|/udp] (parsePortSpec), canonical text; Labels:
// the person's labels, KEY=VALUE or KEY (parseLabel), at most `maximum` of them where it is set.
enum class FieldType {
    String,
    Secret,
    Integer,
    Number,
    Boolean,
    Url,
    Path,
    Choice,
    Bytes,
    Duration,
    Gpus,
    Env,
    Mounts,
    Ports,
    Labels
};

// Whether a field of this type takes several values.
inline bool isMultiValued(FieldType type)
{
    return type == FieldType::Env || type == FieldType::Mounts || type == FieldType::Ports || type == FieldType::Labels;
}

// The account field of a self-hosted provider (an engine on a machine of one's own) that holds
// what the machine costs per hour in USD: the cost meter splits it across the account's
// running sessions by their requested CPUs. Absent or 0: the machine costs nothing here.
inline constexpr char kHostHourlyPriceField[] = "hourly-price";

// One field of an account or of a create call, described once and read by the account
// store, the window's dialogs and sandbarctl alike.
struct FieldDescriptor {
    QString key;   // stable identifier: settings key and CLI option (--key)
    QString label; // translated, for forms
    QString help;  // translated, one line
    FieldType type = FieldType::String;
    bool secret = false; // stored only in the OS keychain, never in settings or logs
    bool required = false;
    QVariant defaultValue; // invalid when none
    QVariant minimum;      // numbers, bytes, durations
    QVariant maximum;
    QStringList choices; // FieldType::Choice
    // A create option that may be changed on a session that exists (SettingsFacet).
    bool changeable = false;
};

// How a provider looks and where it is described: data in its descriptor, so that no view
// keeps a table of providers and a new provider needs no view edited.
struct ProviderLook {
    quint32 badgeRgb = 0; // its account badge's colour, 0xRRGGBB; 0: a steady colour made from the id
    QString badgeLetter;  // the letter on its badge; empty: the id's first letter
    QString catalogId;    // its entry in the provider catalog; empty: the same as the id
    QString docsUrl;      // the provider's own documentation, for people
};

struct ProviderDescriptor {
    QString id;          // "docker", "podman", "local", ...
    QString displayName; // translated
    QString description; // translated, one line
    QList<FieldDescriptor> accountFields;
    QList<FieldDescriptor> createOptions;
    Capabilities capabilities;
    bool selfHosted = true; // costs nothing per hour (cost meter shows 0 and says so)
    ProviderLook look;

    // The provider's entry in the catalog (ProviderLook::catalogId, or the id).
    QString catalogId() const { return look.catalogId.isEmpty() ? id : look.catalogId; }

    const FieldDescriptor *accountField(const QString &key) const;
    const FieldDescriptor *createOption(const QString &key) const;
};

} // namespace sandbar

namespace sandbar {

// A field as the providers' descriptor tables write it; label and help are translated by the
// caller (tr("...") at the call site, so that lupdate sees the text). Secret fields are secret.
FieldDescriptor makeField(QString key, QString label, QString help, FieldType type, QVariant defaultValue = {},
                          QVariant minimum = {}, QVariant maximum = {});

// The field, marked changeable on a session that exists (SettingsFacet).
inline FieldDescriptor changeable(FieldDescriptor field)
{
    field.changeable = true;
    return field;
}
// The create option "labels": the person's labels, shown in the list and kept on the session.
// most > 0: a provider that keeps only so many (Vercel's five tags, some of them Sandbar's).
FieldDescriptor labelsOption(int most = 0);

// A provider's changeable create options, in the descriptor's order.
QList<FieldDescriptor> changeableOptions(const ProviderDescriptor &descriptor);

// Turns a person's text (a CLI argument, a form field) into a typed value for field,
// checking its type, limits and choices. Bytes accept suffixes (512M, 2G, 1.5GiB);
// durations accept s/m/h/d suffixes and yield seconds; GPU requests yield their canonical text.
Result<QVariant> parseFieldValue(const FieldDescriptor &field, const QString &text);
// Checks an already typed value against field (settings loaded from disk).
VoidResult validateFieldValue(const FieldDescriptor &field, const QVariant &value);

// The one parser of a form or a command line: texts[key] holds what was given for each field
// (one entry per line or repeated option of a multi-valued field; for others at most one).
// Yields the typed values of the fields given (empty optional ones are left out), or one error
// naming the field: a missing required field, a bad value, a field given twice, an unknown key.
Result<QVariantMap> parseFieldValues(const QList<FieldDescriptor> &fields, const QMap<QString, QStringList> &texts);

} // namespace sandbar
