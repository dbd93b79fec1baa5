#include "RunCommand.h"

#include "ExitCode.h"
#include "OutputFolder.h"
#include "SamplesCommand.h"
#include "core/cpu/CpuRunner.h"
#include "core/cuda/CudaError.h"
#include "core/io/FileBytes.h"
#include "core/io/NpyFile.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/CompileError.h"
#include "core/launch/KernelFault.h"
#include "core/run/CudaRunner.h"
#include "core/run/Execute.h"
#include "core/run/Reference.h"
#include "core/run/RunReport.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <thread>

namespace kp::cli {

namespace {

namespace fs = std::filesystem;

// Ends the process if the run is not over in time: a kernel on a GPU cannot be interrupted from the
// host, and the process is the unit the driver cleans up.
class Watchdog {
public:
    // `seconds` is at most kMaxTimeoutSeconds (timeoutProblem), so the deadline in microseconds fits.
    explicit Watchdog(std::optional<double> seconds) {
        if (!seconds) return;
        const auto limit = std::chrono::ceil<std::chrono::microseconds>(
            std::chrono::duration<double>(std::min(*seconds, kMaxTimeoutSeconds)));
        thread_ = std::thread([this, shown = *seconds, deadline = std::chrono::steady_clock::now() + limit] {
            std::unique_lock lock(mutex_);
            if (!done_.wait_until(lock, deadline, [this] { return finished_; })) {
                std::fprintf(stderr, "kernelpad-cli: the run was stopped after %g s (--timeout)\n", shown);
                std::fflush(stderr);
                std::_Exit(ExitCode::KernelFault);
            }
        });
    }
    ~Watchdog() {
        if (!thread_.joinable()) return;
        {
            std::lock_guard lock(mutex_);
            finished_ = true;
        }
        done_.notify_all();
        thread_.join();
    }

private:
    std::mutex mutex_;
    std::condition_variable done_;
    bool finished_ = false;
    std::thread thread_;
};

void printSummary(const launch::RunSetup& setup, const run::RunReport& report) {
    const auto& result = *report.result;
    if (setup.program.single)
        std::cout << setup.signature.name << " on " << result.backend << ", "
                  << launch::toString(setup.launch) << "\n";
    else
        std::cout << setup.signature.name << " on " << result.backend << ", a program of "
                  << setup.program.steps.size() << " steps, " << setup.program.launchCount() << " launches\n";
    if (!result.execution.empty()) std::cout << "  runs as    " << result.execution << "\n";
    std::cout << std::fixed << std::setprecision(4);
    std::cout << "  compile    " << result.compileMs << " ms" << (result.compileFromCache ? " (cached)" : "")
              << "\n";
    const auto line = [](const char* what, const std::vector<double>& samples) {
        std::cout << "  " << what << launch::median(samples) << " ms";
        if (samples.size() > 1)
            std::cout << " (median of " << samples.size() << ", min "
                      << *std::min_element(samples.begin(), samples.end()) << ", max "
                      << *std::max_element(samples.begin(), samples.end()) << ")";
        std::cout << "\n";
    };
    line("host->dev  ", result.h2dMs);
    line("kernel     ", result.kernelMs);
    line("dev->host  ", result.d2hMs);
    // A program's steps, each with its share of the program's time (loops: their steps together).
    const double whole = launch::median(result.kernelMs);
    for (const auto& step : result.steps) {
        const double ms = launch::median(step.ms);
        std::cout << "    " << std::string(static_cast<std::size_t>(step.depth) * 2, ' ') << step.path << " "
                  << step.label << ": " << ms << " ms";
        if (whole > 0)
            std::cout << " (" << std::setprecision(1) << 100 * ms / whole << "%)" << std::setprecision(4);
        std::cout << (step.calls == 1 ? std::string() : ", " + std::to_string(step.calls) + " times") << "\n";
    }
    if (result.untimedOperations > 0)
        std::cout << "    (the last " << result.untimedOperations
                  << " operations are timed only as part of the whole)\n";
    if (report.reference)
        std::cout << "  reference  " << report.reference->milliseconds
                  << (report.referenceIsCpuBackend ? " ms (the CPU backend)\n" : " ms (CPU reference)\n");
    std::cout.unsetf(std::ios::floatfield);
    if (report.checks.empty())
        std::cout << "  check      none ("
                  << (report.uncheckedBecause.empty() ? "no reference, and no other backend to compare with"
                                                      : report.uncheckedBecause)
                  << ")\n";
    for (const auto& check : report.checks)
        std::cout << "  check      "
                  << run::describe(check, report.referenceIsCpuBackend ? "the CPU backend" : "the reference")
                  << "\n";
    if (result.cancelled) std::cout << "  cancelled after " << result.kernelMs.size() << " repeats\n";
}

// The whole set replaces the folder's earlier one at once (OutputFolder.h).
void writeOutputs(const fs::path& dir, const launch::RunResult& result, const run::RunReport& report) {
    const std::string text = report.toJson().dump(2) + "\n";
    replaceFolder(dir, [&](const fs::path& staging) {
        for (const auto& [name, array] : result.outputs)
            io::writeNpy(staging / (name + ".npy"), array);
        io::writeFileAtomically(staging / "timings.json", std::as_bytes(std::span(text.data(), text.size())));
    });
}

// What is wrong with `text` as --timeout's value, or nothing. nan, inf, 0 and negative numbers once
// stopped the run at once or never, and 1e10 overflowed the watchdog's clock.
std::string timeoutProblem(const std::string& text) {
    double seconds = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    const std::string limit = "give the time limit in seconds, more than 0 and at most " +
                              std::to_string(static_cast<int>(kMaxTimeoutSeconds)) + " (a day)";
    if (error != std::errc{} || end != text.data() + text.size())
        return "\"" + text + "\" is not a number; " + limit;
    if (std::isfinite(seconds) && seconds > 0 && seconds <= kMaxTimeoutSeconds) return {};
    return "\"" + text + "\" is not a time limit; " + limit + ", or leave --timeout out for none";
}

int execute(const RunCommandOptions& options) {
    const auto backend = run::parseRunBackend(options.backend); // a bad --backend before the file is read
    const auto playground = io::readPlayground(samplePlayground(options.file));
    if (!options.outDir.empty()) requireReplaceable(options.outDir); // before minutes of running, not after
    const Watchdog watchdog(options.timeoutSeconds);
    const auto execution =
        run::execute(playground, {backend, options.repeat, options.warmup, options.checkBounds, nullptr});
    const auto report = execution->report();
    if (!options.outDir.empty()) writeOutputs(options.outDir, execution->result, report);
    if (options.json)
        std::cout << report.toJson().dump(2) << "\n";
    else
        printSummary(execution->setup, report);
    return report.passed() ? ExitCode::Ok : ExitCode::CheckFailed;
}

} // namespace

CLI::App* addRunCommand(CLI::App& root, RunCommandOptions& options) {
    auto* cmd =
        root.add_subcommand("run", "Run a playground (*.kpad.json) and check it against its reference");
    cmd->add_option("file", options.file, "The playground file, or a sample's name (kernelpad-cli samples)")
        ->required();
    cmd->add_option("--backend", options.backend, "cuda, cuda:N or cpu")->capture_default_str();
    cmd->add_option("--repeat", options.repeat, "Timed runs (each copies in, launches, copies back)")
        ->capture_default_str();
    cmd->add_option("--warmup", options.warmup, "Untimed runs first")->capture_default_str();
    cmd->add_option("--out", options.outDir,
                    "Write NAME.npy for each out/inout array and timings.json here, as one set: the folder's "
                    "earlier set is replaced whole, or kept whole when writing fails (exit 6)");
    cmd->add_flag("--json", options.json, "Print timings.json's object instead of a summary");
    cmd->add_option("--timeout", options.timeoutSeconds,
                    "Stop the run after this many seconds, more than 0 and at most 86400 (exit 4)")
        ->check(CLI::Validator(timeoutProblem, "SECONDS"));
    cmd->add_flag(
        "--check-bounds", options.checkBounds,
        "CPU backend: check every index into an array argument; report the first one outside (exit 4)");
    cmd->footer(kExitCodesHelp);
    return cmd;
}

int runRunCommand(const RunCommandOptions& options) {
    return exitCodeOf([&] { return execute(options); });
}

} // namespace kp::cli
