#pragma once

#include <QDir>
#include <QString>

namespace sandbar::ui {

// A name under a session's folder as the files pane shows it: no checks here, since what is
// joined was listed by the provider or is checked by core's remoteJoin before any transfer.
inline QString joinRemote(const QString &dir, const QString &name)
{
    return dir.endsWith(QLatin1Char('/')) ? QString(dir + name) : QString(dir + QLatin1Char('/') + name);
}

// A path typed into the path bar: absolute, without "." and ".." steps or doubled slashes.
inline QString cleanRemote(const QString &path)
{
    QString p = QDir::cleanPath(path.trimmed());
    if (!p.startsWith(QLatin1Char('/')))
        p.prepend(QLatin1Char('/'));
    return p;
}

} // namespace sandbar::ui
