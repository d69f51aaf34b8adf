#pragma once

#include "providers/Jobs.h"
#include "providers/Session.h"

#include <QPointer>
#include <QUrl>
#include <memory>

class QTemporaryFile;

namespace sandbar::net {
class HttpExchange;
}

namespace sandbar::files {
class TarSource;
}

namespace sandbar::vercel {

class VercelProvider;

// Cancelled: the provider went away while a job or stream of its was on the way.
Error accountClosed();

// A command (POST .../cmd with wait and logs): the reply is the command's NDJSON stream, its
// output as it happens and, last, its exit code. Vercel has no stdin for commands: input of up
// to 1 MiB is handed over through the shell (base64 in an argument, decoded into the program's
// stdin); more is uploaded first as a file in /tmp, which the shell opens as the program's
// stdin and unlinks before the program starts, so nothing is left behind even if it is killed.
// cancel() kills the command (POST .../cmd/ID/kill, SIGTERM) and ends the stream.
class VercelExecJob : public ExecJob
{
    Q_OBJECT
public:
    VercelExecJob(VercelProvider *provider, QString sandbox, ExecRequest request, QObject *parent = nullptr);
    ~VercelExecJob() override;
    void start() override;
    void cancel() override;

    // The body sent for request (stdin folded into the command line, env as an object).
    // wait=false: a detached command, answered at once (BackgroundFacet).
    static QByteArray commandBody(const ExecRequest &request, bool wait = true);
    // argv reading its stdin from the sandbox's file inputPath, which it removes first.
    static QStringList withInputFile(const QStringList &argv, const QString &inputPath);

private:
    void run();
    void uploadInput();
    void begin(const QUrl &url);
    void onBody(const QByteArray &bytes);
    void onFinished(const VoidResult &result);
    void finish(const Result<int> &result);

    QPointer<VercelProvider> m_provider;
    QString m_sandbox;
    ExecRequest m_request;
    std::unique_ptr<QTemporaryFile> m_input; // the input, while it is uploaded
    QPointer<TransferJob> m_inputUpload;
    QPointer<net::HttpExchange> m_exchange;
    QUrl m_url;
    QByteArray m_buffer;
    QByteArray m_errorBody;
    QString m_commandId;
    int m_status = 0;
    bool m_done = false;
};

// A local file or folder into a folder of the sandbox as one gzip-compressed tar (POST
// .../fs/write, the folder in x-cwd), made while it is sent.
class VercelUploadJob : public TransferJob
{
    Q_OBJECT
public:
    VercelUploadJob(VercelProvider *provider, QString sandbox, QString localPath, QString remoteDir, QString name,
                    QObject *parent = nullptr);
    ~VercelUploadJob() override;
    void start() override;
    void cancel() override;

private:
    void begin(const QUrl &url);
    void finish(const VoidResult &result);

    QPointer<VercelProvider> m_provider;
    QString m_sandbox;
    QString m_localPath;
    QString m_remoteDir;
    QString m_name;
    std::unique_ptr<files::TarSource> m_tar;
    QPointer<net::HttpExchange> m_exchange;
    QByteArray m_errorBody;
    int m_status = 0;
    bool m_done = false;
};

} // namespace sandbar::vercel
