#include "RunController.h"

#include "BackendChooser.h"
#include "PlaygroundDocument.h"
#include "StudentWords.h"
#include "core/io/PlaygroundFile.h"
#include "core/model/SignatureParser.h"
#include "core/run/GridCoverage.h"
#include "core/run/Timing.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <algorithm>
#include <optional>

using namespace kp;

namespace {

// The line of the kernel's own source that a run's fault `message` names first ("at <code>:8" for the
// editor's text, "at walk.cu:8" for the playground's source file), as an error for the editor's marker,
// with the first sentence of `words` (the message in student words); none where it names no line of that
// source (a header's, the built-ins').
std::optional<kp::model::Diagnostic> faultDiagnostic(const QString& message, const QString& words,
                                                     const std::optional<std::string>& source) {
    QString names = QStringLiteral("<code>");
    if (source) names += QLatin1Char('|') + QRegularExpression::escape(QString::fromStdString(*source));
    const QRegularExpression at(QStringLiteral("\\bat (?:%1):(\\d+)\\b").arg(names));
    const auto match = at.match(message);
    if (!match.hasMatch()) return std::nullopt;
    QString sentence = words.section(QLatin1Char('\n'), 0, 0);
    for (const QString& end : {QStringLiteral(". "), QStringLiteral("; ")})
        if (const qsizetype cut = sentence.indexOf(end); cut > 0) sentence.truncate(cut);
    return kp::model::Diagnostic{"kernel.cu", match.captured(1).toInt(), 0,
                                 kp::model::Diagnostic::Severity::Error, sentence.toStdString()};
}

// The file a request names for a playground that has none (new, or a lone .cu file): its relative
// paths resolve in its folder.
constexpr const char* kUntitled = "untitled.kpad.json";
constexpr double kCompileSeconds = 60; // compiling as you type and the compiled code: a compiler that hangs

QString fromUtf8(const std::string& text) {
    return QString::fromStdString(text);
}

// The kernel the playground names, by its base name ("scale" for "scale<float>"), else the only one.
const model::KernelSignature* chooseKernel(const model::ParseResult& parsed, const std::string& name) {
    const std::string base = name.substr(0, name.find('<'));
    if (const auto* kernel = model::findKernel(parsed, base)) return kernel;
    return parsed.kernels.size() == 1 ? &parsed.kernels.front() : nullptr;
}

// A run's floating-point operations: the sweep's FLOPs formula at the swept array's size, when the
// playground gives one; then the timings show its GFLOP/s against the device's peak.
std::optional<double> flopsOf(const model::Playground& playground) {
    try {
        const auto spec = run::storedSweepSpec(playground);
        if (!spec || spec->flops.empty()) return std::nullopt;
        for (const auto& arg : playground.args)
            if (arg.isArray() && (spec->array.empty() || arg.name == spec->array))
                return run::evaluateFlops(spec->flops,
                                          static_cast<double>(model::elementCount(arg.array().shape)));
    } catch (const InputError&) {
        // A formula that does not evaluate is said where it is edited (the Sweep dock); a run shows no
        // GFLOP/s.
    }
    return std::nullopt;
}

// What the plots need before a sweep's first row besides its spec and backends: the swept array, the kernel.
void completeHeader(run::SweepResult& header, const model::Playground& playground) {
    header.title = playground.title;
    header.kernel = playground.kernel;
    for (const auto& arg : playground.args)
        if (arg.isArray() && (header.spec.array.empty() || arg.name == header.spec.array)) {
            header.array = arg.name;
            return;
        }
}

std::string joined(const std::vector<std::string>& ids) {
    std::string text;
    for (const auto& id : ids)
        text += (text.empty() ? "" : ", ") + id;
    return text;
}

} // namespace

RunController::RunController(PlaygroundDocument* document, const BackendChooser* backends, QWidget* window)
    : QObject(window), document_(document), backends_(backends), window_(window) {
    connect(&runTask_, &WorkerTask::finished, this, &RunController::runDone);
    connect(&inspectTask_, &WorkerTask::finished, this, &RunController::inspected);
    connect(&sweepTask_, &WorkerTask::finished, this, &RunController::sweepDone);
    connect(&codeTask_, &WorkerTask::finished, this, &RunController::codeDone);
}

// ---- requests

