#include "dialogs/DescriptorForm.h"

#include "dialogs/ListFieldEditor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace sandbar::ui {

DescriptorForm::DescriptorForm(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QFormLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
}

namespace {
// A duration as a person would type it back ("15m", not 900): the field parses these suffixes.
QString durationInputText(qint64 seconds)
{
    if (seconds > 0 && seconds % 86400 == 0)
        return QStringLiteral("%1d").arg(seconds / 86400);
    if (seconds > 0 && seconds % 3600 == 0)
        return QStringLiteral("%1h").arg(seconds / 3600);
    if (seconds > 0 && seconds % 60 == 0)
        return QStringLiteral("%1m").arg(seconds / 60);
    return QStringLiteral("%1s").arg(seconds);
}
} // namespace

QWidget *DescriptorForm::makeEditor(const FieldDescriptor &f)
{
    if (f.type == FieldType::Boolean) {
        auto *box = new QCheckBox(this);
        box->setChecked(f.defaultValue.toBool());
        connect(box, &QCheckBox::toggled, this, &DescriptorForm::changed);
        return box;
    }
    if (f.type == FieldType::Choice) {
        auto *combo = new QComboBox(this);
        combo->addItems(f.choices);
        if (f.defaultValue.isValid())
            combo->setCurrentText(f.defaultValue.toString());
        connect(combo, &QComboBox::currentIndexChanged, this, &DescriptorForm::changed);
        return combo;
    }
    if (isMultiValued(f.type)) {
        auto *list = new ListFieldEditor(f, this);
        connect(list, &ListFieldEditor::changed, this, &DescriptorForm::changed);
        return list;
    }
    auto *line = new QLineEdit(this);
    if (f.secret || f.type == FieldType::Secret)
        line->setEchoMode(QLineEdit::Password);
    if (f.defaultValue.isValid())
        line->setPlaceholderText(f.type == FieldType::Duration ? durationInputText(f.defaultValue.toLongLong())
                                                               : f.defaultValue.toString());
    line->setClearButtonEnabled(true);
    connect(line, &QLineEdit::textChanged, this, &DescriptorForm::changed);
    return line;
}

// A kept secret: a line saying it is stored, and Replace… which swaps in an empty input.
QWidget *DescriptorForm::wrapSecret(const FieldDescriptor &f, QLineEdit *line, QWidget **stored)
{
    auto *box = new QWidget(this);
    auto *layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    line->setParent(box);
    layout->addWidget(line, 1);
    auto *keep = new QWidget(box);
    keep->setObjectName(QStringLiteral("stored_") + f.key);
    auto *keepLayout = new QHBoxLayout(keep);
    keepLayout->setContentsMargins(0, 0, 0, 0);
    auto *label = new QLabel(tr("•••• stored in keychain"), keep);
    auto *replace = new QPushButton(tr("Replace…"), keep);
    replace->setObjectName(QStringLiteral("replace_") + f.key);
    replace->setAccessibleName(tr("Replace %1").arg(f.label));
    replace->setAutoDefault(false);
    keepLayout->addWidget(label, 1);
    keepLayout->addWidget(replace);
    layout->addWidget(keep, 1);
    line->hide();
    connect(replace, &QPushButton::clicked, this, [this, keep, line]() {
        keep->hide();
        line->clear();
        line->show();
        line->setFocus();
        Q_EMIT changed();
    });
    *stored = keep;
    return box;
}

void DescriptorForm::setFields(const QList<FieldDescriptor> &fields)
{
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
    m_rows.clear();
    m_fields = fields;
    for (const auto &f : fields) {
        QWidget *editor = makeEditor(f);
        editor->setObjectName(QStringLiteral("field_") + f.key);
        editor->setToolTip(f.help);
        editor->setAccessibleName(f.label);
        editor->setAccessibleDescription(f.help);
        m_layout->addRow(f.required ? f.label + QStringLiteral(" *") : f.label, editor);
        m_rows << Row{editor, nullptr};
    }
    Q_EMIT changed();
}

QWidget *DescriptorForm::editor(const QString &key) const
{
    for (qsizetype i = 0; i < m_fields.size(); ++i) {
        if (m_fields.at(i).key == key)
            return m_rows.at(i).editor;
    }
    return nullptr;
}

