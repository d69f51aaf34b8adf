#pragma once

class QCoreApplication;
class QLocale;

namespace sandbar {

// Installs Sandbar's translation for the locale (the system's unless given: LANG=de_DE.UTF-8
// gives German) and Qt's own (dialog buttons and the like) where the system has it. English
// needs none; a missing translation leaves the English text, never an empty one.
void installTranslations(QCoreApplication &app);
void installTranslations(QCoreApplication &app, const QLocale &locale);

} // namespace sandbar