RunController::Source RunController::source(const model::Playground& playground) const {
    // Relative .npy files and the reference resolve beside the playground file.
    return {io::serializePlayground(playground), document_->playgroundPath().isEmpty()
                                                     ? (playground.folder / kUntitled).string()
                                                     : document_->playgroundPath().toStdString()};
}

worker::InspectRequest RunController::compileRequest() const {
    auto playground = document_->current();
    // Only the kernel is compiled: arguments the user is still typing (and what refers to them) do not
    // matter. A program's do: its steps name its kernels' instances from them.
    if (!playground.isProgram()) playground.args.clear();
    playground.check.reset();
    playground.reference.reset();
    Source from = source(playground);
    return {std::move(from.playground), std::move(from.path), backends_->backend()};
}

bool RunController::trusted() const {
    return runUnsandboxedOnce_ || document_->isTrusted();
}

bool RunController::allowUnsandboxed(const QString& why) {
    const QString file = document_->currentFile();
    const auto answer = [&] {
        if (askUnsandboxed_) return askUnsandboxed_(why);
        QMessageBox box(QMessageBox::Warning, tr("No sandbox on this machine"),
                        tr("%1 did not run: %2\n\nRun it anyway, with access to your files and the network?")
                            .arg(file.isEmpty() ? tr("The playground") : file, why),
                        QMessageBox::Cancel, window_);
        auto* once = box.addButton(tr("Run Anyway"), QMessageBox::AcceptRole);
        auto* always = box.addButton(tr("Always Run This File"), QMessageBox::AcceptRole);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        return box.clickedButton() == always ? UnsandboxedAnswer::RunAndRemember
               : box.clickedButton() == once ? UnsandboxedAnswer::RunOnce
                                             : UnsandboxedAnswer::Cancel;
    }();
    if (answer == UnsandboxedAnswer::Cancel) {
        emit logged(tr("Not run without the sandbox, as you chose."));
        return false;
    }
    if (answer == UnsandboxedAnswer::RunAndRemember) document_->trust();
    runUnsandboxedOnce_ = true;
    return true;
}

// ---- compiling as you type

void RunController::parse(const std::vector<model::ArgumentSpec>& arguments) {
    const auto current = document_->current();
    const std::string text = current.code.value_or(std::string());
    const auto parsed = model::parseKernels(text, "kernel.cu");
    parseProblems_ = parsed.problems;
    emit kernelsParsed(parsed.kernels);
    if (current.isProgram()) {
        // A program's arguments are its own: the panel edits them as the parameters of its reference.
        auto playground = current;
        if (!arguments.empty()) playground.args = arguments;
        emit kernelFound(model::programSignature(playground), arguments, false);
        return;
    }
    const std::string& name = document_->playground().kernel;
    const auto* kernel = chooseKernel(parsed, name);
    if (!kernel) {
        QString known;
        for (const auto& k : parsed.kernels)
            known += (known.isEmpty() ? "" : ", ") + fromUtf8(k.name);
        const QString why =
            parsed.kernels.empty()
                ? tr("No __global__ function in the text yet.")
                : tr("The playground runs \"%1\", which the text no longer declares (it declares %2).")
                      .arg(fromUtf8(name), known);
        emit kernelMissing(why);
        parseProblems_.push_back({"kernel.cu", 0, 0, model::Diagnostic::Severity::Error, why.toStdString()});
        return;
    }
    if (name.substr(0, name.find('<')) != kernel->name) document_->renameKernel(kernel->name);
    emit kernelFound(*kernel, arguments, run::readsGridDim(text, kernel->line));
}

void RunController::compile(const std::optional<CodeSettings>& code) {
    parse();
    emit kernelAttributesKnown(std::nullopt); // stale until the compile answers
    worker::InspectRequest request = compileRequest();
    // The compiled code in view follows the text.
    if (code) submitCode(request, *code);
    inspectId_ = inspectTask_.submit({std::move(request), kCompileSeconds}, true);
    emit stateChanged(tr("Compiling..."));
}

