#pragma once

#include "providers/Session.h"

#include <QSortFilterProxyModel>
#include <QStringList>
#include <optional>

namespace sandbar::ui {

class SessionsModel;

// The search box and the account list over the sessions table, and its sorting.
// Search text: space-separated tokens that must all match (AND). A plain token matches
// case-insensitively anywhere in the row's text (every column that does not tick by
// itself, and the id); state:, account:, provider: and image: tokens match that field
// exactly (case-insensitive); label:KEY finds the sessions with that label and label:KEY=VALUE
// those with that value (exactly, as sandbarctl sessions list --label). Built for thousands of rows: the tokens are
// parsed once per change and the rows are read from the model's precomputed haystacks, so filtering and sorting
// allocate nothing per row.
class SessionsFilter : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit SessionsFilter(QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *model) override;
    SessionsModel *sessionsModel() const { return m_model; }

    void setSearchText(const QString &text);
    QString searchText() const { return m_text; }
    // Empty: every account.
    void setAccountFilter(const QString &account);
    QString accountFilter() const { return m_account; }

    // The session behind a row of this model (a proxy row).
    std::optional<SessionInfo> sessionAt(int proxyRow) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    struct FieldToken {
        enum Field { State, Account, Provider, Image, Label } field;
        QString value;
        std::optional<SessionState> state;
        LabelSelector label;
    };

    QString m_text;
    QString m_account;
    QStringList m_words; // lowercase
    QList<FieldToken> m_fields;
    SessionsModel *m_model = nullptr;
};

} // namespace sandbar::ui
