#pragma once

#include "costs/CostModel.h"

#include <QWidget>
#include <memory>

class QHBoxLayout;
class QLabel;
class QTextBrowser;

namespace sandbar::ui {

// Two or three providers side by side: every catalog figure with the name and date of its
// source, then the estimate of the current workload line by line.
class ProviderCards final : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxCards = 3;

    explicit ProviderCards(std::shared_ptr<const catalog::Catalog> catalog, QWidget *parent = nullptr);

    // ids beyond kMaxCards are ignored; unknown ids are skipped. estimates: the current ones.
    void setProviders(const QStringList &ids, const QList<costs::Estimate> &estimates);

    QStringList providerIds() const { return m_ids; }
    int cardCount() const { return int(m_cards.size()); }
    QString cardText(int index) const;
    QString cardHtml(int index) const;

    // The HTML of one card; public so that it can be tested without widgets.
    static QString cardHtmlFor(const catalog::ProviderEntry &e, const costs::Estimate *estimate,
                               const catalog::Catalog &catalog);

private:
    std::shared_ptr<const catalog::Catalog> m_catalog;
    QLabel *m_hint;
    QHBoxLayout *m_row;
    QList<QTextBrowser *> m_cards;
    QStringList m_ids;
};

} // namespace sandbar::ui
