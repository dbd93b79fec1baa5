// The Steps panel: a playground's program as a tree (its variables, its scratch buffers and views, and its
// steps, loops holding theirs) with the edits a student needs (add a step of any kind, duplicate, delete,
// move up and down, in and out of loops) and a form for the selected item, its fields as typed
// expressions. The plan of the program is shown as you type: how many times each step runs, and every
// problem on the step it names. A playground of one launch offers to become a program. PlaygroundDocument
// reads the program from here before a run; the edits themselves are core/model/ProgramEdit's.
#pragma once

#include "core/launch/Program.h"
#include "core/model/KernelSignature.h"
#include "core/model/Playground.h"
#include "core/model/ProgramEdit.h"

#include <QWidget>
#include <optional>
#include <vector>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

class ProgramPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProgramPanel(QWidget* parent = nullptr);

    // Shows the program of `playground`; a playground without steps shows the offer to make it a program.
    void setPlayground(const kp::model::Playground& playground);
    bool isProgram() const { return !steps_.empty(); }
    const std::vector<kp::model::Step>& steps() const { return steps_; }
    const std::vector<std::pair<std::string, std::string>>& variables() const { return variables_; }
    const std::vector<kp::model::BufferSpec>& buffers() const { return buffers_; }

    // The source's kernels: the launch form's kernel list and its parameters' names.
    void setKernels(std::vector<kp::model::KernelSignature> kernels);
    // The playground's array arguments and scalars: what a new step names.
    void setArguments(std::vector<kp::model::ArgumentSpec> arguments) { arguments_ = std::move(arguments); }
    // The program as planned (how often each step runs), or the problems that kept it from planning, each
    // marked on the step whose path it names.
    void showPlan(const std::optional<kp::launch::Program>& plan, const QStringList& problems);
    // A run that failed: the step its message names is selected and marked with the message.
    void showFailure(const QString& message);
    // Selects the step at `path` (nothing happens for a path that is not there).
    void select(const kp::model::StepPath& path);

    QTreeWidget* tree() const { return tree_; }
    QLabel* problemsLabel() const { return problems_; }
    QPushButton* makeProgramButton() const { return makeProgram_; }
    // The field of the selected item's form called `name` ("kernel", "grid.x", "args[1]", "times", ...).
    QLineEdit* field(const QString& name) const;
    // Adds a step of `kind` after the selection (inside it when it is a loop) and selects it.
    void addStep(kp::model::StepKind kind);
    void duplicateSelected();
    void removeSelected();
    void moveSelected(bool up);

signals:
    void programChanged();       // an edit in the panel
    void makeProgramRequested(); // "Make it a program" on a playground of one launch

private:
    enum class Section { Variables, Buffers, Buffer, Steps, Step };
    void rebuild(const std::optional<kp::model::StepPath>& select = {});
    void addSteps(QTreeWidgetItem* parent, const std::vector<kp::model::Step>& steps,
                  kp::model::StepPath path);
    void showSelected();
    void showStepForm(kp::model::Step& step);
    void showLaunchForm(kp::model::LaunchStep& launch);
    void showRepeatForm(kp::model::RepeatStep& repeat);
    void showBufferForm(kp::model::BufferSpec& buffer);
    void showVariablesForm();
    // A line edit in the form, named `name`, showing `value`; `apply` takes each edit.
    QLineEdit* addField(const QString& label, const QString& name, const std::string& value,
                        std::function<void(const std::string&)> apply);
    void edited(); // after a field's edit: the item's words follow, the program changed
    std::optional<kp::model::StepPath> selectedPath() const;
    QTreeWidgetItem* itemFor(const kp::model::StepPath& path) const;
    void markProblems();
    QString variablesText() const; // "Variables: block = 256", the tree's first line
    void addBuffer(bool view);
    const kp::model::LaunchStep* kernelOf(const kp::model::StepPath& path) const;
    // The source's kernel `name` (a template instance's too: "reduce<256>" is reduce), or nullptr.
    const kp::model::KernelSignature* kernelNamed(const std::string& name) const;

    QTreeWidget* tree_;
    QToolButton* add_;
    QPushButton* duplicate_;
    QPushButton* remove_;
    QPushButton* up_;
    QPushButton* down_;
    QWidget* form_ = nullptr; // the selected item's fields, rebuilt on each selection
    QFormLayout* formLayout_ = nullptr;
    QLabel* problems_;
    QWidget* offer_; // "Make it a program", for a playground of one launch
    QPushButton* makeProgram_;
    QStackedWidget* pages_;

    std::vector<kp::model::Step> steps_;
    std::vector<std::pair<std::string, std::string>> variables_;
    std::vector<kp::model::BufferSpec> buffers_;
    std::vector<kp::model::KernelSignature> kernels_;
    std::vector<kp::model::ArgumentSpec> arguments_;
    QStringList problemList_;
    std::vector<std::uint64_t> calls_; // per step, depth first, from the last plan
};
