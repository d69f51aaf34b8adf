// Detached commands (BackgroundFacet): POST .../cmd without wait answers the command at once,
// GET .../cmd/ID says whether it still runs, GET .../cmd/ID/logs replays its output and then
// follows it, POST .../cmd/ID/kill sends it a signal. Vercel cannot list a session's commands,
// so the ids Sandbar started are kept in the account's CommandBook. A command belongs to the
// sandbox's session it was started in: after a stop, or in a new session, it has ended.
#include "cloud/CommandBook.h"
#include "cloud/NdjsonStream.h"
#include "net/HttpClient.h"
#include "providers/vercel/VercelJobs.h"
#include "providers/vercel/VercelProvider.h"
#include "providers/vercel/VercelTr.h"

#include <QDir>
#include <QPointer>

namespace sandbar::vercel {

namespace {

QString commandPath(const QString &commandId, const QString &tail = {})
{
    return QStringLiteral("/cmd/") + QString::fromLatin1(QUrl::toPercentEncoding(commandId)) + tail;
}

// Outside the class below, whose tr() would be LogStream's at run time.
Error streamEnded(const QString &why)
{
    return makeError(ErrorCode::Unavailable, tr("Vercel ended the command's output: %1").arg(why));
}

// The output of one command, from its start until it ends (or stop()).
class VercelOutputStream final : public LogStream
{
public:
    VercelOutputStream(VercelProvider *provider, QString sandbox, QString commandId)
        : m_provider(provider)
        , m_sandbox(std::move(sandbox))
        , m_commandId(std::move(commandId))
    {
    }

    void start() override
    {
        m_run = new QObject(this);
        if (!m_provider)
            return Callback<void>(m_run, [this](VoidResult r) { finish(r); }).post(accountClosed());
        m_provider->sessionUrl(m_sandbox, commandPath(m_commandId, QStringLiteral("/logs")),
                               Callback<QUrl>(m_run, [this](Result<QUrl> url) {
                                   if (!url)
                                       return finish(url.error());
                                   begin(url.value());
                               }));
    }

    void stop() override
    {
        m_done = true;
        if (m_run)
            m_run->deleteLater(); // its exchange goes with it; a listener may be in one of its signals
        m_run = nullptr;
    }

private:
    void begin(const QUrl &url)
    {
        if (m_done || !m_provider)
            return finish(accountClosed());
        net::HttpRequest request;
        request.method = "GET";
        request.connectTimeout = std::chrono::seconds(30);
        request.responseTimeout = std::chrono::seconds(60);
        // No idle limit: a command may print nothing for hours.
        cloud::streamLines(
            m_provider->client(), cloud::HttpTarget{url, {}, true}, std::move(request), m_run,
            [this](const QByteArray &line) -> VoidResult {
                if (m_done)
                    return {};
                auto event = parseCommandLine(line);
                if (!event)
                    return event.error();
                if (event->kind == CommandEvent::Kind::Error)
                    return streamEnded(event->message);
                if (event->kind == CommandEvent::Kind::Output)
                    Q_EMIT data(event->data, event->stream);
                return {};
            },
            Callback<void>(m_run, [this](VoidResult r) { finish(r); }));
    }

    void finish(const VoidResult &result)
    {
        if (m_done)
            return;
        m_done = true;
        Q_EMIT finished(result);
    }

