#include "compare/WorkloadForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>

namespace sandbar::ui {

namespace {

QDoubleSpinBox *number(QWidget *parent, double max, double step, int decimals, const QString &suffix)
{
    auto *s = new QDoubleSpinBox(parent);
    s->setRange(0, max);
    s->setSingleStep(step);
    s->setDecimals(decimals);
    s->setSuffix(suffix);
    s->setAccelerated(true);
    s->setKeyboardTracking(false); // price once per typed number, not at every digit
    return s;
}

} // namespace

WorkloadForm::WorkloadForm(const QStringList &gpuTypes, QWidget *parent)
    : QWidget(parent)
{
    // vCPUs may be set to 0 so that the form can say why that is not a workload.
    m_vcpus = number(this, 256, 0.5, 2, {});
    m_memory = number(this, 2048, 1, 2, tr(" GiB"));
    m_hours = number(this, 744, 10, 1, tr(" h"));
    m_busy = new QSpinBox(this);
    m_busy->setRange(0, 100);
    m_busy->setSuffix(tr(" %"));
    m_busy->setKeyboardTracking(false);
    m_sessionHours = number(this, 744, 1, 2, tr(" h"));
    m_sessionHours->setSpecialValueText(tr("from sessions"));
    m_sessionHours->setToolTip(tr("Length of one session; when 0, the running hours divided by sessions a month"));
    m_storage = number(this, 100000, 5, 1, tr(" GiB"));
    m_gpuType = new QComboBox(this);
    m_gpuType->addItem(tr("none"), QString());
    for (const auto &t : gpuTypes)
        m_gpuType->addItem(t, t);
    m_gpuCount = new QSpinBox(this);
    m_gpuCount->setAccessibleName(tr("GPU count"));
    m_gpuCount->setRange(1, 64);
    m_gpuCount->setPrefix(tr("× "));
    m_idleHours = number(this, 744, 10, 1, tr(" h"));
    m_idleHours->setToolTip(tr("Hours a month the sandbox exists while nobody uses it"));
    m_sessions = new QSpinBox(this);
    m_sessions->setRange(0, 1000000);
    m_sessions->setKeyboardTracking(false);
    m_egress = number(this, 1000000, 10, 1, tr(" GB"));
    m_freeCredit = new QCheckBox(tr("Apply free credit"), this);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("workloadError"));
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->setWordWrap(true);
    m_error->hide();

    auto *gpuRow = new QWidget(this);
    auto *gpuLayout = new QHBoxLayout(gpuRow);
    gpuLayout->setContentsMargins(0, 0, 0, 0);
    gpuLayout->addWidget(m_gpuType, 1);
    gpuLayout->addWidget(m_gpuCount);

    // Four label/field pairs a row keeps the form to three lines above the results.
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    const std::pair<QString, QWidget *> fields[] = {
        {tr("vCPUs"), m_vcpus},
        {tr("Memory"), m_memory},
        {tr("Running / month"), m_hours},
        {tr("CPU busy"), m_busy},
        {tr("Session length"), m_sessionHours},
        {tr("Sessions / month"), m_sessions},
        {tr("Idle / month"), m_idleHours},
        {tr("Storage"), m_storage},
        {tr("GPU"), gpuRow},
        {tr("Egress / month"), m_egress},
    };
    int i = 0;
    for (const auto &[label, field] : fields) {
        auto *l = new QLabel(label, this);
        l->setBuddy(field == gpuRow ? static_cast<QWidget *>(m_gpuType) : field);
        grid->addWidget(l, i / 4, (i % 4) * 2);
        grid->addWidget(field, i / 4, (i % 4) * 2 + 1);
        ++i;
    }
    grid->addWidget(m_freeCredit, i / 4, (i % 4) * 2, 1, 2);
    grid->addWidget(m_error, 3, 0, 1, 8);
    for (int c = 1; c < 8; c += 2)
        grid->setColumnStretch(c, 1);

    costs::Workload defaults;
    defaults.vcpus = 2;
    defaults.memoryGib = 4;
    defaults.activeHours = 160;
    defaults.cpuBusy = 0.5;
    setWorkload(defaults);

    for (auto *s : {m_vcpus, m_memory, m_hours, m_sessionHours, m_storage, m_idleHours, m_egress})
        connect(s, &QDoubleSpinBox::valueChanged, this, &WorkloadForm::onEdited);
    for (auto *s : {m_busy, m_gpuCount, m_sessions})
        connect(s, &QSpinBox::valueChanged, this, &WorkloadForm::onEdited);
    connect(m_gpuType, &QComboBox::currentIndexChanged, this, &WorkloadForm::onEdited);
    connect(m_freeCredit, &QCheckBox::toggled, this, &WorkloadForm::onEdited);
}

costs::Workload WorkloadForm::workload() const
{
    costs::Workload w;
    w.vcpus = m_vcpus->value();
    w.memoryGib = m_memory->value();
    w.activeHours = m_hours->value();
    w.cpuBusy = m_busy->value() / 100.0;
    w.sessionHours = m_sessionHours->value();
    w.storageGib = m_storage->value();
    w.gpuType = m_gpuType->currentData().toString();
    w.gpuCount = w.gpuType.isEmpty() ? 0 : m_gpuCount->value();
    w.idleHours = m_idleHours->value();
    w.sessionsPerMonth = m_sessions->value();
    w.egressGb = m_egress->value();
    w.applyFreeCredit = m_freeCredit->isChecked();
    return w;
}

void WorkloadForm::setWorkload(const costs::Workload &w)
{
    m_loading = true;
    m_vcpus->setValue(w.vcpus);
    m_memory->setValue(w.memoryGib);
    m_hours->setValue(w.activeHours);
    m_busy->setValue(int(std::lround(w.cpuBusy * 100)));
    m_sessionHours->setValue(w.sessionHours);
    m_storage->setValue(w.storageGib);
    int gpu = w.gpuType.isEmpty() ? 0 : m_gpuType->findData(w.gpuType);
    if (gpu < 0) { // a type no provider lists still has to be priced (and excluded)
        m_gpuType->addItem(w.gpuType, w.gpuType);
        gpu = m_gpuType->count() - 1;
    }
    m_gpuType->setCurrentIndex(gpu);
    m_gpuCount->setValue(std::max(1, w.gpuCount));
    m_idleHours->setValue(w.idleHours);
    m_sessions->setValue(int(std::lround(w.sessionsPerMonth)));
    m_egress->setValue(w.egressGb);
    m_freeCredit->setChecked(w.applyFreeCredit);
    m_loading = false;
    onEdited();
}

QString WorkloadForm::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void WorkloadForm::onEdited()
{
    m_gpuCount->setEnabled(!m_gpuType->currentData().toString().isEmpty());
    if (m_loading)
        return;
    const costs::Workload w = workload();
    if (auto valid = costs::validateWorkload(w); !valid.ok()) {
        m_error->setText(valid.message());
        m_error->show();
        return;
    }
    m_error->clear();
    m_error->hide();
    Q_EMIT workloadChanged(w);
}

} // namespace sandbar::ui
