#include "terminal/LinkDetector.h"

#include <QRegularExpression>

namespace sandbar {

QList<DetectedLink> detectLinks(const QString &text)
{
    static const QRegularExpression re(
        QStringLiteral("(?:(?:https?|ftp|file)://|www\\.)[^\\s<>\"'`\\x{2018}\\x{2019}\\x{201C}\\x{201D}]+"));
    QList<DetectedLink> out;
    auto it = re.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        QString s = m.captured();
        // Drop sentence punctuation and unbalanced closing brackets at the end.
        while (!s.isEmpty()) {
            const QChar last = s.back();
            if (QStringLiteral(".,;:!?").contains(last)) {
                s.chop(1);
                continue;
            }
            const QString closers = QStringLiteral(")]}");
            const QString openers = QStringLiteral("([{");
            const auto k = closers.indexOf(last);
            if (k >= 0 && s.count(openers.at(k)) < s.count(last)) {
                s.chop(1);
                continue;
            }
            break;
        }
        if (s.size() < 8)
            continue;
        QUrl url = s.startsWith(QLatin1String("www.")) ? QUrl(QStringLiteral("http://") + s) : QUrl(s);
        if (!url.isValid())
            continue;
        out.append(DetectedLink{m.capturedStart(), s.size(), url});
    }
    return out;
}

} // namespace sandbar
