#include "detail/InfoView.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {
QTableWidgetItem *cell(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

void fitRows(QTableWidget *table, int stretchColumn)
{
    table->resizeColumnsToContents();
    auto *header = table->horizontalHeader();
    header->setStretchLastSection(false);
    for (int c = 0; c < table->columnCount(); ++c)
        header->setSectionResizeMode(c, c == stretchColumn ? QHeaderView::Stretch : QHeaderView::ResizeToContents);
    // Every row visible: the tab scrolls as a whole, a table inside it should not.
    int h = table->horizontalHeader()->height() + 2 * table->frameWidth();
    for (int r = 0; r < table->rowCount(); ++r)
        h += table->rowHeight(r);
    table->setFixedHeight(h);
}
} // namespace

InfoView::InfoView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("infoView"));
    setAccessibleName(tr("Session information"));

    auto *content = new QWidget;
    auto *column = new QVBoxLayout(content);

    auto *identityBox = new QGroupBox(tr("Session"), content);
    m_identity = new QFormLayout(identityBox);
    auto *resourcesBox = new QGroupBox(tr("Resources"), content);
    m_resources = new QFormLayout(resourcesBox);
    column->addWidget(identityBox);
    column->addWidget(resourcesBox);

    m_endpoints = makeTable(tr("Forwarded ports"), {tr("Port"), tr("Address"), QString(), QString()},
                            QStringLiteral("endpointsTable"));
    m_endpoints.table->setAccessibleName(tr("Forwarded ports"));
    m_labels = makeTable(tr("Labels"), {tr("Key"), tr("Value")}, QStringLiteral("labelsTable"));
    m_labels.table->setAccessibleName(tr("Labels"));
    m_mounts =
        makeTable(tr("Mounts"), {tr("Host folder"), tr("Session path"), tr("Access")}, QStringLiteral("mountsTable"));
    m_mounts.table->setAccessibleName(tr("Mounts"));
    for (const auto *s : {&m_endpoints, &m_labels, &m_mounts})
        column->addWidget(s->box);
    m_column = column;

    m_rawToggle = new QToolButton(content);
    m_rawToggle->setObjectName(QStringLiteral("rawJsonToggle"));
    m_rawToggle->setText(tr("Provider's description (JSON)"));
    m_rawToggle->setCheckable(true);
    m_rawToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_rawToggle->setArrowType(Qt::RightArrow);
    m_rawToggle->setAutoRaise(true);
    m_rawToggle->setAccessibleName(tr("Show the provider's description"));
    m_rawPanel = new QWidget(content);
    auto *rawLayout = new QVBoxLayout(m_rawPanel);
    rawLayout->setContentsMargins(0, 0, 0, 0);
    m_raw = new QPlainTextEdit(m_rawPanel);
    m_raw->setObjectName(QStringLiteral("rawJson"));
    m_raw->setReadOnly(true);
    m_raw->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_raw->setMinimumHeight(240);
    m_raw->setAccessibleName(tr("Provider's description of the session"));
    m_copyJson = new QPushButton(tr("Copy JSON"), m_rawPanel);
    m_copyJson->setObjectName(QStringLiteral("copyRawJson"));
    m_copyJson->setAccessibleName(tr("Copy the provider's description"));
    auto *copyRow = new QHBoxLayout;
    copyRow->addStretch(1);
    copyRow->addWidget(m_copyJson);
    rawLayout->addLayout(copyRow);
    rawLayout->addWidget(m_raw);
    m_rawPanel->setVisible(false);
    column->addWidget(m_rawToggle, 0, Qt::AlignLeft);
    column->addWidget(m_rawPanel);
    column->addStretch(1);

    connect(m_rawToggle, &QToolButton::toggled, this, &InfoView::setRawJsonExpanded);
    connect(m_copyJson, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_raw->toPlainText()); });

    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

void InfoView::addSection(QWidget *section)
{
    // Before the provider's description, which stays last.
    m_column->insertWidget(m_column->indexOf(m_rawToggle), section);
}

InfoView::TableSection InfoView::makeTable(const QString &title, const QStringList &headers, const QString &objectName)
{
    TableSection s;
    s.box = new QGroupBox(title);
    auto *layout = new QVBoxLayout(s.box);
    s.table = new QTableWidget(0, int(headers.size()), s.box);
    s.table->setObjectName(objectName);
    s.table->setHorizontalHeaderLabels(headers);
    s.table->verticalHeader()->hide();
    s.table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    s.table->setSelectionBehavior(QAbstractItemView::SelectRows);
    s.table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    s.empty = new QLabel(s.box);
    s.empty->setEnabled(false);
    layout->addWidget(s.table);
    layout->addWidget(s.empty);
    return s;
}

void InfoView::setFormRows(QFormLayout *form, const QList<QPair<QString, QString>> &rows)
{
    while (form->rowCount() > 0)
        form->removeRow(0);
    for (const auto &[label, value] : rows) {
        auto *v = new QLabel(value);
        v->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        v->setAccessibleName(label);
        v->setWordWrap(true);
        form->addRow(label, v);
    }
}

