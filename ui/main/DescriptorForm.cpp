#include "main/DescriptorForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>

namespace sandbar::ui {

DescriptorForm::DescriptorForm(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QFormLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
}

void DescriptorForm::setFields(const QList<FieldDescriptor> &fields)
{
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
    m_editors.clear();
    m_fields = fields;
    for (const auto &f : fields) {
        QWidget *editor = nullptr;
        if (f.type == FieldType::Boolean) {
            auto *box = new QCheckBox(this);
            box->setChecked(f.defaultValue.toBool());
            editor = box;
        } else if (f.type == FieldType::Choice) {
            auto *combo = new QComboBox(this);
            combo->addItems(f.choices);
            if (f.defaultValue.isValid())
                combo->setCurrentText(f.defaultValue.toString());
            editor = combo;
        } else if (isMultiValued(f.type)) {
            // One entry a line (KEY=VALUE, HOST:PATH[:ro]).
            auto *text = new QPlainTextEdit(this);
            text->setTabChangesFocus(true);
            text->setLineWrapMode(QPlainTextEdit::NoWrap);
            text->setPlaceholderText(f.help);
            text->setFixedHeight(text->fontMetrics().lineSpacing() * 4 + 2 * text->frameWidth() + 8);
            editor = text;
        } else {
            auto *line = new QLineEdit(this);
            if (f.secret || f.type == FieldType::Secret)
                line->setEchoMode(QLineEdit::Password);
            if (f.defaultValue.isValid())
                line->setPlaceholderText(f.defaultValue.toString());
            line->setClearButtonEnabled(true);
            editor = line;
        }
        editor->setObjectName(QStringLiteral("field_") + f.key);
        editor->setToolTip(f.help);
        m_layout->addRow(f.required ? f.label + QStringLiteral(" *") : f.label, editor);
        m_editors << editor;
    }
}

Result<QVariantMap> DescriptorForm::values() const
{
    // The texts go through parseFieldValues, the parser sandbarctl uses too.
    QList<FieldDescriptor> fields;
    QMap<QString, QStringList> texts;
    for (qsizetype i = 0; i < m_fields.size(); ++i) {
        const auto &f = m_fields.at(i);
        if (f.secret)
            continue;
        fields << f;
        QWidget *w = m_editors.at(i);
        if (auto *box = qobject_cast<QCheckBox *>(w))
            texts.insert(f.key, {box->isChecked() ? QStringLiteral("true") : QStringLiteral("false")});
        else if (auto *combo = qobject_cast<QComboBox *>(w))
            texts.insert(f.key, {combo->currentText()});
        else if (auto *text = qobject_cast<QPlainTextEdit *>(w))
            texts.insert(f.key, text->toPlainText().split(QLatin1Char('\n')));
        else
            texts.insert(f.key, {static_cast<QLineEdit *>(w)->text()});
    }
    return parseFieldValues(fields, texts);
}

QMap<QString, QString> DescriptorForm::secrets() const
{
    QMap<QString, QString> out;
    for (qsizetype i = 0; i < m_fields.size(); ++i) {
        if (!m_fields.at(i).secret)
            continue;
        const QString text = static_cast<QLineEdit *>(m_editors.at(i))->text();
        if (!text.isEmpty())
            out.insert(m_fields.at(i).key, text);
    }
    return out;
}

} // namespace sandbar::ui
