// The argument panel: one ArgumentEditor per parameter of the kernel, rebuilt from its signature after
// each successful parse (core/model/ArgumentFit keeps what the user set when the change is compatible).
// PlaygroundDocument reads arguments() into the playground before a run.
#pragma once

#include "ArgumentEditor.h"
#include "core/model/KernelSignature.h"
#include "core/model/Playground.h"

#include <QWidget>
#include <utility>
#include <vector>

class QLabel;
class QVBoxLayout;

class ArgumentPanel : public QWidget {
    Q_OBJECT
public:
    explicit ArgumentPanel(QWidget* parent = nullptr);

    // Fits `current` (the playground's arguments, or what the panel holds) to `kernel` and shows them.
    // With `current` empty, editors are rebuilt only when the parameters changed, so typing in the code
    // does not disturb them.
    void setKernel(const kp::model::KernelSignature& kernel,
                   const std::vector<kp::model::ArgumentSpec>& current, const std::filesystem::path& folder);
    // No kernel to show (none parsed yet): says why, keeps the last arguments for when it comes back.
    void setUnavailable(const QString& why);

    std::vector<kp::model::ArgumentSpec> arguments() const;
    // Every array argument's name and shape, in order: the launch's data.
    std::vector<std::pair<QString, kp::model::Shape>> arrayShapes() const;
    // Every field's problem, "args[1] a: shape: ..."; empty when the arguments can be run.
    QStringList problems() const;
    ArgumentEditor* editorFor(const QString& name) const;
    int count() const { return static_cast<int>(editors_.size()); }

signals:
    void argumentsChanged(); // the user edited a field

private:
    QVBoxLayout* list_;
    QLabel* status_;
    std::vector<ArgumentEditor*> editors_;
    std::vector<kp::model::Parameter> parameters_;
    std::vector<kp::model::ArgumentSpec> kept_; // the arguments while no kernel is shown
};
