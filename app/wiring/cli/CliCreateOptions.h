#pragma once

#include "providers/Descriptors.h"
#include "providers/Session.h"
#include "wiring/cli/CliSupport.h"

namespace sandbar::cli {

// `sessions create`'s options for one provider, made from its descriptor's create options, so a
// new option shows up here without code: --KEY for each (a Boolean is a flag that also takes
// --KEY=no; Env and Mounts repeat), --image, --name and --gpus for every provider (one that has
// no such option ignores the image or says why it cannot serve the GPUs), and the documented
// spellings --mount (mounts) and --memory-mib (memory in MiB).
struct CreateOptionsCli {
    OptionSpec spec;               // with --account
    QList<FieldDescriptor> fields; // labelled as the command line spells them
    QString usage;                 // "usage: sessions create --account NAME [--image IMAGE] ..."
};
CreateOptionsCli createOptionsCli(const ProviderDescriptor &provider);
// `sessions set`'s options for one provider: --KEY for each create option it can change on a
// session that exists (FieldDescriptor::changeable), spelt as sessions create spells it.
CreateOptionsCli settingsOptionsCli(const ProviderDescriptor &provider);
// The typed values of the options parseArgs found for cli.spec (only those given).
Result<QVariantMap> settingsFromArgs(const CreateOptionsCli &cli, const ParsedArgs &args);
// How the usage and the man page name a field's value: N, SIZE, K=V, ...
QString createOptionValueName(const FieldDescriptor &field);

// The time limit of a session created without --ttl (when its provider has one).
inline constexpr qint64 kDefaultTtlSeconds = 3600;

// What parseArgs found for cli.spec -> the spec, through parseFieldValues and createSpecFromOptions
// as in the window's form; an error names the option.
Result<CreateSpec> createSpecFromArgs(const CreateOptionsCli &cli, const ParsedArgs &args);

} // namespace sandbar::cli
