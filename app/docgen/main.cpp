// sandbar-docgen OUTDIR VERSION DATE: writes sandbarctl.1, sandbar.1 and the bash, zsh and fish
// completions into OUTDIR. Run by the build; not installed.
#include "docgen/DocGen.h"
#include "providers/ProviderFactory.h"
#include "wiring/AppServices.h"
#include "wiring/cli/CliCreateOptions.h"
#include "wiring/cli/CliSupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QSaveFile>
#include <cstdio>

using namespace sandbar;

namespace {

// A descriptor's help is a phrase for a form; the page wants sentences.
QString sentence(QString text)
{
    text = text.trimmed();
    if (text.isEmpty())
        return text;
    if (!text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('.');
    return text;
}

// The options a provider adds to accounts add and sessions create, described by its descriptor
// (or, for the spellings clispec defines, by clispec).
docgen::ProviderDoc providerDoc(const ProviderDescriptor &d)
{
    docgen::ProviderDoc p{d.id, d.displayName, sentence(d.description), {}, {}};
    for (const auto &f : d.accountFields) {
        QString help = sentence(f.help.isEmpty() ? f.label : f.help);
        if (f.secret) {
            // Form help starts a sentence; here it follows a colon.
            if (help.size() > 1 && !help.at(1).isUpper())
                help[0] = help.at(0).toLower();
            p.accountFields << docgen::OptionDoc{QStringLiteral("--%1-env").arg(f.key), QStringLiteral("VARIABLE"),
                                                 QStringLiteral("The name of the environment variable that holds the "
                                                                "%1, never the secret itself: %2")
                                                     .arg(f.label, help),
                                                 false};
            continue;
        }
        if (f.required)
            help += QStringLiteral(" Required.");
        p.accountFields << docgen::OptionDoc{QStringLiteral("--") + f.key,
                                             f.type == FieldType::Boolean ? QString() : cli::createOptionValueName(f),
                                             help, false};
    }
    const cli::CreateOptionsCli create = cli::createOptionsCli(d);
    const clispec::Command *spec = clispec::findCommand(u"sessions create");
    const auto inSpec = [spec](const QString &option) {
        for (const auto &o : spec->options) {
            if (option == QLatin1String(o.name))
                return true;
        }
        return false;
    };
    QStringList options = create.spec.valued + create.spec.flags;
    options.removeDuplicates();
    for (const QString &option : std::as_const(options)) {
        if (inSpec(option))
            continue; // documented with the command
        for (const auto &f : create.fields) {
            if (f.label != option)
                continue;
            p.createOptions << docgen::OptionDoc{
                option, f.type == FieldType::Boolean ? QString() : cli::createOptionValueName(f),
                sentence(f.help.isEmpty() ? f.label : f.help), isMultiValued(f.type)};
        }
    }
    return p;
}

bool write(const QString &path, const QString &text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        std::fprintf(stderr, "sandbar-docgen: cannot write %s: %s\n", qPrintable(path), qPrintable(file.errorString()));
        return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() != 4) {
        std::fprintf(stderr, "usage: sandbar-docgen OUTDIR VERSION DATE\n");
        return 2;
    }
    const QDir out(args.at(1));
    if (!QDir().mkpath(out.path())) {
        std::fprintf(stderr, "sandbar-docgen: cannot make %s\n", qPrintable(out.path()));
        return 1;
    }
    docgen::Inputs in{args.at(2), args.at(3), {}};
    ProviderFactories factories;
    registerProviders(factories);
    for (const auto &f : factories.all())
        in.providers << providerDoc(f->descriptor());

    const bool ok = write(out.filePath(QStringLiteral("sandbarctl.1")), docgen::sandbarctlManPage(in)) &&
                    write(out.filePath(QStringLiteral("sandbar.1")), docgen::sandbarManPage(in)) &&
                    write(out.filePath(QStringLiteral("sandbarctl")), docgen::bashCompletion()) &&
                    write(out.filePath(QStringLiteral("_sandbarctl")), docgen::zshCompletion()) &&
                    write(out.filePath(QStringLiteral("sandbarctl.fish")), docgen::fishCompletion());
    return ok ? 0 : 1;
}
