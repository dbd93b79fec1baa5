// The backend chooser in the toolbar: each CUDA device by name, and the CPU backend, which is always
// there. Where CUDA cannot be used, a disabled entry says why (no driver, no device), so a classroom
// without NVIDIA GPUs sees the reason instead of a failure.
#pragma once

#include "core/cuda/Device.h"
#include "core/run/Backend.h"

#include <QComboBox>
#include <optional>
#include <vector>

class BackendChooser : public QComboBox {
    Q_OBJECT
public:
    explicit BackendChooser(QWidget* parent = nullptr);

    // The CPU backend or a CUDA device.
    kp::run::Backend backend() const;
    // Selects `backend` when it is there; false otherwise (the selection stays).
    bool setBackend(const kp::run::Backend& backend);
    // The same by its id ("cpu", "cuda:0": settings, tests); false for an id that is not a backend.
    bool setBackend(const QString& id);
    // The chosen device's properties; none for the CPU backend.
    std::optional<kp::cuda::DeviceProperties> device() const;
    // Why there is no CUDA backend here, empty when there is one.
    QString cudaUnavailableReason() const { return cudaUnavailable_; }

private:
    std::vector<kp::cuda::DeviceProperties> devices_;
    QString cudaUnavailable_;
};
