#include "wiring/Translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace sandbar {

void installTranslations(QCoreApplication &app)
{
    installTranslations(app, QLocale());
}

void installTranslations(QCoreApplication &app, const QLocale &locale)
{
    // Both translators belong to the application, so they live as long as it does.
    auto *own = new QTranslator(&app);
    if (own->load(locale, QStringLiteral("sandbar"), QStringLiteral("_"), QStringLiteral(":/sandbar/i18n")))
        QCoreApplication::installTranslator(own);
    else
        delete own;
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
}

} // namespace sandbar
