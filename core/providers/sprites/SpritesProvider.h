#pragma once

#include "cloud/CloudClient.h"
#include "cloud/DeadlineKeeper.h"
#include "cloud/PolledStats.h"
#include "cloud/PortForward.h"
#include "cloud/WebSocketTerminals.h"
#include "providers/CopyingFiles.h"
#include "providers/Provider.h"
#include "providers/sprites/SpritesParsers.h"

#include <QHash>
#include <QSslCertificate>
#include <QUrl>

namespace sandbar::sprites {

// A Fly.io Sprites organisation's sprites (the REST and WebSocket API under
// https://api.sprites.dev, as @fly/sprites 0.1.0 calls it; every request and upgrade carries
// the bearer token).
//
// Mapping onto Provider: the session id is the sprite's name. A sprite has no stop and no
// time limit of its own: it sleeps when nothing runs in it. stop() and kill() end its exec
// sessions (terminals, commands) so that it can sleep; remove() deletes it with its files.
// Sandbar's ttl is a label, enforced by Sandbar while it runs by the same stop, never by a
// delete. Terminals are the exec WebSocket with tty=true; they outlive their socket on the
// service, so they can be listed and reattached.
class SpritesProvider : public Provider,
                        public ExecFacet,
                        public CopyingFiles,
                        public TimeLimitFacet,
                        public SnapshotFacet,
                        public SettingsFacet,
                        public LabelsFacet
{
    Q_OBJECT
public:
    struct Settings {
        QUrl endpoint; // https://api.sprites.dev
        QString token;
        QString organisation;
        QList<QSslCertificate> caCertificates;
    };

    SpritesProvider(ProviderDescriptor descriptor, QString accountName, Settings settings,
                    const Clock &clock = systemClock(), QObject *parent = nullptr);
    ~SpritesProvider() override;

    const ProviderDescriptor &descriptor() const override { return m_descriptor; }
    QString accountName() const override { return m_account; }

    void health(Callback<HealthInfo> done) override;
    void listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done) override;
    void create(const CreateSpec &spec, Callback<SessionInfo> done) override;
    void info(const QString &sessionId, Callback<SessionInfo> done) override;
    void stop(const QString &sessionId, Callback<void> done) override;
    void kill(const QString &sessionId, Callback<void> done) override;
    void remove(const QString &sessionId, Callback<void> done) override;
    void setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done) override;

    // Checkpoints: the sprite's files saved aside (progress streamed) and put back.
    void listSnapshots(const QString &sessionId, Callback<QList<SnapshotEntry>> done) override;
    void createSnapshot(const QString &sessionId, const QString &comment, Callback<SnapshotEntry> done) override;
    void restoreSnapshot(const QString &sessionId, const QString &snapshotId, Callback<void> done) override;
    // The URL's access (public-url), changed on the sprite as it is.
    void changeSettings(const QString &sessionId, const QVariantMap &values, Callback<SessionInfo> done) override;
    // The person's labels among the sprite's, Sandbar's kept.
    void setLabels(const QString &sessionId, const QMap<QString, QString> &labels, Callback<SessionInfo> done) override;

    std::unique_ptr<ExecJob> exec(const QString &sessionId, const ExecRequest &request) override;
    Capabilities fileFlags() const override { return Capability::FileList; }
    void statPath(const QString &sessionId, const QString &path, Callback<PathStat> done) override;
    std::unique_ptr<TransferJob> putItem(const QString &sessionId, const QString &localPath, const QString &remoteDir,
                                         const QString &name) override;
    std::unique_ptr<TransferJob> getItem(const QString &sessionId, const QString &remotePath, const QString &localDir,
                                         const QString &name) override;
    std::unique_ptr<TransferJob> putTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir) override;
    std::unique_ptr<TransferJob> getTar(const QString &sessionId, const QString &remotePath, QIODevice *out) override;
    void listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done) override;
    void removePath(const QString &sessionId, const QString &path, Callback<void> done) override;
    void makeDir(const QString &sessionId, const QString &path, Callback<void> done) override;
    void movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done) override;
    void setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done) override;

    cloud::CloudClient *client() const { return m_client; }
    // The URL of a path under the sprite (/v1/sprites/NAME + suffix).
    QUrl spriteUrl(const QString &sprite, const QString &suffix, const QUrlQuery &query = {}) const;
    // The exec WebSocket's request: a new command (query from execQuery) or, with attachId, a
    // running session.
    QNetworkRequest execRequest(const QString &sprite, const QUrlQuery &query, const QString &attachId = {}) const;
    // A port of the sprite started or stopped listening (the exec socket's notices).
    void notePort(const QString &sprite, int port, bool open);

private:
    cloud::ApiCall apiCall(const QByteArray &method, const QString &path) const;
    cloud::WebSocketTerminals::Connection ptyConnection(const QString &sessionId, const PtyOptions &options);
    void listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done);
    void sample(const QString &sessionId, Callback<StatsSample> done);
    struct CreateState;
    void created(std::shared_ptr<CreateState> state, const SpriteRecord &rec);
    void getSprite(const QString &name, Callback<SpriteRecord> done);
    void listPages(QUrlQuery query, Callback<QList<SpriteRecord>> done);
    // A checkpoint's or restore's NDJSON progress, each line told through snapshotProgress.
    void progressCall(const QString &sprite, const QString &suffix, QByteArray body, Callback<void> done);
    void endSessions(const QString &sprite, const QString &signal, Callback<void> done);
    void remember(const SpriteRecord &rec);
    SessionInfo withPorts(SessionInfo info) const;
    // PUT /v1/sprites/NAME with these labels, all of them; answers the sprite as it is then.
    void putLabels(const QString &sprite, const QStringList &labelList, Callback<SessionInfo> done);
    static QString enc(const QString &name);

    ProviderDescriptor m_descriptor;
    QString m_account;
    Settings m_settings;
    const Clock *m_clock;
    cloud::CloudClient *m_client = nullptr;
    QHash<QString, SpriteRecord> m_records; // by sprite name, the last seen
    QHash<QString, QList<int>> m_openPorts; // what the exec sockets said is listening
    // A local port for each of them, carried over /proxy (sprite -> sprite port -> forward).
    QHash<QString, QHash<int, cloud::WebSocketPortForward *>> m_forwards;
    void forwardPort(const QString &sprite, int port, bool open);
    cloud::DeadlineKeeper *m_ttl = nullptr; // Sandbar's ttl: ends what runs, never the sprite
    cloud::WebSocketTerminals m_terminals;
    cloud::PolledStats m_stats;
};

} // namespace sandbar::sprites
