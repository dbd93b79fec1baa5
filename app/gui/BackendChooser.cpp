#include "BackendChooser.h"

#include "core/Cores.h"
#include "core/Error.h"
#include "core/cuda/Driver.h"

#include <QStandardItemModel>
#include <thread>

BackendChooser::BackendChooser(QWidget* parent) : QComboBox(parent) {
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // Querying devices loads the driver but creates no context: cheap, and safe in the app's process.
    try {
        if (!kp::cuda::Driver::available())
            throw kp::cuda::Unavailable(kp::cuda::Driver::unavailableReason());
        for (const auto& device : kp::cuda::Device::all())
            devices_.push_back(device.properties());
        if (devices_.empty()) cudaUnavailable_ = tr("no NVIDIA GPU was found on this computer");
    } catch (const std::exception& e) {
        cudaUnavailable_ = QString::fromUtf8(e.what());
    }
    for (const auto& d : devices_)
        addItem(tr("CUDA %1: %2").arg(d.ordinal).arg(QString::fromStdString(d.name)),
                QStringLiteral("cuda:%1").arg(d.ordinal));
    addItem(tr("CPU (%1 threads)").arg(kp::usableCores()), QStringLiteral("cpu"));
    if (!cudaUnavailable_.isEmpty()) {
        addItem(tr("CUDA unavailable"), QString());
        auto* items = qobject_cast<QStandardItemModel*>(model());
        auto* item = items->item(count() - 1);
        item->setEnabled(false);
        item->setToolTip(cudaUnavailable_);
        setItemData(count() - 1, cudaUnavailable_, Qt::ToolTipRole);
    }
    setCurrentIndex(0);
    setToolTip(cudaUnavailable_.isEmpty() ? tr("Where the kernel runs")
                                          : tr("CUDA is unavailable here: %1").arg(cudaUnavailable_));
}

kp::run::Backend BackendChooser::backend() const {
    // Every enabled entry holds a backend's id: the disabled "CUDA unavailable" one is never current.
    try {
        return kp::run::parseRunBackend(currentData().toString().toStdString());
    } catch (const kp::InputError&) {
        return kp::run::Backend::cpu();
    }
}

bool BackendChooser::setBackend(const kp::run::Backend& backend) {
    const int index = findData(QString::fromStdString(backend.id()));
    if (index < 0) return false;
    setCurrentIndex(index);
    return true;
}

bool BackendChooser::setBackend(const QString& id) {
    try {
        return setBackend(kp::run::parseRunBackend(id.toStdString()));
    } catch (const kp::InputError&) {
        return false;
    }
}

std::optional<kp::cuda::DeviceProperties> BackendChooser::device() const {
    const auto b = backend();
    if (!b.isCuda()) return std::nullopt;
    for (const auto& d : devices_)
        if (d.ordinal == b.ordinal) return d;
    return std::nullopt;
}
