#include "compare/ProviderCards.h"

#include "compare/CompareModel.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

// Builds one card: rows of figures citing numbered sources, listed at the end.
class CardWriter
{
public:
    // The context lupdate gives the tr() calls in this class's members.
    static QString tr(const char *s) { return QCoreApplication::translate("sandbar::ui::CardWriter", s); }

    explicit CardWriter(const catalog::Catalog &c)
        : m_catalog(c)
    {
    }

    void row(const QString &label, const QString &value, const QString &source, const QString &date,
             const QString &note = {})
    {
        QString cite;
        if (!source.isEmpty()) {
            int n = int(m_sources.indexOf(source)) + 1;
            if (n == 0) {
                m_sources << source;
                n = int(m_sources.size());
            }
            const QString d = date.isEmpty() ? m_catalog.source(source).value(QStringLiteral("date")).toString() : date;
            cite = QStringLiteral("<sup>[%1]</sup> <span style='color:#666'>%2, %3</span>")
                       .arg(n)
                       .arg(esc(source), esc(d.isEmpty() ? tr("undated") : d));
        }
        const QString shown = value.isEmpty() || value == QStringLiteral("–")
                                  ? QStringLiteral("<span style='color:#999'>%1</span>").arg(tr("unknown"))
                                  : esc(value);
        m_html += QStringLiteral("<tr><td style='padding-right:8px'>%1</td><td><b>%2</b></td><td>%3</td></tr>")
                      .arg(esc(label), shown, cite);
        if (!note.isEmpty())
            m_html +=
                QStringLiteral("<tr><td></td><td colspan='2' style='color:#666'><i>%1</i></td></tr>").arg(esc(note));
    }

    void figure(const QString &label, const catalog::Figure &f, const QString &suffix = {})
    {
        QString value = compare::figureText(f, suffix);
        if (f.included && f.known())
            value += tr(" (%1 included a month)").arg(QString::number(*f.included, 'g', 6));
        row(label, value, f.source, f.date, f.note);
    }

    // A figure whose value is text or a list, read from the entry's raw JSON.
    void rawFigure(const QString &label, const QJsonValue &v)
    {
        const QJsonObject o = v.toObject();
        const QJsonValue value = o.value(QStringLiteral("value"));
        QString text;
        if (value.isArray()) {
            QStringList parts;
            for (const auto &x : value.toArray())
                parts << x.toVariant().toString();
            text = parts.isEmpty() ? tr("none") : parts.join(QStringLiteral(", "));
        } else if (!value.isNull() && !value.isUndefined()) {
            text = value.toVariant().toString();
        }
        row(label, text, o.value(QStringLiteral("source")).toString(), o.value(QStringLiteral("date")).toString(),
            o.value(QStringLiteral("note")).toString());
    }

    void heading(const QString &text)
    {
        m_html +=
            QStringLiteral("<tr><td colspan='3' style='padding-top:6px'><b><u>%1</u></b></td></tr>").arg(esc(text));
    }

    void raw(const QString &html) { m_html += html; }

    QString sourcesHtml() const
    {
        QString out =
            QStringLiteral("<p style='margin-top:8px'><b>%1</b></p><ol style='margin-top:0'>").arg(tr("Sources"));
        for (const auto &key : m_sources) {
            const QJsonObject s = m_catalog.source(key);
            const QString url = s.value(QStringLiteral("url")).toString();
            QString title = esc(s.value(QStringLiteral("title")).toString(key));
            if (url.startsWith(QLatin1String("http")))
                title = QStringLiteral("<a href='%1'>%2</a>").arg(esc(url), title);
            out += QStringLiteral("<li><b>%1</b> (%2): %3</li>")
                       .arg(esc(key), esc(s.value(QStringLiteral("date")).toString()), title);
        }
        return out + QStringLiteral("</ol>");
    }

    QString html() const { return m_html; }

private:
    const catalog::Catalog &m_catalog;
    QString m_html;
    QStringList m_sources;
};

} // namespace

ProviderCards::ProviderCards(std::shared_ptr<const catalog::Catalog> catalog, QWidget *parent)
    : QWidget(parent)
    , m_catalog(std::move(catalog))
{
    m_hint = new QLabel(this);
    m_hint->setObjectName(QStringLiteral("cardsHint"));
    m_hint->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_hint);
    m_row = new QHBoxLayout;
    layout->addLayout(m_row, 1);
    setProviders({}, {});
}

