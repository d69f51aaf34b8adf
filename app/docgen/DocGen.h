#pragma once

#include "clispec/CliSpec.h"

#include <QList>
#include <QString>

// sandbar-docgen: writes the man pages and shell completions from clispec (and, for the options
// that come from a provider, from the providers' descriptors), at build time.
namespace sandbar::docgen {

// An option as documented: clispec's own, or one a provider's descriptor adds.
struct OptionDoc {
    QString name;  // "--memory"
    QString value; // "SIZE"; empty for a flag
    QString help;
    bool repeatable = false;
};

struct ProviderDoc {
    QString id;
    QString name;
    QString description;
    QList<OptionDoc> accountFields; // accounts add
    QList<OptionDoc> createOptions; // sessions create, beyond clispec's own
};

struct Inputs {
    QString version;
    QString date; // YYYY-MM-DD
    QList<ProviderDoc> providers;
};

QString sandbarctlManPage(const Inputs &in);
QString sandbarManPage(const Inputs &in);
QString bashCompletion();
QString zshCompletion();
QString fishCompletion();

// The shells' name for how a value is completed ("account", "session", "file", ...).
QString kindName(clispec::Complete kind);

} // namespace sandbar::docgen
