#include "accounts/AccountBadges.h"

#include <QCoreApplication>
#include <QHashFunctions>
#include <QPainter>
#include <QPixmap>

namespace sandbar::ui {

namespace {

QColor badgeColor(const QString &id, const ProviderLook &look)
{
    if (look.badgeRgb != 0)
        return QColor::fromRgb(QRgb(look.badgeRgb));
    return QColor::fromHsv(int(qHash(id) % 360), 150, 170);
}

// One letter: two do not fit a 16-pixel badge legibly.
QString badgeLetter(const QString &id, const ProviderLook &look)
{
    return (look.badgeLetter.isEmpty() ? id : look.badgeLetter).left(1).toUpper();
}

QPixmap badge(const QString &id, const ProviderLook &look, AccountStatus::State state, int size, qreal dpr)
{
    QPixmap pm(int(size * dpr), int(size * dpr));
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF box(1, 1, size - 2, size - 2);
    p.setPen(Qt::NoPen);
    p.setBrush(badgeColor(id, look));
    p.drawRoundedRect(box, size / 5.0, size / 5.0);
    QFont f;
    f.setBold(true);
    f.setPixelSize(int(size * 0.58));
    p.setFont(f);
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, badgeLetter(id, look));
    QColor dot;
    switch (state) {
    case AccountStatus::State::Ok: dot = QColor(0x2e, 0xb8, 0x4b); break;
    case AccountStatus::State::Failed: dot = QColor(0xd9, 0x30, 0x25); break;
    case AccountStatus::State::Connecting: dot = QColor(0xf2, 0xb7, 0x05); break;
    default: dot = QColor(0x9e, 0x9e, 0x9e); break;
    }
    const qreal r = size * 0.22;
    p.setPen(QPen(Qt::white, 1.5));
    p.setBrush(dot);
    p.drawEllipse(QPointF(size - r - 0.5, size - r - 0.5), r, r);
    return pm;
}

} // namespace

QIcon accountIcon(const QString &providerId, const ProviderLook &look, AccountStatus::State state)
{
    QIcon icon;
    for (int size : {16, 24, 32})
        icon.addPixmap(badge(providerId, look, state, size, 2.0));
    return icon;
}

QString accountToolTip(const QString &providerName, const AccountStatus &status, int sessions, int running)
{
    switch (status.state) {
    case AccountStatus::State::Failed:
        return QCoreApplication::translate("sandbar::ui::AccountBadges", "%1 · not reachable: %2")
            .arg(providerName, status.lastError.message);
    case AccountStatus::State::Ok:
        return QCoreApplication::translate("sandbar::ui::AccountBadges", "%1 · listed in %2 ms")
                   .arg(providerName)
                   .arg(status.latencyMs) +
               QStringLiteral(" · ") +
               QCoreApplication::translate("sandbar::ui::AccountBadges", "%n session(s)", nullptr, sessions) +
               QStringLiteral(", ") +
               QCoreApplication::translate("sandbar::ui::AccountBadges", "%n running", nullptr, running);
    case AccountStatus::State::Connecting:
        return QCoreApplication::translate("sandbar::ui::AccountBadges", "%1 · connecting…").arg(providerName);
    default: return QCoreApplication::translate("sandbar::ui::AccountBadges", "%1 · not asked yet").arg(providerName);
    }
}

} // namespace sandbar::ui
