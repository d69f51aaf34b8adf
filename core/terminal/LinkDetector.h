#pragma once

#include <QList>
#include <QString>
#include <QUrl>

namespace sandbar {

struct DetectedLink {
    qsizetype start = 0; // index into the text
    qsizetype length = 0;
    QUrl url;
};

// URLs in one line of terminal text (http, https, ftp, file, and www. hosts). Trailing
// punctuation that usually ends a sentence is left out, and a closing bracket only counts
// when the URL opened one.
QList<DetectedLink> detectLinks(const QString &text);

} // namespace sandbar
