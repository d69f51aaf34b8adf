#pragma once

#include "providers/Descriptors.h"

#include <QWidget>

class QFormLayout;

namespace sandbar::ui {

// A form built from field descriptors: the same data the account store and sandbarctl
// read, so no provider's fields are written out by hand in the window.
class DescriptorForm : public QWidget
{
    Q_OBJECT
public:
    explicit DescriptorForm(QWidget *parent = nullptr);

    void setFields(const QList<FieldDescriptor> &fields);
    // Typed values of the filled-in fields (empty optional fields are left out), or the
    // first field's error.
    Result<QVariantMap> values() const;
    QMap<QString, QString> secrets() const;

private:
    QFormLayout *m_layout;
    QList<FieldDescriptor> m_fields;
    QList<QWidget *> m_editors;
};

} // namespace sandbar::ui
