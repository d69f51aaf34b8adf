#include "detail/CommandsView.h"

#include "detail/LogsView.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTableWidget>
#include <QTextCharFormat>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {
constexpr int kMaxOutputBlocks = 10000;
constexpr int kSigTerm = 15;
constexpr int kSigKill = 9;

QString stateText(const BackgroundCommand &c)
{
    if (c.running)
        return CommandsView::tr("Running");
    return c.exitCode ? CommandsView::tr("Exited (%1)").arg(*c.exitCode) : CommandsView::tr("Ended");
}
} // namespace

CommandsView::CommandsView(Provider *provider, QString sessionId, QWidget *parent)
    : QWidget(parent)
    , m_provider(provider)
    , m_sessionId(std::move(sessionId))
{
    setObjectName(QStringLiteral("commandsView"));
    auto *layout = new QVBoxLayout(this);
    auto *hint = new QLabel(tr("Commands started here run on their own, also after this window closes; the provider "
                               "keeps their output."),
                            this);
    hint->setWordWrap(true);
    layout->addWidget(hint);

    auto *row = new QHBoxLayout;
    m_input = new QLineEdit(this);
    m_input->setObjectName(QStringLiteral("commandLine"));
    m_input->setPlaceholderText(tr("Command line, run by sh -c (for example: npm run dev)"));
    m_input->setAccessibleName(tr("Command to start"));
    m_start = new QPushButton(tr("Start"), this);
    m_start->setObjectName(QStringLiteral("startCommandButton"));
    row->addWidget(m_input, 1);
    row->addWidget(m_start);
    layout->addLayout(row);

    m_table = new QTableWidget(0, 4, this);
    m_table->setObjectName(QStringLiteral("commandsTable"));
    m_table->setAccessibleName(tr("Commands"));
    m_table->setHorizontalHeaderLabels({tr("Command"), tr("State"), tr("Started"), tr("ID")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setMinimumHeight(100);
    layout->addWidget(m_table, 1);

    auto *buttons = new QHBoxLayout;
    auto *refresh = new QPushButton(tr("Refresh"), this);
    refresh->setObjectName(QStringLiteral("refreshCommandsButton"));
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setObjectName(QStringLiteral("stopCommandButton"));
    m_stop->setToolTip(tr("Ask the command to end (TERM)"));
    m_kill = new QPushButton(tr("Kill"), this);
    m_kill->setObjectName(QStringLiteral("killCommandButton"));
    m_kill->setToolTip(tr("End the command at once (KILL)"));
    buttons->addWidget(refresh);
    buttons->addStretch(1);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_kill);
    layout->addLayout(buttons);

    m_output = new QPlainTextEdit(this);
    m_output->setObjectName(QStringLiteral("commandOutput"));
    m_output->setAccessibleName(tr("Output of the selected command"));
    m_output->setReadOnly(true);
    m_output->setMaximumBlockCount(kMaxOutputBlocks);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_output, 2);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("commandsStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    connect(m_start, &QPushButton::clicked, this, &CommandsView::startTyped);
    connect(m_input, &QLineEdit::returnPressed, this, &CommandsView::startTyped);
    connect(refresh, &QPushButton::clicked, this, &CommandsView::reload);
    connect(m_stop, &QPushButton::clicked, this, [this] { signalSelected(kSigTerm); });
    connect(m_kill, &QPushButton::clicked, this, [this] { signalSelected(kSigKill); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        updateButtons();
        const QString id = selectedId();
        if (!id.isEmpty() && id != m_following)
            follow(id);
    });
    updateButtons();
}

CommandsView::~CommandsView() = default;

QString CommandsView::outputText() const
{
    return m_output->toPlainText();
}

QString CommandsView::statusText() const
{
    return m_status->text();
}

void CommandsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_loaded)
        reload();
}

QString CommandsView::selectedId() const
{
    const auto selected = m_table->selectedItems();
    return selected.isEmpty() ? QString() : m_table->item(selected.first()->row(), 3)->text();
}

void CommandsView::updateButtons()
{
    const auto selected = m_table->selectedItems();
    const bool running = !selected.isEmpty() && m_table->item(selected.first()->row(), 1)->data(Qt::UserRole).toBool();
    m_stop->setEnabled(running);
    m_kill->setEnabled(running);
}