void RunController::inspected(quint64 id, const WorkerResultPtr& result) {
    if (id != inspectId_) return; // an older text's answer
    inspectId_ = 0;
    std::vector<model::Diagnostic> all = parseProblems_;
    all.insert(all.end(), result->diagnostics.begin(), result->diagnostics.end());
    if (!result->ok() && result->outcome != worker::Outcome::Compile && !result->message.empty())
        all.push_back({"kernel.cu", 0, 0, model::Diagnostic::Severity::Error, result->message});
    compileProblems_ = all;
    faultMarked_ = false;
    emit problemsFound(all);
    if (const auto& inspection = result->inspection) {
        emit limitsKnown(inspection->limits);
        emit deviceKnown(inspection->device);
        emit kernelAttributesKnown(inspection->attributes);
        if (inspection->device)
            emit devicePeakKnown(inspection->device->peakBandwidthGBs(), inspection->device->peakGflops());
    }
    using Severity = model::Diagnostic::Severity;
    const int errors = static_cast<int>(
        std::count_if(all.begin(), all.end(), [](const auto& d) { return d.severity == Severity::Error; }));
    const int notes = static_cast<int>(
        std::count_if(all.begin(), all.end(), [](const auto& d) { return d.severity == Severity::Note; }));
    const int warnings = static_cast<int>(all.size()) - errors - notes; // as the Problems list counts them
    emit stateChanged(errors == 1     ? tr("Does not compile: 1 error (see Problems)")
                      : errors        ? tr("Does not compile: %L1 errors (see Problems)").arg(errors)
                      : warnings == 1 ? tr("Compiled, with 1 warning (see Problems)")
                      : warnings      ? tr("Compiled, with %L1 warnings (see Problems)").arg(warnings)
                                      : tr("Compiled"));
    emit compiled(errors + warnings);
}

void RunController::compileCode(const CodeSettings& code) {
    submitCode(compileRequest(), code);
}

void RunController::submitCode(worker::InspectRequest request, const CodeSettings& code) {
    // arch empty: the GPU's own, or sm_90 without one
    worker::DisassembleRequest disassemble{std::move(request.playground), std::move(request.path),
                                           code.arch.toStdString(), code.lineInfo};
    codeId_ = codeTask_.submit({std::move(disassemble), kCompileSeconds}, true);
}

void RunController::codeDone(quint64 id, const WorkerResultPtr& result) {
    if (id != codeId_) return; // an older text's answer
    codeId_ = 0;
    const auto error =
        std::find_if(result->diagnostics.begin(), result->diagnostics.end(), [](const model::Diagnostic& d) {
            return d.severity == model::Diagnostic::Severity::Error;
        });
    if (result->compiledCode) {
        emit compiledCode(*result->compiledCode);
    } else if (!result->message.empty()) {
        emit compiledCodeFailed(fromUtf8(result->message));
    } else if (error != result->diagnostics.end()) {
        // Shown as "Not compiled: %1" (CompiledCodeView).
        emit compiledCodeFailed(tr("%1 (see Problems for every error).").arg(fromUtf8(error->message)));
    } else {
        emit compiledCodeFailed(tr("see Problems for why."));
    }
    emit compiledCodeShown(result->compiledCode.has_value());
}

void RunController::backendChanged() {
    if (const auto device = backends_->device()) {
        emit limitsKnown(launch::LaunchLimits::of(*device));
        emit deviceKnown(device);
        emit devicePeakKnown(device->peakBandwidthGBs(), device->peakGflops());
    } else {
        emit limitsKnown(launch::LaunchLimits::cpu());
        emit deviceKnown(std::nullopt);
        emit devicePeakKnown(0, 0);
    }
    emit kernelAttributesKnown(std::nullopt);
}

// ---- runs

bool RunController::startRun(const RunSettings& settings) {
    if (runId_ != 0) return false;
    lastRun_ = settings;
    Source from = source(document_->current());
    worker::RunRequest request{std::move(from.playground), std::move(from.path), backends_->backend()};
    request.trusted = trusted();
    request.repeat = settings.repeat;
    request.warmup = request.backend.isCpu() ? 0 : 1;
    request.checkBounds = settings.checkBounds && request.backend.isCpu();
    runUnsandboxedOnce_ = false;
    runId_ = runTask_.submit({request, timeLimitSeconds_});
    runBackend_ = backends_->currentText();
    emit stateChanged(tr("Running on %1...").arg(runBackend_));
    if (document_->current().isProgram())
        emit logged(tr("Running the program on %1; timed runs: %2").arg(runBackend_).arg(request.repeat));
    else
        emit logged(tr("Running %1 on %2, %3; timed runs: %4")
                        .arg(fromUtf8(document_->playground().kernel), runBackend_,
                             fromUtf8(launch::toString(settings.geometry)))
                        .arg(request.repeat));
    emit runningChanged(true);
    return true;
}

