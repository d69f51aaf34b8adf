#pragma once

#include "files/TransferQueue.h"

#include <QDialog>

class QCheckBox;

namespace sandbar::ui {

// "name already exists": Overwrite, Skip or Rename, optionally for every remaining conflict.
// Opened with open(); answers once through chosen() and closes.
class ConflictDialog : public QDialog
{
    Q_OBJECT
public:
    ConflictDialog(const QString &name, const QString &folder, bool existingIsDir, bool incomingIsDir,
                   QWidget *parent = nullptr);

    bool applyToAll() const;

Q_SIGNALS:
    void chosen(sandbar::ui::TransferQueue::ConflictChoice choice, bool applyToAll);

private:
    QCheckBox *m_all;
    bool m_answered = false;
};

} // namespace sandbar::ui
