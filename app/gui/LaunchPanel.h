// The launch panel: block and grid sizes ("auto" or given), dynamic shared memory, the totals they make,
// what is wrong with them on the current backend, the occupancy they reach and a drawing of the grid over
// the first array. The main window feeds it the device, the kernel's attributes and the array's shape,
// and stores the launch it emits into the playground.
#pragma once

#include "core/cuda/Device.h"
#include "core/cuda/Kernel.h"
#include "core/launch/LaunchGeometry.h"
#include "core/model/Playground.h"

#include <QStringList>
#include <QWidget>
#include <array>
#include <optional>
#include <vector>

class GridDrawing;
class QCheckBox;
class QLabel;
class QSpinBox;

class LaunchPanel : public QWidget {
    Q_OBJECT
public:
    explicit LaunchPanel(QWidget* parent = nullptr);

    // Shows `launch` without emitting launchChanged.
    void setLaunch(const kp::model::LaunchSpec& launch);
    kp::model::LaunchSpec launch() const;
    // The grid and block that run, with "auto" worked out from the data shape.
    kp::launch::LaunchGeometry geometry() const;
    QString summary() const; // "grid 4×1×1, block 256×1×1": what a student usually changes between runs

    // What the launch is checked against: LaunchLimits::of(device) or LaunchLimits::cpu().
    void setLimits(const kp::launch::LaunchLimits& limits);
    // The device that runs the kernel, none on the CPU backend: occupancy needs it.
    void setDevice(std::optional<kp::cuda::DeviceProperties> device);
    // The compiled kernel's registers and static shared memory, none until it is compiled.
    void setKernelAttributes(std::optional<kp::cuda::KernelAttributes> attributes);
    // The kernel's array arguments in order (none: it takes no array). "auto" covers the first; the
    // drawing and its caption lay the grid over the first with an auto grid, else over the largest, the
    // one a kernel's threads most likely index (a reduction's input, not its one-element total).
    struct DataArray {
        QString name;
        kp::model::Shape shape;
    };
    void setArrays(std::vector<DataArray> arrays);
    void setDataShape(const kp::model::Shape& shape) { setArrays({DataArray{QString(), shape}}); }
    // The array the drawing is laid over; null when the kernel takes none.
    const DataArray* laidOver() const;
    // Whether the kernel loops over its data with the grid as the stride (it reads gridDim): then every
    // element is reached whatever the grid, and the caption and drawing say so.
    void setGridStride(bool gridStride);
    bool gridStride() const { return gridStride_; }

    // Every problem of the launch, one sentence each starting with its JSON path ("launch.block: ...").
    QStringList problems() const { return problems_; }
    // "Occupancy 50%: 32 of 64 warps per SM, 4 blocks of 256 threads; registers: ...".
    QString occupancyText() const;
    // "24 idle threads (2.3%)", and the data no thread reaches if any (for a grid-stride kernel, how many
    // elements each thread takes); empty without an array.
    QString idleText() const;
    // "256 threads = 8 warps per block; 4 blocks, 1024 threads, 32 warps in all".
    QString totalsText() const;

    // The fields, for tests: axis 0, 1, 2 is x, y, z.
    QSpinBox* blockSpin(int axis) const { return block_[std::size_t(axis)]; }
    QSpinBox* gridSpin(int axis) const { return grid_[std::size_t(axis)]; }
    QCheckBox* autoGridBox() const { return autoGrid_; }
    QSpinBox* sharedSpin() const { return shared_; }
    QLabel* problemsLabel() const { return problemsLabel_; }
    GridDrawing* drawing() const { return drawing_; }

signals:
    // After each edit by the user (a value typed or stepped, "auto" toggled); never for set*() calls.
    void launchChanged(const kp::model::LaunchSpec& launch);

private:
    void userEdited();
    void showSpec();
    void refresh();
    void markProblemFields();

    kp::model::LaunchSpec spec_;
    kp::launch::LaunchLimits limits_ = kp::launch::LaunchLimits::cpu();
    std::optional<kp::cuda::DeviceProperties> device_;
    std::optional<kp::cuda::KernelAttributes> attributes_;
    std::vector<DataArray> arrays_;
    kp::model::Shape shape_; // the first array's: what "auto" covers
    bool gridStride_ = false;
    QStringList problems_;
    bool showing_ = false; // set while the fields are filled from spec_: their signals are not edits

    std::array<QSpinBox*, 3> block_{};
    std::array<QSpinBox*, 3> grid_{};
    QCheckBox* autoGrid_;
    QSpinBox* shared_;
    QLabel* totalsLabel_;
    QLabel* problemsLabel_;
    QLabel* occupancyLabel_;
    GridDrawing* drawing_;
    QLabel* idleLabel_;
};
