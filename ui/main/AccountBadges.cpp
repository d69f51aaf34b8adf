#include "main/AccountBadges.h"

#include <QCoreApplication>
#include <QHash>
#include <QPainter>
#include <QPixmap>

namespace sandbar::ui {

namespace {

QColor providerColor(const QString &id)
{
    static const QHash<QString, QColor> known{
        {QStringLiteral("local"), QColor(0x2e, 0x7d, 0x32)},   {QStringLiteral("docker"), QColor(0x1d, 0x63, 0xed)},
        {QStringLiteral("podman"), QColor(0x89, 0x2c, 0xa0)},  {QStringLiteral("e2b"), QColor(0xff, 0x88, 0x00)},
        {QStringLiteral("daytona"), QColor(0x22, 0x22, 0x22)}, {QStringLiteral("vercel"), QColor(0x00, 0x00, 0x00)},
        {QStringLiteral("modal"), QColor(0x62, 0xde, 0x61)},   {QStringLiteral("fly"), QColor(0x7b, 0x3b, 0xe2)},
    };
    if (const auto it = known.constFind(id); it != known.constEnd())
        return *it;
    // Any other provider still gets a steady colour of its own.
    return QColor::fromHsv(int(qHash(id) % 360), 150, 170);
}

// One letter: two do not fit a 16-pixel badge legibly.
QString initials(const QString &id)
{
    return id.left(1).toUpper();
}

QPixmap badge(const QString &id, AccountStatus::State state, int size, qreal dpr)
{
    QPixmap pm(int(size * dpr), int(size * dpr));
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF box(1, 1, size - 2, size - 2);
    p.setPen(Qt::NoPen);
    p.setBrush(providerColor(id));
    p.drawRoundedRect(box, size / 5.0, size / 5.0);
    QFont f;
    f.setBold(true);
    f.setPixelSize(int(size * 0.58));
    p.setFont(f);
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, initials(id));
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

QIcon accountIcon(const QString &providerId, AccountStatus::State state)
{
    QIcon icon;
    for (int size : {16, 24, 32})
        icon.addPixmap(badge(providerId, state, size, 2.0));
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
