#include "files/ConflictDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace sandbar::ui {

ConflictDialog::ConflictDialog(const QString &name, const QString &folder, bool existingIsDir, bool incomingIsDir,
                               QWidget *parent)
    : QDialog(parent)
    , m_all(new QCheckBox(tr("Do this for all remaining conflicts"), this))
{
    setObjectName(QStringLiteral("conflictDialog"));
    setWindowTitle(tr("Name already exists"));
    setAccessibleName(tr("Name conflict"));
    auto *layout = new QVBoxLayout(this);
    auto *text = new QLabel(this);
    text->setObjectName(QStringLiteral("conflictText"));
    text->setWordWrap(true);
    text->setTextFormat(Qt::PlainText);
    QString what;
    if (existingIsDir && incomingIsDir)
        what = tr("A folder named “%1” already exists in %2. Overwrite merges the two folders.");
    else if (existingIsDir != incomingIsDir)
        what = tr("“%1” already exists in %2 as a %3. Overwrite deletes it first.")
                   .arg(QStringLiteral("%1"), QStringLiteral("%2"), existingIsDir ? tr("folder") : tr("file"));
    else
        what = tr("A file named “%1” already exists in %2. Overwrite replaces it.");
    text->setText(what.arg(name, folder));
    layout->addWidget(text);
    m_all->setObjectName(QStringLiteral("conflictApplyAll"));
    m_all->setAccessibleName(tr("Do this for all remaining conflicts"));
    layout->addWidget(m_all);

    auto *buttons = new QDialogButtonBox(this);
    const auto addChoice = [this, buttons](const QString &label, const char *objectName,
                                           TransferQueue::ConflictChoice choice, QDialogButtonBox::ButtonRole role) {
        QPushButton *b = buttons->addButton(label, role);
        b->setObjectName(QLatin1String(objectName));
        b->setAccessibleName(b->text().remove(QLatin1Char('&')));
        connect(b, &QPushButton::clicked, this, [this, choice]() {
            m_answered = true;
            Q_EMIT chosen(choice, m_all->isChecked());
            accept();
        });
        return b;
    };
    addChoice(tr("&Overwrite"), "conflictOverwrite", TransferQueue::ConflictChoice::Overwrite,
              QDialogButtonBox::DestructiveRole);
    addChoice(tr("&Skip"), "conflictSkip", TransferQueue::ConflictChoice::Skip, QDialogButtonBox::RejectRole);
    QPushButton *rename =
        addChoice(tr("&Rename"), "conflictRename", TransferQueue::ConflictChoice::Rename, QDialogButtonBox::AcceptRole);
    rename->setDefault(true);
    layout->addWidget(buttons);
    // Closed without a choice (Escape, the window's close button): the safe answer.
    connect(this, &QDialog::rejected, this, [this]() {
        if (m_answered)
            return;
        m_answered = true;
        Q_EMIT chosen(TransferQueue::ConflictChoice::Skip, false);
    });
}

bool ConflictDialog::applyToAll() const
{
    return m_all->isChecked();
}

} // namespace sandbar::ui