void CommandsView::reload()
{
    BackgroundFacet *background = m_provider ? m_provider->background() : nullptr;
    if (!background)
        return;
    m_loaded = true;
    background->listBackground(
        m_sessionId, Callback<QList<BackgroundCommand>>(this, [this](Result<QList<BackgroundCommand>> r) {
            if (!r)
                return m_status->setText(tr("The commands could not be listed: %1").arg(r.message()));
            fill(r.value());
        }));
}

void CommandsView::fill(const QList<BackgroundCommand> &commands)
{
    const QString keep = selectedId().isEmpty() ? m_following : selectedId();
    const QSignalBlocker blocker(m_table);
    m_table->setRowCount(0);
    const QLocale locale;
    for (const BackgroundCommand &c : commands) {
        const int r = m_table->rowCount();
        m_table->insertRow(r);
        m_table->setItem(r, 0, new QTableWidgetItem(c.argv.join(QLatin1Char(' '))));
        auto *state = new QTableWidgetItem(stateText(c));
        state->setData(Qt::UserRole, c.running);
        m_table->setItem(r, 1, state);
        m_table->setItem(r, 2,
                         new QTableWidgetItem(c.started.isValid()
                                                  ? locale.toString(c.started.toLocalTime(), QLocale::ShortFormat)
                                                  : QString()));
        m_table->setItem(r, 3, new QTableWidgetItem(c.id));
        if (c.id == keep)
            m_table->selectRow(r);
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    if (commands.isEmpty())
        m_status->setText(tr("No commands started yet."));
    updateButtons();
}

void CommandsView::startTyped()
{
    BackgroundFacet *background = m_provider ? m_provider->background() : nullptr;
    const QString line = m_input->text().trimmed();
    if (!background || line.isEmpty())
        return;
    ExecRequest request;
    request.argv = {QStringLiteral("sh"), QStringLiteral("-c"), line};
    m_start->setEnabled(false);
    m_status->setText(tr("Starting %1…").arg(line));
    background->startBackground(m_sessionId, request,
                                Callback<BackgroundCommand>(this, [this, line](Result<BackgroundCommand> r) {
                                    m_start->setEnabled(true);
                                    if (!r)
                                        return m_status->setText(tr("The command did not start: %1").arg(r.message()));
                                    m_input->clear();
                                    m_status->setText(tr("Started %1 (%2).").arg(line, r->id));
                                    m_following.clear();
                                    follow(r->id);
                                    reload();
                                }));
}

void CommandsView::signalSelected(int signal)
{
    BackgroundFacet *background = m_provider ? m_provider->background() : nullptr;
    const QString id = selectedId();
    if (!background || id.isEmpty())
        return;
    background->signalBackground(m_sessionId, id, signal, Callback<void>(this, [this, id, signal](VoidResult r) {
                                     if (!r)
                                         return m_status->setText(tr("The signal was not sent: %1").arg(r.message()));
                                     m_status->setText(signal == kSigKill ? tr("Killed %1.").arg(id)
                                                                          : tr("Asked %1 to stop.").arg(id));
                                     reload();
                                 }));
}

void CommandsView::follow(const QString &commandId)
{
    BackgroundFacet *background = m_provider ? m_provider->background() : nullptr;
    if (!background)
        return;
    if (m_stream)
        m_stream->stop();
    m_stream.reset();
    m_following = commandId;
    m_output->clear();
    m_decoders[0] = QStringDecoder(QStringDecoder::Utf8);
    m_decoders[1] = QStringDecoder(QStringDecoder::Utf8);
    m_stream = background->backgroundOutput(m_sessionId, commandId);
    connect(m_stream.get(), &LogStream::data, this, &CommandsView::append);
    connect(m_stream.get(), &LogStream::finished, this, [this](const VoidResult &r) {
        if (!r)
            m_status->setText(tr("The output stopped: %1").arg(r.message()));
        reload(); // it ended: its state and exit code
    });
    m_stream->start();
}

void CommandsView::append(const QByteArray &bytes, int stream)
{
    const bool err = stream == 2;
    const QString text = m_decoders[err ? 1 : 0].decode(bytes);
    if (text.isEmpty())
        return;
    QScrollBar *bar = m_output->verticalScrollBar();
    const bool atEnd = bar->value() == bar->maximum();
    QTextCursor cursor(m_output->document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat format;
    if (err)
        format.setForeground(LogsView::stderrColor());
    cursor.insertText(text, format);
    if (atEnd)
        bar->setValue(bar->maximum());
}

} // namespace sandbar::ui
