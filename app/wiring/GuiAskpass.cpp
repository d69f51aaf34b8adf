#include "wiring/GuiAskpass.h"

#include "net/SshAskpass.h"
#include "net/SshLink.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>

namespace sandbar {

namespace {

// Installed beside the programs, in libexec, or in the build tree's app/askpass.
QString askpassHelper()
{
    const QString dir = QCoreApplication::applicationDirPath();
    for (const QString &candidate : {QString(dir + QStringLiteral("/sandbar-askpass")),
                                     QString(dir + QStringLiteral("/../libexec/sandbar/sandbar-askpass")),
                                     QString(dir + QStringLiteral("/askpass/sandbar-askpass")),
                                     QString(dir + QStringLiteral("/../app/askpass/sandbar-askpass"))}) {
        const QFileInfo f(candidate);
        if (f.isFile() && f.isExecutable())
            return f.canonicalFilePath();
    }
    return {};
}

} // namespace

std::unique_ptr<net::AskpassServer> installWindowAskpass(QWidget *window)
{
    const QString helper = askpassHelper();
    auto folder = net::SshLink::privateFolder();
    if (helper.isEmpty() || !folder)
        return {};
    auto server = std::make_unique<net::AskpassServer>(helper);
    if (!server->install(*folder))
        return {};
    net::AskpassServer *s = server.get();
    QObject::connect(s, &net::AskpassServer::asked, window, [s, window](quint64 id, const QString &prompt) {
        // Opened, not exec'd: the window goes on while the person types.
        auto *dialog = new QInputDialog(window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setObjectName(QStringLiteral("sshAskpass"));
        dialog->setWindowTitle(QCoreApplication::translate("sandbar", "SSH asks"));
        dialog->setLabelText(prompt);
        dialog->setTextEchoMode(QLineEdit::Password);
        QObject::connect(dialog, &QInputDialog::finished, s, [s, id, dialog](int result) {
            s->answer(id, result == QDialog::Accepted ? std::optional<QString>(dialog->textValue()) : std::nullopt);
            dialog->setTextValue(QString());
        });
        dialog->open();
    });
    return server;
}

} // namespace sandbar
