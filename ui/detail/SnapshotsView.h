#pragma once

// The Info tab's Snapshots section, for a provider with SnapshotFacet (a sprite's checkpoints):
// the list, newest first; Save with a comment, its progress shown as the provider tells it;
// Restore of the selected one, after a confirmation.

#include "providers/Provider.h"

#include <QGroupBox>
#include <QPointer>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace sandbar::ui {

class SnapshotsView : public QGroupBox
{
    Q_OBJECT
public:
    SnapshotsView(Provider *provider, QString sessionId, QWidget *parent = nullptr);

    // Asks the provider for the list again (done when the section is first shown).
    void reload();
    // Saves a snapshot with the comment typed (tests drive the buttons' slots).
    void save();
    // Restores the selected snapshot without asking (the button asks first).
    void restoreSelected();
    QTableWidget *table() const { return m_table; }
    QString statusText() const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    void confirmRestore();
    void setBusy(bool busy, const QString &text);
    void fill(const QList<SnapshotEntry> &entries);

    QPointer<Provider> m_provider;
    QString m_sessionId;
    QTableWidget *m_table = nullptr;
    QLineEdit *m_comment = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_restore = nullptr;
    QLabel *m_status = nullptr;
    bool m_loaded = false;
    bool m_busy = false;
};

} // namespace sandbar::ui