void RunController::stopRun() {
    if (runId_ == 0) return;
    runTask_.stop();
    emit stateChanged(tr("Stopping..."));
}

void RunController::stopAll() {
    runTask_.stop();
}

void RunController::runDone(quint64 id, const WorkerResultPtr& result) {
    if (id != runId_) return;
    runId_ = 0;
    emit runningChanged(false);
    if (!result->output.empty()) emit printed(fromUtf8(result->output).trimmed());
    if (result->outcome == worker::Outcome::NoSandbox && allowUnsandboxed(fromUtf8(result->message))) {
        startRun(lastRun_);
        return;
    }
    if (result->ok()) {
        ranWell(result);
        return;
    }
    const QString message = inStudentWords(fromUtf8(result->message));
    emit failedBecause(fromUtf8(result->message));
    emit logged(tr("%1: %2").arg(outcomeHeading(result->outcome), message));
    emit stateChanged(tr("Run failed"));
    emit this->message(message.section(QLatin1Char('\n'), 0, 0), 10000);
    const bool compileError = result->outcome == worker::Outcome::Compile;
    if (compileError) {
        auto all = parseProblems_;
        all.insert(all.end(), result->diagnostics.begin(), result->diagnostics.end());
        emit problemsFound(all);
    } else if (result->outcome == worker::Outcome::Fault) {
        // An out-of-bounds access, a warp operation's misuse: marked on its line, as a compile error is.
        if (const auto fault =
                faultDiagnostic(fromUtf8(result->message), message, document_->playground().source)) {
            auto all = compileProblems_; // its warnings stay marked beside the fault
            all.push_back(*fault);
            emit problemsFound(all);
            faultMarked_ = true;
        }
    }
    emit runFailed(compileError);
    emit runFinished(false);
}

QString RunController::outcomeHeading(worker::Outcome outcome) {
    switch (outcome) {
    case worker::Outcome::Ok:
        return tr("Ran");
    case worker::Outcome::Input:
        return tr("The playground cannot run");
    case worker::Outcome::Setup:
        return tr("The arguments or the launch do not fit the kernel");
    case worker::Outcome::Compile:
        return tr("The kernel did not compile");
    case worker::Outcome::Fault:
        return tr("The kernel failed while running");
    case worker::Outcome::Crash:
        return tr("The kernel crashed");
    case worker::Outcome::TimedOut:
        return tr("Stopped at the time limit");
    case worker::Outcome::Stopped:
        return tr("Stopped");
    case worker::Outcome::OutOfMemory:
        return tr("Out of memory");
    case worker::Outcome::Worker:
        return tr("CUDA or Kernelpad reported an error");
    case worker::Outcome::NoSandbox:
        return tr("Not run without a sandbox");
    }
    return {};
}

