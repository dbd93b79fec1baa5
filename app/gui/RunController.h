// What a window asks of the worker processes: compiling as you type, runs, sweeps and the compiled code,
// each through a WorkerTask of its own. Every worker request is built and every answer read here; the
// answers go out as typed signals that MainWindow connects to the panels.
#pragma once

#include "WorkerTask.h"
#include "core/cuda/Device.h"
#include "core/cuda/Kernel.h"
#include "core/launch/LaunchGeometry.h"
#include "core/launch/RunResult.h"
#include "core/model/Diagnostic.h"
#include "core/model/KernelSignature.h"
#include "core/run/Check.h"
#include "core/run/SweepResult.h"

#include <QObject>
#include <functional>
#include <memory>
#include <optional>

class BackendChooser;
class PlaygroundDocument;

class RunController : public QObject {
    Q_OBJECT
public:
    // "The kernel did not compile", "The kernel crashed": the first words of a failed run's message.
    static QString outcomeHeading(kp::worker::Outcome outcome);
    // Where this machine has no sandbox: asked before code from a file the user did not write runs
    // unconfined.
    enum class UnsandboxedAnswer { Cancel, RunOnce, RunAndRemember };
    using UnsandboxedQuestion = std::function<UnsandboxedAnswer(const QString& why)>;
    struct RunSettings {
        int repeat = 1;
        bool checkBounds = false;            // the CPU backend only
        kp::launch::LaunchGeometry geometry; // as the launch panel shows it, for the log
    };
    struct CodeSettings {
        QString arch; // empty: the GPU's own, or sm_90 without one
        bool lineInfo = true;
    };
    // A run that ended well. Its arrays are moved out by the one view that shows them.
    struct Ran {
        kp::launch::NamedArrays outputs, referenceOutputs;
        kp::model::CheckSpec check;  // the playground's, for each output's tolerance
        nlohmann::json report;       // timings.json (project-format.md)
        std::optional<double> flops; // the sweep's FLOPs formula at the swept array's size, when given
    };

    // The playground comes from `document`, the backend from `backends`; `window` parents the questions.
    RunController(PlaygroundDocument* document, const BackendChooser* backends, QWidget* window);

    // Parses the text and fits the panels to its kernel, from `arguments` (empty: the panel's own); a
    // program's arguments are shown as its own parameter list (model::programSignature).
    void parse(const std::vector<kp::model::ArgumentSpec>& arguments = {});
    // Parses and compiles the text for its problems; the compiled code too, when one is in view.
    void compile(const std::optional<CodeSettings>& code = {});
    bool compiling() const { return inspectId_ != 0; }
    void compileCode(const CodeSettings& code);
    bool compilingCode() const { return codeId_ != 0; }

    bool startRun(const RunSettings& settings); // false while a run is in progress
    void stopRun();
    bool running() const { return runId_ != 0; }
    // `header`: the sweep's spec and backends by name; the dock's from and to, as typed, for the log.
    bool startSweep(kp::run::SweepResult header, const QString& from, const QString& to);
    void stopSweep();
    bool sweeping() const { return sweepId_ != 0; }
    void stopAll();

    void backendChanged();
    double timeLimit() const { return timeLimitSeconds_; }
    void setTimeLimit(double seconds) { timeLimitSeconds_ = seconds; }
    void setUnsandboxedQuestion(UnsandboxedQuestion ask) { askUnsandboxed_ = std::move(ask); }

signals:
    void kernelFound(const kp::model::KernelSignature& kernel,
                     const std::vector<kp::model::ArgumentSpec>& arguments, bool readsGridDim);
    void kernelMissing(const QString& why);
    // Every __global__ function of the text, after each parse: a program's launch steps choose among them.
    void kernelsParsed(const std::vector<kp::model::KernelSignature>& kernels);
    void problemsFound(const std::vector<kp::model::Diagnostic>& problems);
    void limitsKnown(const kp::launch::LaunchLimits& limits);
    void deviceKnown(std::optional<kp::cuda::DeviceProperties> device);
    void devicePeakKnown(double bandwidthGBs, double gflops);
    void kernelAttributesKnown(std::optional<kp::cuda::KernelAttributes> attributes);
    void compiled(int problems); // errors and warnings
    void compiledCode(const kp::run::CompiledCode& code);
    void compiledCodeFailed(const QString& why);
    void compiledCodeShown(bool ok);
    void runningChanged(bool running);
    void ran(const std::shared_ptr<Ran>& run);
    void runFailed(bool compileError);
    // A failed run's message as the worker gave it (a program's names the step: "steps[2]...").
    void failedBecause(const QString& message);
    void runFinished(bool ok);
    void sweepStarted(const kp::run::SweepResult& header, std::size_t rows);
    void sweepingChanged(bool sweeping);
    void sweepRow(const kp::run::SweepRow& row, std::size_t done, std::size_t total);
    void sweepMeasured(const kp::run::SweepResult& result);
    void sweepCutShort(const QString& message); // stopped, crashed or refused: the rows so far stay
    void sweepFinished(bool ok);
    void printed(const QString& text);                // what the kernel, compiler or runtime printed
    void stateChanged(const QString& text);           // the status bar's corner
    void message(const QString& text, int timeoutMs); // the status bar
    void logged(const QString& text);

private:
    // What every request starts from: the playground's text and the file its relative paths resolve
    // beside (untitled.kpad.json in its folder when it has no file yet).
    struct Source {
        std::string playground;
        std::string path;
    };
    Source source(const kp::model::Playground& playground) const;
    kp::worker::InspectRequest compileRequest() const; // the kernel alone, as compiling as you type sends it
    void submitCode(kp::worker::InspectRequest request, const CodeSettings& code);
    void inspected(quint64 id, const WorkerResultPtr& result);
    void codeDone(quint64 id, const WorkerResultPtr& result);
    void runDone(quint64 id, const WorkerResultPtr& result);
    void ranWell(const WorkerResultPtr& result);
    void sweepDone(quint64 id, const WorkerResultPtr& result);
    bool trusted() const;
    // After a run or sweep refused for want of a sandbox: asks, and says whether to run it again unconfined.
    bool allowUnsandboxed(const QString& why);

    PlaygroundDocument* document_;
    const BackendChooser* backends_;
    QWidget* window_;
    WorkerTask runTask_;
    WorkerTask inspectTask_;
    WorkerTask sweepTask_;  // a worker of its own: a sweep does not hold up runs or compiles
    WorkerTask codeTask_;   // a worker of its own: looking at the code does not hold up compiling as you type
    quint64 runId_ = 0;     // the run in progress, 0 when none
    quint64 inspectId_ = 0; // the newest compile asked for; answers to older ones are dropped
    quint64 sweepId_ = 0;   // the sweep in progress, 0 when none
    quint64 codeId_ = 0;    // the newest request for the compiled code, 0 when none is waiting
    std::vector<kp::model::Diagnostic> parseProblems_;
    std::vector<kp::model::Diagnostic> compileProblems_; // the last compile's, as the editor shows them
    bool faultMarked_ = false; // the editor marks the line a failed run's fault named (cleared by a good run)
    RunSettings lastRun_;
    QString runBackend_; // the backend chooser's label of the last run started ("CPU (16 threads)")
    kp::run::SweepResult lastSweep_;
    QString lastSweepFrom_, lastSweepTo_;
    double timeLimitSeconds_ = 30;
    UnsandboxedQuestion askUnsandboxed_;
    bool runUnsandboxedOnce_ = false; // the user said "run anyway" for the run or sweep about to start
};