QString ProviderCards::cardHtmlFor(const catalog::ProviderEntry &e, const costs::Estimate *estimate,
                                   const catalog::Catalog &catalog)
{
    CardWriter w(catalog);
    QString html = QStringLiteral("<h2 style='margin-bottom:2px'>%1</h2><p style='color:#555;margin-top:0'>%2 · %3</p>")
                       .arg(esc(e.name), esc(e.id), esc(e.kindName));
    // The estimate comes first: it is what the user compares; the figures behind it follow.
    if (estimate && estimate->excluded) {
        html += QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("Excluded:"), esc(estimate->reason()));
    } else if (estimate) {
        html += QStringLiteral("<p style='font-size:large'><b>%1</b> %2%3</p>")
                    .arg(esc(compare::money(estimate->totalUsd)), tr("a month"),
                         estimate->plan.isEmpty() ? QString() : esc(tr(" on plan %1").arg(estimate->plan)));
        if (!estimate->breakdown.isEmpty()) {
            html += QStringLiteral("<table cellspacing='0' cellpadding='1'>");
            for (const auto &l : estimate->breakdown)
                html += QStringLiteral("<tr><td style='padding-right:8px'>%1</td><td align='right' "
                                       "style='padding-right:8px'><b>%2</b></td><td style='color:#555'>%3</td></tr>")
                            .arg(esc(compare::componentLabel(l.component)), esc(compare::money(l.usd)),
                                 esc(l.detail.toString()));
            html += QStringLiteral("</table>");
        }
        const QStringList notes = estimate->notes();
        if (!notes.isEmpty()) {
            html += QStringLiteral("<ul style='color:#7a5a00;margin-top:4px'>");
            for (const auto &n : notes)
                html += QStringLiteral("<li>%1</li>").arg(esc(n));
            html += QStringLiteral("</ul>");
        }
    }

    w.raw(QStringLiteral("<table cellspacing='0' cellpadding='1'>"));
    w.heading(tr("Runtime"));
    w.rawFigure(tr("Isolation"), e.raw.value(QStringLiteral("isolation")));
    w.figure(tr("Cold start"), e.coldStartMs, tr(" ms"));
    w.figure(tr("Resume"), e.resumeMs, tr(" ms"));
    w.rawFigure(tr("Regions"), e.raw.value(QStringLiteral("regions")));
    w.rawFigure(tr("Self-host / BYOC"), e.raw.value(QStringLiteral("self_host")));
    w.rawFigure(tr("Persistence"), e.raw.value(QStringLiteral("persistence")));
    if (!e.plans.isEmpty())
        w.heading(tr("Plans"));
    for (const auto &p : e.plans) {
        w.figure(tr("%1: max session").arg(p.name), p.maxSessionHours, tr(" h"));
        w.figure(tr("%1: fee a month").arg(p.name), p.monthlyFeeUsd, tr(" USD"));
        if (p.maxVcpus.known() || !p.maxVcpus.source.isEmpty())
            w.figure(tr("%1: max vCPUs").arg(p.name), p.maxVcpus);
        if (p.maxMemoryGib.known() || !p.maxMemoryGib.source.isEmpty())
            w.figure(tr("%1: max memory").arg(p.name), p.maxMemoryGib, tr(" GiB"));
    }
    if (e.kind == catalog::Kind::SandboxRuntime && !e.selfHosted) {
        const auto &pr = e.prices;
        w.heading(tr("Prices (USD)"));
        w.figure(pr.coreBased ? tr("per core-hour") : tr("per vCPU-hour"), pr.vcpuHour);
        w.figure(tr("per GiB-hour"), pr.gibHour);
        w.figure(tr("storage per GiB-hour"), pr.storageGibHour);
        if (pr.storageFreeGib.known())
            w.figure(tr("free storage"), pr.storageFreeGib, tr(" GiB"));
        w.figure(tr("per sandbox created"), pr.perCreate);
        w.figure(tr("egress per GB"), pr.egressGb);
        if (pr.standbyGibHour.known())
            w.figure(tr("standby per GiB-hour"), pr.standbyGibHour);
        w.figure(pr.creditMonthly ? tr("free credit a month") : tr("free credit once"), pr.freeCreditUsd);
    }
    w.heading(tr("GPUs"));
    if (!e.gpus || e.gpus->isEmpty())
        w.rawFigure(tr("Offered"), e.raw.value(QStringLiteral("gpus")));
    else
        for (const auto &g : *e.gpus)
            w.figure(g.includesCpuRam ? tr("%1 per hour (CPU and memory included)").arg(g.type)
                                      : tr("%1 per hour").arg(g.type),
                     g.usdPerHour, tr(" USD"));
    if (!e.billing.source.isEmpty()) {
        w.heading(tr("Billing"));
        const QString granularity =
            e.billing.granularitySeconds ? tr("per %1 s").arg(*e.billing.granularitySeconds) : tr("not published");
        w.row(tr("Granularity"), granularity, e.billing.source, {}, e.billing.note);
    }
    w.raw(QStringLiteral("</table>"));
    return html + w.html() + w.sourcesHtml();
}

void ProviderCards::setProviders(const QStringList &ids, const QList<costs::Estimate> &estimates)
{
    qDeleteAll(m_cards);
    m_cards.clear();
    m_ids.clear();
    for (const auto &id : ids) {
        if (m_ids.size() >= kMaxCards)
            break;
        const catalog::ProviderEntry *e = m_catalog->find(id);
        if (!e || m_ids.contains(id))
            continue;
        const costs::Estimate *est = nullptr;
        for (const auto &x : estimates)
            if (x.providerId == id)
                est = &x;
        auto *card = new QTextBrowser(this);
        card->setObjectName(QStringLiteral("card_%1").arg(id));
        card->setOpenExternalLinks(true);
        card->setHtml(cardHtmlFor(*e, est, *m_catalog));
        m_row->addWidget(card, 1);
        m_cards << card;
        m_ids << id;
    }
    if (m_ids.size() < 2)
        m_hint->setText(tr("Select two or three providers in the table (Ctrl+click) to compare them side by side."));
    else if (ids.size() > kMaxCards)
        m_hint->setText(tr("Showing the first %1 of the %2 selected providers.").arg(kMaxCards).arg(ids.size()));
    else
        m_hint->clear();
    m_hint->setVisible(!m_hint->text().isEmpty());
}

QString ProviderCards::cardText(int index) const
{
    return index >= 0 && index < m_cards.size() ? m_cards.at(index)->toPlainText() : QString();
}

QString ProviderCards::cardHtml(int index) const
{
    return index >= 0 && index < m_cards.size() ? m_cards.at(index)->toHtml() : QString();
}

} // namespace sandbar::ui
