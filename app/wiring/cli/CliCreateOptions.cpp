#include "wiring/cli/CliCreateOptions.h"

#include "wiring/cli/CliTr.h"

namespace sandbar::cli {

namespace {

// Spellings README.md documents that differ from a descriptor key; the value gets the suffix.
struct Alias {
    const char *option;
    const char *key;
    const char *suffix;
};
constexpr Alias kAliases[] = {
    {"--mount", createkeys::Mounts, ""},
    {"--label", createkeys::Labels, ""},
    {"--memory-mib", createkeys::Memory, "M"},
};

QString optionOf(const QString &key)
{
    for (const auto &a : kAliases) {
        if (key == QLatin1String(a.key) && qstrlen(a.suffix) == 0)
            return QLatin1String(a.option);
    }
    return QStringLiteral("--") + key;
}

// --KEY for each of cli.fields (labelled as the command line spells them), with the usage.
void addFieldOptions(CreateOptionsCli &cli)
{
    for (auto &f : cli.fields) {
        const QString option = optionOf(f.key);
        f.label = option; // errors name the option as typed here
        const bool repeat = isMultiValued(f.type);
        if (f.type == FieldType::Boolean) {
            cli.spec.flags << option;
            cli.usage += QStringLiteral(" [%1]").arg(option);
        } else {
            const QString text = option + QLatin1Char(' ') + createOptionValueName(f);
            cli.usage += (f.required ? QString(QLatin1Char(' ') + text)
                                     : QString(QStringLiteral(" [") + text + QLatin1Char(']'))) +
                         (repeat ? QStringLiteral("...") : QString());
        }
        cli.spec.valued << option;
    }
}

// The texts given for cli.fields, by key (a bare Boolean flag: "true").
QMap<QString, QStringList> givenTexts(const CreateOptionsCli &cli, const ParsedArgs &args)
{
    QMap<QString, QStringList> texts;
    for (const auto &f : cli.fields) {
        const QStringList given = args.values(f.label);
        if (given.isEmpty())
            continue;
        QStringList &out = texts[f.key];
        for (const QString &v : given)
            out << (f.type == FieldType::Boolean && v.isEmpty() ? QStringLiteral("true") : v);
    }
    return texts;
}

} // namespace

QString createOptionValueName(const FieldDescriptor &f)
{
    switch (f.type) {
    case FieldType::Integer:
    case FieldType::Number: return QStringLiteral("N");
    case FieldType::Bytes: return QStringLiteral("SIZE");
    case FieldType::Duration: return QStringLiteral("SECONDS");
    case FieldType::Choice: return f.choices.join(QLatin1Char('|'));
    case FieldType::Gpus: return QStringLiteral("all|N|UUID[,UUID...]");
    case FieldType::Env: return QStringLiteral("K=V");
    case FieldType::Labels: return QStringLiteral("KEY[=VALUE]");
    case FieldType::Mounts: return QStringLiteral("HOST:PATH[:ro]");
    case FieldType::Path: return QStringLiteral("PATH");
    default: return f.key.toUpper();
    }
}

CreateOptionsCli createOptionsCli(const ProviderDescriptor &provider)
{
    CreateOptionsCli cli;
    cli.fields = provider.createOptions;
    // Every provider takes these; createSpecFromOptions puts them in the spec's own fields.
    const auto addShared = [&cli](const char *key, FieldType type) {
        for (const auto &f : std::as_const(cli.fields)) {
            if (f.key == QLatin1String(key))
                return;
        }
        FieldDescriptor f;
        f.key = QLatin1String(key);
        f.type = type;
        cli.fields << f;
    };
    addShared(createkeys::Image, FieldType::String);
    addShared(createkeys::Name, FieldType::String);
    addShared(createkeys::Gpus, FieldType::Gpus);

    // --account and the options every provider takes, as clispec documents them.
    cli.spec = optionSpecFor(u"sessions create");
    cli.usage = tr("usage: sessions create --account NAME");
    addFieldOptions(cli);
    for (const auto &a : kAliases) {
        const QString option = QLatin1String(a.option);
        if (provider.createOption(QLatin1String(a.key)) && !cli.spec.valued.contains(option)) {
            cli.spec.valued << option;
            cli.usage += QStringLiteral(" [") + option + QStringLiteral(" N]");
        }
    }
    return cli;
}

CreateOptionsCli settingsOptionsCli(const ProviderDescriptor &provider)
{
    CreateOptionsCli cli;
    cli.fields = changeableOptions(provider);
    cli.usage = tr("usage: sessions set REF");
    addFieldOptions(cli);
    return cli;
}

Result<QVariantMap> settingsFromArgs(const CreateOptionsCli &cli, const ParsedArgs &args)
{
    return parseFieldValues(cli.fields, givenTexts(cli, args));
}

Result<CreateSpec> createSpecFromArgs(const CreateOptionsCli &cli, const ParsedArgs &args)
{
    QMap<QString, QStringList> texts = givenTexts(cli, args);
    for (const auto &a : kAliases) {
        if (qstrlen(a.suffix) == 0)
            continue;
        for (const QString &v : args.values(QLatin1String(a.option))) {
            if (v.trimmed().isEmpty())
                return makeError(ErrorCode::InvalidArgument, tr("%1 needs a value").arg(QLatin1String(a.option)));
            texts[QLatin1String(a.key)] << v.trimmed() + QLatin1String(a.suffix);
        }
    }
    // A forgotten session must not run (and bill) forever: an hour unless --ttl says otherwise
    // (--ttl 0: no limit), as in the window's New session dialog.
    for (const auto &f : cli.fields) {
        if (f.key == QLatin1String(createkeys::Ttl) && !texts.contains(f.key))
            texts.insert(f.key, {QString::number(kDefaultTtlSeconds)});
    }
    auto values = parseFieldValues(cli.fields, texts);
    if (!values)
        return values.error();
    return createSpecFromOptions(*values);
}

} // namespace sandbar::cli
