#pragma once

#include "costs/CostModel.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace sandbar::ui {

// The month of use the compare view prices. Emits workloadChanged only for a workload that
// validateWorkload accepts; otherwise it shows the problem under the fields.
class WorkloadForm final : public QWidget
{
    Q_OBJECT
public:
    // gpuTypes: the GPU types the catalog knows, offered in the GPU combo.
    explicit WorkloadForm(const QStringList &gpuTypes, QWidget *parent = nullptr);

    costs::Workload workload() const;
    void setWorkload(const costs::Workload &w);
    QString errorText() const;

Q_SIGNALS:
    void workloadChanged(const sandbar::costs::Workload &workload);

private:
    void onEdited();

    QDoubleSpinBox *m_vcpus;
    QDoubleSpinBox *m_memory;
    QDoubleSpinBox *m_hours;
    QSpinBox *m_busy;
    QDoubleSpinBox *m_sessionHours;
    QDoubleSpinBox *m_storage;
    QComboBox *m_gpuType;
    QSpinBox *m_gpuCount;
    QDoubleSpinBox *m_idleHours;
    QSpinBox *m_sessions;
    QDoubleSpinBox *m_egress;
    QCheckBox *m_freeCredit;
    QLabel *m_error;
    bool m_loading = false;
};

} // namespace sandbar::ui
