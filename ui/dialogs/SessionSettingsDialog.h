#pragma once

#include "providers/Descriptors.h"
#include "providers/Session.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;

namespace sandbar::ui {

class DescriptorForm;

// The settings of a session that exists: the provider's create options it can change later
// (FieldDescriptor::changeable), in a form made from the descriptor and filled with the
// session's current values. On OK it emits the values that differ from them; the caller
// changes them (SettingsFacet) and says how it went with showError() or by closing it.
class SessionSettingsDialog : public QDialog
{
    Q_OBJECT
public:
    SessionSettingsDialog(const ProviderDescriptor &provider, const SessionInfo &session, QWidget *parent = nullptr);

    // The values that differ from the session's, or the form's first error.
    Result<QVariantMap> changedValues() const;
    // Back from a failed change: the reason under the form; the dialog stays open.
    void showError(const QString &message);
    DescriptorForm *form() const { return m_form; }

Q_SIGNALS:
    // OK with something changed (with nothing changed OK just closes).
    void changeRequested(const QVariantMap &values);

private:
    void submit();

    SessionInfo m_session;
    DescriptorForm *m_form;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

} // namespace sandbar::ui