void DescriptorForm::setStoredSecrets(const QStringList &keys)
{
    for (qsizetype i = 0; i < m_fields.size(); ++i) {
        const FieldDescriptor &f = m_fields.at(i);
        auto *line = qobject_cast<QLineEdit *>(m_rows.at(i).editor);
        if (!f.secret || !line || !keys.contains(f.key) || m_rows.at(i).stored)
            continue;
        QWidget *label = m_layout->labelForField(line);
        const QString labelText = label ? static_cast<QLabel *>(label)->text() : f.label;
        const auto taken = m_layout->takeRow(line);
        delete label;
        delete taken.labelItem;
        delete taken.fieldItem;
        QWidget *stored = nullptr;
        QWidget *box = wrapSecret(f, line, &stored);
        m_layout->insertRow(int(i), labelText, box);
        m_rows[i].stored = stored;
    }
}

QStringList DescriptorForm::keptSecrets() const
{
    QStringList out;
    for (qsizetype i = 0; i < m_fields.size(); ++i) {
        if (m_rows.at(i).stored && !m_rows.at(i).stored->isHidden())
            out << m_fields.at(i).key;
    }
    return out;
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
        QWidget *w = m_rows.at(i).editor;
        if (auto *box = qobject_cast<QCheckBox *>(w))
            texts.insert(f.key, {box->isChecked() ? QStringLiteral("true") : QStringLiteral("false")});
        else if (auto *combo = qobject_cast<QComboBox *>(w))
            texts.insert(f.key, {combo->currentText()});
        else if (auto *list = qobject_cast<ListFieldEditor *>(w))
            texts.insert(f.key, list->entries());
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
        auto *line = qobject_cast<QLineEdit *>(m_rows.at(i).editor);
        if (line && !line->isHidden() && !line->text().isEmpty())
            out.insert(m_fields.at(i).key, line->text());
    }
    return out;
}

void DescriptorForm::setValue(const QString &key, const QVariant &value)
{
    for (qsizetype i = 0; i < m_fields.size(); ++i) {
        const FieldDescriptor &f = m_fields.at(i);
        if (f.key != key || f.secret)
            continue;
        QWidget *w = m_rows.at(i).editor;
        if (auto *box = qobject_cast<QCheckBox *>(w))
            box->setChecked(value.toBool());
        else if (auto *combo = qobject_cast<QComboBox *>(w))
            combo->setCurrentText(value.toString());
        else if (auto *list = qobject_cast<ListFieldEditor *>(w))
            list->setEntries(value.typeId() == QMetaType::QStringList || value.typeId() == QMetaType::QVariantList
                                 ? value.toStringList()
                                 : value.toString().split(QLatin1Char('\n'), Qt::SkipEmptyParts));
        else if (auto *line = qobject_cast<QLineEdit *>(w))
            line->setText(fieldValueText(f, value));
    }
}

void DescriptorForm::setValues(const QVariantMap &values)
{
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        setValue(it.key(), it.value());
}

void alignLabels(QFormLayout *top, DescriptorForm *form)
{
    QList<QWidget *> labels;
    for (QFormLayout *layout : {top, form->formLayout()}) {
        for (int r = 0; r < layout->rowCount(); ++r) {
            if (QLayoutItem *item = layout->itemAt(r, QFormLayout::LabelRole); item && item->widget())
                labels << item->widget();
        }
    }
    int width = 0;
    for (QWidget *l : std::as_const(labels)) {
        l->setMinimumWidth(0);
        width = std::max(width, l->sizeHint().width());
    }
    for (QWidget *l : std::as_const(labels))
        l->setMinimumWidth(width);
}

QString fieldValueText(const FieldDescriptor &field, const QVariant &value)
{
    switch (field.type) {
    case FieldType::Bytes: {
        const qint64 b = value.toLongLong();
        const qint64 g = qint64(1) << 30, m = qint64(1) << 20, k = qint64(1) << 10;
        if (b > 0 && b % g == 0)
            return QStringLiteral("%1G").arg(b / g);
        if (b > 0 && b % m == 0)
            return QStringLiteral("%1M").arg(b / m);
        if (b > 0 && b % k == 0)
            return QStringLiteral("%1K").arg(b / k);
        return QString::number(b);
    }
    case FieldType::Duration: {
        const qint64 s = value.toLongLong();
        if (s > 0 && s % 3600 == 0)
            return QStringLiteral("%1h").arg(s / 3600);
        if (s > 0 && s % 60 == 0)
            return QStringLiteral("%1m").arg(s / 60);
        return QString::number(s);
    }
    case FieldType::Boolean: return value.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    case FieldType::Number: return QString::number(value.toDouble());
    default: return value.toString();
    }
}

} // namespace sandbar::ui