    QPointer<VercelProvider> m_provider;
    QString m_sandbox;
    QString m_commandId;
    QObject *m_run = nullptr;
    bool m_done = false;
};

} // namespace

cloud::CommandBook &VercelProvider::commandBook()
{
    if (!m_book) {
        const QString dir = stateDir();
        m_book = std::make_unique<cloud::CommandBook>(
            dir.isEmpty() ? QString() : QDir(dir).filePath(QStringLiteral("commands.json")));
    }
    return *m_book;
}

void VercelProvider::startBackground(const QString &sessionId, const ExecRequest &request,
                                     Callback<BackgroundCommand> done)
{
    if (request.argv.isEmpty() || request.argv.first().isEmpty())
        return done.post(makeError(ErrorCode::InvalidArgument, tr("No command to run")));
    if (!request.stdinData.isEmpty())
        return done.post(makeError(ErrorCode::InvalidArgument, tr("A command left running takes no input")));
    cloud::ApiCall call;
    call.method = "POST";
    call.body = VercelExecJob::commandBody(request, false);
    call.idempotent = false; // sent again after a lost reply, it would run twice
    QPointer<VercelProvider> self(this);
    sessionCall(sessionId, QStringLiteral("/cmd"), call,
                Callback<cloud::ApiReply>(
                    done.context(), [self, sessionId, argv = request.argv, done](Result<cloud::ApiReply> r) {
                        if (!r)
                            return done(makeError(r.code(), tr("Starting the command failed: %1").arg(r.message())));
                        auto command = parseCommandReply(r->body);
                        if (!command)
                            return done(command.error());
                        command->argv = argv; // as asked, not as Vercel split it into name and args
                        if (!command->started.isValid())
                            command->started = QDateTime::currentDateTimeUtc();
                        if (self)
                            self->commandBook().add(sessionId, command.value());
                        done(command.value());
                    }));
}

void VercelProvider::listBackground(const QString &sessionId, Callback<QList<BackgroundCommand>> done)
{
    struct Listing {
        QList<BackgroundCommand> commands;
        int pending = 0;
        Callback<QList<BackgroundCommand>> done;
    };
    auto listing = std::make_shared<Listing>();
    listing->commands = commandBook().commands(sessionId);
    listing->done = std::move(done);
    for (const BackgroundCommand &c : std::as_const(listing->commands))
        listing->pending += c.running ? 1 : 0;
    if (listing->pending == 0)
        return listing->done.post(listing->commands);
    QPointer<VercelProvider> self(this);
    for (qsizetype i = 0; i < listing->commands.size(); ++i) {
        if (!listing->commands[i].running)
            continue;
        cloud::ApiCall call;
        call.method = "GET";
        const auto asked = [self, sessionId, listing, i](Result<cloud::ApiReply> r) {
            BackgroundCommand &c = listing->commands[i];
            if (r) {
                if (auto now = parseCommandReply(r->body)) {
                    c.running = now->running;
                    c.exitCode = now->exitCode;
                }
            } else if (r.code() == ErrorCode::NotFound || (self && self->hasStopped(sessionId))) {
                // Gone with the session it ran in (the sandbox stopped, or runs a new one).
                c.running = false;
            }
            if (self)
                self->commandBook().update(sessionId, c);
            if (--listing->pending == 0)
                listing->done(listing->commands);
        };
        sessionCall(sessionId, commandPath(listing->commands[i].id), call,
                    Callback<cloud::ApiReply>(listing->done.context(), asked));
    }
}

std::unique_ptr<LogStream> VercelProvider::backgroundOutput(const QString &sessionId, const QString &commandId)
{
    return std::make_unique<VercelOutputStream>(this, sessionId, commandId);
}

void VercelProvider::signalBackground(const QString &sessionId, const QString &commandId, int signal,
                                      Callback<void> done)
{
    if (signal < 1 || signal > 64)
        return done.post(makeError(ErrorCode::InvalidArgument, tr("%1 is not a signal number").arg(signal)));
    cloud::ApiCall call;
    call.method = "POST";
    call.body = QByteArrayLiteral("{\"signal\":") + QByteArray::number(signal) + '}';
    QPointer<VercelProvider> self(this);
    sessionCall(sessionId, commandPath(commandId, QStringLiteral("/kill")), call,
                Callback<cloud::ApiReply>(done.context(), [self, sessionId, done](Result<cloud::ApiReply> r) {
                    if (!r)
                        return done(makeError(r.code(), tr("Signalling the command failed: %1").arg(r.message())));
                    if (auto now = parseCommandReply(r->body); now && self)
                        self->commandBook().update(sessionId, now.value());
                    done(VoidResult{});
                }));
}

} // namespace sandbar::vercel
