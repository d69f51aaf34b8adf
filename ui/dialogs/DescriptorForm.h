#pragma once

#include "providers/Descriptors.h"

#include <QWidget>

class QFormLayout;
class QLineEdit;

namespace sandbar::ui {

// A form built from field descriptors: the same data the account store and sandbarctl
// read, so no provider's fields are written out by hand in the window. Multi-valued fields
// (environment, mounts, ports, ...) are tables with a row per entry (ListFieldEditor).
class DescriptorForm : public QWidget
{
    Q_OBJECT
public:
    explicit DescriptorForm(QWidget *parent = nullptr);

    void setFields(const QList<FieldDescriptor> &fields);
    const QList<FieldDescriptor> &fields() const { return m_fields; }
    // Typed values of the filled-in fields (empty optional fields are left out), or the
    // first field's error.
    Result<QVariantMap> values() const;
    // Secrets typed in (new or replaced); a secret still "stored in keychain" is not here.
    QMap<QString, QString> secrets() const;

    // Fills a field from a typed value (settings of an account, a session's options);
    // unknown keys are ignored.
    void setValue(const QString &key, const QVariant &value);
    void setValues(const QVariantMap &values);
    // Edit mode: these secret fields show "stored in keychain" and a Replace… button instead of
    // an input; their value is never read back, and they are kept unless replaced.
    void setStoredSecrets(const QStringList &keys);
    QStringList keptSecrets() const;
    // The editor of a field (QLineEdit, QCheckBox, QComboBox, ListFieldEditor), or null.
    QWidget *editor(const QString &key) const;
    QFormLayout *formLayout() const { return m_layout; }

Q_SIGNALS:
    // Any value changed (typed, toggled, a row added or removed).
    void changed();

private:
    struct Row {
        QWidget *editor = nullptr;
        QWidget *stored = nullptr; // the "stored in keychain" line of a kept secret
    };
    QWidget *makeEditor(const FieldDescriptor &f);
    QWidget *wrapSecret(const FieldDescriptor &f, QLineEdit *line, QWidget **stored);

    QFormLayout *m_layout;
    QList<FieldDescriptor> m_fields;
    QList<Row> m_rows;
};

// Gives the label columns of a dialog's own rows (top) and of form one width, so that the
// two read as one form.
void alignLabels(QFormLayout *top, DescriptorForm *form);

// The text a person would type for a typed value of field (512M, 2h, yes): for prefilling.
QString fieldValueText(const FieldDescriptor &field, const QVariant &value);

} // namespace sandbar::ui
