#include "sessions/SessionsFilter.h"

#include "sessions/SessionsModel.h"

namespace sandbar::ui {

SessionsFilter::SessionsFilter(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SessionsModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void SessionsFilter::setSourceModel(QAbstractItemModel *model)
{
    m_model = qobject_cast<SessionsModel *>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

void SessionsFilter::setSearchText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    m_words.clear();
    m_fields.clear();
    for (const QString &token : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const qsizetype colon = token.indexOf(QLatin1Char(':'));
        if (colon > 0) {
            const QString key = token.left(colon).toLower();
            const QString value = token.mid(colon + 1);
            std::optional<FieldToken::Field> field;
            if (key == QLatin1String("state"))
                field = FieldToken::State;
            else if (key == QLatin1String("account"))
                field = FieldToken::Account;
            else if (key == QLatin1String("provider"))
                field = FieldToken::Provider;
            else if (key == QLatin1String("image"))
                field = FieldToken::Image;
            else if (key == QLatin1String("label"))
                field = FieldToken::Label;
            // "state:" alone is a token being typed: it filters nothing yet.
            if (field && value.isEmpty())
                continue;
            if (field) {
                FieldToken t{*field, value, std::nullopt, parseLabelSelector(value)};
                if (*field == FieldToken::State) {
                    const SessionState s = sessionStateFromName(value.toLower());
                    // An unknown name matches no session (not the Unknown ones).
                    if (sessionStateName(s) == value.toLower())
                        t.state = s;
                }
                m_fields << t;
                continue;
            }
        }
        m_words << token.toLower();
    }
    invalidateFilter();
}

void SessionsFilter::setAccountFilter(const QString &account)
{
    if (account == m_account)
        return;
    m_account = account;
    invalidateFilter();
}

std::optional<SessionInfo> SessionsFilter::sessionAt(int proxyRow) const
{
    if (!m_model || proxyRow < 0 || proxyRow >= rowCount())
        return std::nullopt;
    const QModelIndex source = mapToSource(index(proxyRow, 0));
    if (!source.isValid())
        return std::nullopt;
    return m_model->session(source.row());
}

bool SessionsFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (!m_model || sourceParent.isValid())
        return true;
    const SessionInfo &s = m_model->session(sourceRow);
    if (!m_account.isEmpty() && s.account != m_account)
        return false;
    for (const FieldToken &t : m_fields) {
        switch (t.field) {
        case FieldToken::State:
            if (!t.state || s.state != *t.state)
                return false;
            break;
        case FieldToken::Account:
            if (s.account.compare(t.value, Qt::CaseInsensitive) != 0)
                return false;
            break;
        case FieldToken::Provider:
            if (s.provider.compare(t.value, Qt::CaseInsensitive) != 0)
                return false;
            break;
        case FieldToken::Image:
            if (s.image.compare(t.value, Qt::CaseInsensitive) != 0)
                return false;
            break;
        case FieldToken::Label:
            if (!matchesLabel(s.labels, t.label))
                return false;
            break;
        }
    }
    if (m_words.isEmpty())
        return true;
    const QString &haystack = m_model->haystack(sourceRow);
    for (const QString &word : m_words) {
        if (!haystack.contains(word))
            return false;
    }
    return true;
}

bool SessionsFilter::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (!m_model)
        return QSortFilterProxyModel::lessThan(left, right);
    const int c = m_model->compareRows(left.row(), right.row(), left.column());
    // Ties keep a stable, meaningful order: by name, then by ref.
    if (c != 0)
        return c < 0;
    const int byName = m_model->compareRows(left.row(), right.row(), SessionsModel::Name);
    if (byName != 0)
        return byName < 0;
    return m_model->compareRows(left.row(), right.row(), SessionsModel::Ref) < 0;
}

} // namespace sandbar::ui