void InfoView::setSession(const SessionInfo &session, Capabilities caps)
{
    m_session = session;
    const QLocale locale;
    const auto when = [&locale](const QDateTime &t, const QString &none) {
        return t.isValid() ? locale.toString(t.toLocalTime(), QLocale::LongFormat) : none;
    };
    QString state = sessionStateName(session.state);
    if (!session.statusText.isEmpty() && session.statusText != state)
        state += QStringLiteral(" — ") + session.statusText;
    if (!session.errorMessage.isEmpty())
        state += QStringLiteral(" (") + session.errorMessage + QLatin1Char(')');
    setFormRows(m_identity, {{tr("Name"), session.name.isEmpty() ? tr("(none)") : session.name},
                             {tr("ID"), session.id},
                             {tr("Account"), session.account},
                             {tr("Provider"), session.provider},
                             {tr("Image"), session.image.isEmpty() ? tr("(none)") : session.image},
                             {tr("State"), state},
                             {tr("Created"), when(session.created, tr("unknown"))},
                             {tr("Expires"), when(session.expiresAt, tr("never"))}});

    QString gpus = session.gpus < 0 ? tr("all") : session.gpus == 0 ? tr("none") : QString::number(session.gpus);
    if (!session.gpuUuids.isEmpty())
        gpus += QStringLiteral(" (") + session.gpuUuids.join(QStringLiteral(", ")) + QLatin1Char(')');
    setFormRows(m_resources,
                {{tr("CPUs"), session.cpus ? locale.toString(*session.cpus, 'g', 4) : tr("no limit")},
                 {tr("Memory"), session.memoryBytes ? locale.formattedDataSize(*session.memoryBytes) : tr("no limit")},
                 {tr("GPUs"), gpus},
                 {tr("Network"), session.network ? tr("on") : tr("off (no network)")}});

    m_labels.table->setRowCount(0);
    for (auto it = session.labels.cbegin(); it != session.labels.cend(); ++it) {
        const int r = m_labels.table->rowCount();
        m_labels.table->insertRow(r);
        m_labels.table->setItem(r, 0, cell(it.key()));
        m_labels.table->setItem(r, 1, cell(it.value()));
    }
    m_labels.empty->setText(tr("No labels."));

    m_mounts.table->setRowCount(0);
    for (const MountSpec &m : session.mounts) {
        const int r = m_mounts.table->rowCount();
        m_mounts.table->insertRow(r);
        m_mounts.table->setItem(r, 0, cell(m.hostPath));
        m_mounts.table->setItem(r, 1, cell(m.sessionPath));
        m_mounts.table->setItem(r, 2, cell(m.readOnly ? tr("read-only") : tr("read-write")));
    }
    m_mounts.empty->setText(caps.testFlag(Capability::Mounts) ? tr("No folders are shared with this session.")
                                                              : tr("This provider does not share folders."));
    fillEndpoints(caps);
    for (const auto *s : {&m_labels, &m_mounts, &m_endpoints}) {
        const bool any = s->table->rowCount() > 0;
        s->table->setVisible(any);
        s->empty->setVisible(!any);
        if (any)
            fitRows(s->table, s == &m_mounts ? 0 : 1);
    }

    const bool hasRaw = !session.rawJson.isEmpty();
    m_raw->setPlainText(hasRaw ? prettyJson(session.rawJson) : QString());
    m_rawToggle->setVisible(hasRaw);
    m_rawPanel->setVisible(hasRaw && m_rawToggle->isChecked());
}

void InfoView::fillEndpoints(Capabilities caps)
{
    QTableWidget *t = m_endpoints.table;
    t->setRowCount(0);
    for (const SessionEndpoint &e : std::as_const(m_session.endpoints)) {
        const int r = t->rowCount();
        t->insertRow(r);
        t->setItem(r, 0, cell(e.name));
        t->setItem(r, 1, cell(e.url));
        auto *open = new QPushButton(tr("Open"), t);
        open->setObjectName(QStringLiteral("openEndpoint"));
        open->setAccessibleName(tr("Open %1 in the browser").arg(e.url));
        const bool browsable =
            e.url.startsWith(QLatin1String("http://")) || e.url.startsWith(QLatin1String("https://"));
        open->setEnabled(browsable);
        auto *copy = new QPushButton(tr("Copy"), t);
        copy->setObjectName(QStringLiteral("copyEndpoint"));
        copy->setAccessibleName(tr("Copy %1").arg(e.url));
        const QString url = e.url;
        connect(open, &QPushButton::clicked, this, [this, url] {
            QDesktopServices::openUrl(QUrl(url));
            Q_EMIT endpointOpened(url);
        });
        connect(copy, &QPushButton::clicked, this, [url] { QApplication::clipboard()->setText(url); });
        t->setCellWidget(r, 2, open);
        t->setCellWidget(r, 3, copy);
    }
    m_endpoints.empty->setText(caps.testFlag(Capability::Ports)
                                   ? tr("No ports are forwarded; add them when creating a session.")
                                   : tr("This provider does not forward ports."));
}

void InfoView::setRawJsonExpanded(bool expanded)
{
    if (m_rawToggle->isChecked() != expanded)
        m_rawToggle->setChecked(expanded); // comes back here through toggled
    m_rawToggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_rawToggle->setAccessibleName(expanded ? tr("Hide the provider's description")
                                            : tr("Show the provider's description"));
    m_rawPanel->setVisible(expanded && !m_session.rawJson.isEmpty());
}

QString InfoView::prettyJson(const QByteArray &raw)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &error);
    if (error.error != QJsonParseError::NoError)
        return QString::fromUtf8(raw);
    return QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
}

} // namespace sandbar::ui
