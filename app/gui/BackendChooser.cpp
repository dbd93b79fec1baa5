#include "BackendChooser.h"

#include "core/cuda/Driver.h"

#include <QStandardItemModel>
#include <thread>

BackendChooser::BackendChooser(QWidget* parent) : QComboBox(parent) {
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // Querying devices loads the driver but creates no context: cheap, and safe in the app's process.
    try {
        if (!kp::cuda::Driver::available()) throw kp::cuda::Unavailable(kp::cuda::Driver::unavailableReason());
        for (const auto& device : kp::cuda::Device::all()) devices_.push_back(device.properties());
        if (devices_.empty()) cudaUnavailable_ = tr("the driver reports no CUDA device");
    } catch (const std::exception& e) {
        cudaUnavailable_ = QString::fromUtf8(e.what());
    }
    for (const auto& d : devices_)
        addItem(tr("CUDA %1: %2").arg(d.ordinal).arg(QString::fromStdString(d.name)), QStringLiteral("cuda:%1").arg(d.ordinal));
    addItem(tr("CPU (%1 threads)").arg(std::max(1u, std::thread::hardware_concurrency())), QStringLiteral("cpu"));
    if (!cudaUnavailable_.isEmpty()) {
        addItem(tr("CUDA unavailable"), QString());
        auto* items = qobject_cast<QStandardItemModel*>(model());
        auto* item = items->item(count() - 1);
        item->setEnabled(false);
        item->setToolTip(cudaUnavailable_);
        setItemData(count() - 1, cudaUnavailable_, Qt::ToolTipRole);
    }
    setCurrentIndex(0);
    setToolTip(cudaUnavailable_.isEmpty() ? tr("Where the kernel runs") : tr("CUDA is unavailable here: %1").arg(cudaUnavailable_));
}

QString BackendChooser::backend() const { return currentData().toString(); }

bool BackendChooser::setBackend(const QString& backend) {
    const int index = backend.isEmpty() ? -1 : findData(backend);
    if (index < 0) return false;
    setCurrentIndex(index);
    return true;
}

std::optional<kp::cuda::DeviceProperties> BackendChooser::device() const {
    const QString b = backend();
    for (const auto& d : devices_)
        if (b == QStringLiteral("cuda:%1").arg(d.ordinal)) return d;
    return std::nullopt;
}