void RunController::ranWell(const WorkerResultPtr& result) {
    if (faultMarked_) { // the last run's fault is gone (bounds checking turned off, say): so is its marker
        faultMarked_ = false;
        emit problemsFound(compileProblems_);
    }
    const auto& report = result->report;
    const auto playground = document_->current();
    const auto checkSpec = playground.check.value_or(model::CheckSpec{});
    auto run = std::make_shared<Ran>(Ran{std::move(result->outputs), std::move(result->referenceOutputs),
                                         checkSpec, report, flopsOf(playground)});
    emit ran(run);
    const auto& timings = result->timings;
    QString checkText = tr("not checked: this playground has no reference function, so a run on the CPU has "
                           "nothing to compare with");
    if (timings.checkPassed)
        checkText =
            *timings.checkPassed ? tr("check passed") : tr("check failed: the outputs differ (see Results)");
    if (!timings.uncheckedBecause.empty())
        checkText = tr("not checked: %1").arg(fromUtf8(timings.uncheckedBecause));
    // The backend as the chooser named it when the run started (the core's name is "cpu (16 threads)").
    const QString backend = runBackend_.isEmpty() ? fromUtf8(timings.backend) : runBackend_;
    const QString kernelTime = fromUtf8(run::formatDuration(launch::median(timings.kernelMs)));
    const auto timedRuns = static_cast<qulonglong>(timings.kernelMs.size());
    const QString subject = timings.steps.empty() ? tr("the kernel") : tr("the program");
    // How the threads ran ("threads of a block run as loops ..."), as a sentence of its own.
    QString execution = fromUtf8(result->execution);
    if (!execution.isEmpty()) {
        execution[0] = execution[0].toUpper();
        if (!execution.endsWith(QLatin1Char('.'))) execution += QLatin1Char('.');
    }
    emit logged(timedRuns == 1 ? tr("%1: %2 took %3 (1 timed run), %4. %5")
                                     .arg(backend, subject, kernelTime, checkText, execution)
                               : tr("%1: %2 took %3 (median of %L4 timed runs), %5. %6")
                                     .arg(backend, subject, kernelTime)
                                     .arg(timedRuns)
                                     .arg(checkText, execution));
    emit stateChanged(tr("Ran in %1 s, %2")
                          .arg(result->seconds, 0, 'f', 2)
                          .arg(timings.checkPassed ? checkText : tr("not checked")));
    emit runFinished(true);
}

// ---- sweeps

bool RunController::startSweep(run::SweepResult header, const QString& from, const QString& to) {
    if (sweepId_ != 0) return false;
    lastSweep_ = header;
    lastSweepFrom_ = from;
    lastSweepTo_ = to;
    const auto playground = document_->current();
    const auto& spec = header.spec;
    Source sent = source(playground);
    worker::WorkerRequest request{
        worker::SweepRequest{std::move(sent.playground), std::move(sent.path), spec, trusted()}};
    runUnsandboxedOnce_ = false;
    // Rows come on the worker thread: handed on on the GUI thread, if this is still there.
    QPointer<RunController> self = this;
    request.onSweepRow = [self](const run::SweepRow& row, std::size_t done, std::size_t total) {
        QMetaObject::invokeMethod(
            self,
            [self, row, done, total] {
                if (self) emit self->sweepRow(row, done, total);
            },
            Qt::QueuedConnection);
    };
    completeHeader(header, playground);
    emit sweepStarted(header, run::sweepValues(spec).size() * spec.backends.size());
    sweepId_ = sweepTask_.submit(std::move(request));
    emit sweepingChanged(true);
    emit logged(tr("Sweep of %1: %2 from %3 to %4 on %5")
                    .arg(fromUtf8(playground.kernel), fromUtf8(header.parameterLabel()))
                    .arg(from, to, fromUtf8(joined(spec.backends))));
    return true;
}

void RunController::stopSweep() {
    if (sweepId_ != 0) sweepTask_.stop();
}

void RunController::sweepDone(quint64 id, const WorkerResultPtr& result) {
    if (id != sweepId_) return;
    sweepId_ = 0;
    emit sweepingChanged(false);
    // Rows still queued arrive before this (same queue), so the dock's result has them all.
    QCoreApplication::sendPostedEvents(this);
    if (result->outcome == worker::Outcome::NoSandbox && allowUnsandboxed(fromUtf8(result->message))) {
        startSweep(lastSweep_, lastSweepFrom_, lastSweepTo_);
        return;
    }
    if (result->ok() && result->sweep) {
        emit sweepMeasured(*result->sweep);
        for (const auto& c : run::crossovers(*result->sweep))
            emit logged(fromUtf8(run::describe(c, *result->sweep)));
        const auto measurements = static_cast<qulonglong>(result->sweep->rows.size());
        emit logged(measurements == 1
                        ? tr("Sweep finished: 1 measurement in %1 s").arg(result->seconds, 0, 'f', 1)
                        : tr("Sweep finished: %L1 measurements in %2 s")
                              .arg(measurements)
                              .arg(result->seconds, 0, 'f', 1));
    } else {
        QString message = fromUtf8(result->message);
        if (result->outcome == worker::Outcome::Compile)
            message = tr("Not swept: the kernel does not compile (see Problems).");
        emit sweepCutShort(message);
        emit logged(tr("Sweep: %1").arg(fromUtf8(result->message)));
    }
    emit sweepFinished(result->ok());
}
