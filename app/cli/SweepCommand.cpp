#include "SweepCommand.h"

#include "ExitCode.h"
#include "SamplesCommand.h"
#include "core/cuda/CudaError.h"
#include "core/io/FileBytes.h"
#include "core/io/PlaygroundFile.h"
#include "core/run/CompileError.h"
#include "core/run/KernelFault.h"
#include "core/run/SweepRunner.h"

#include <cstdio>
#include <iostream>

namespace kp::cli {

namespace {

void writeText(const std::string& path, const std::string& text, const char* option) {
    try {
        io::writeFileAtomically(path, std::as_bytes(std::span(text.data(), text.size())));
    } catch (const std::exception& e) {
        throw InputError(std::string(option) + ": " + e.what());
    }
}

// The playground's stored settings with the command line's on top.
run::SweepSpec specOf(const model::Playground& playground, const SweepCommandOptions& o) {
    nlohmann::json spec =
        playground.extra.contains("sweep") ? playground.extra.at("sweep") : nlohmann::json::object();
    if (!spec.is_object()) (void)run::SweepSpec::fromJson(spec); // says what is wrong with it
    spec.erase("results");
    if (o.parameter && *o.parameter != spec.value("parameter", std::string("size"))) {
        // Another parameter: the stored range was for the other one.
        for (const char* key : {"from", "to", "steps", "values"})
            spec.erase(key);
    }
    const auto set = [&](const char* key, const auto& value) {
        if (value) spec[key] = *value;
    };
    set("parameter", o.parameter);
    set("scale", o.scale);
    set("array", o.array);
    set("flops", o.flops);
    set("from", o.from);
    set("to", o.to);
    set("steps", o.steps);
    set("repeat", o.repeat);
    set("warmup", o.warmup);
    if (!o.values.empty()) spec["values"] = o.values;
    if (o.from || o.to || o.steps) spec.erase("values");
    if (!o.backends.empty()) spec["backends"] = o.backends;
    return run::SweepSpec::fromJson(spec, "sweep");
}

std::string line(const run::SweepResult& result, const run::SweepRow& row, std::size_t done,
                 std::size_t total) {
    char head[64];
    std::snprintf(head, sizeof head, "[%zu/%zu] ", done, total);
    std::string text = head + row.backend + " at " + run::formatCount(result.x(row)) + ": ";
    if (!row.ran()) return text + (row.error.empty() ? "not measured" : row.error);
    text += "kernel " + run::formatMilliseconds(row.kernel().median) + " ms";
    if (row.onGpu()) text += ", with copies " + run::formatMilliseconds(row.timeMs(true)) + " ms";
    if (!row.check.empty()) text += ", check " + row.check;
    return text;
}

int execute(const SweepCommandOptions& options) {
    const auto playground = io::readPlayground(samplePlayground(options.file));
    const auto spec = specOf(playground, options);
    std::ostream& summary = options.csv.empty() ? std::cerr : std::cout;
    run::SweepResult shown; // for the progress lines' x: the spec is all they need
    shown.spec = spec;
    run::SweepOptions sweepOptions;
    sweepOptions.check = !options.noCheck;
    if (!options.quiet)
        sweepOptions.progress = [&](const run::SweepRow& row, std::size_t done, std::size_t total) {
            std::cerr << line(shown, row, done, total) << std::endl;
        };
    const auto result = run::runSweep(playground, spec, sweepOptions);

    if (options.csv.empty())
        std::cout << result.toCsv();
    else
        writeText(options.csv, result.toCsv(), "--csv");
    if (!options.json.empty()) writeText(options.json, result.toJson().dump(2) + "\n", "--json");

    summary << result.kernel << ": " << result.rows.size() << " rows, " << result.parameterLabel() << " from "
            << run::formatCount(result.rows.empty() ? 0 : result.x(result.rows.front())) << " to "
            << run::formatCount(result.rows.empty() ? 0 : result.x(result.rows.back())) << "\n";
    for (const auto& note : result.notes)
        summary << "  note: " << note << "\n";
    for (const auto& c : run::crossovers(result))
        summary << "  " << run::describe(c, result) << "\n";
    bool allWell = !result.cancelled;
    for (const auto& row : result.rows)
        if (!row.error.empty() || row.check.starts_with("failed")) allWell = false;
    if (!allWell) summary << "  some points failed or did not run: see the error and check columns\n";
    return allWell ? ExitCode::Ok : ExitCode::CheckFailed;
}

} // namespace

CLI::App* addSweepCommand(CLI::App& root, SweepCommandOptions& options) {
    auto* cmd = root.add_subcommand(
        "sweep", "Run a playground over a range of problem or block sizes on several backends and write CSV");
    cmd->add_option("file", options.file, "The playground file, or a sample's name (kernelpad-cli samples)")
        ->required();
    cmd->add_option("--parameter", options.parameter,
                    "size (the problem size) or block (blockDim.x); default size");
    cmd->add_option("--from", options.from, "First value (elements, or threads per block)");
    cmd->add_option("--to", options.to, "Last value");
    cmd->add_option("--steps", options.steps, "Points from --from to --to, both included");
    cmd->add_option("--scale", options.scale, "log (a constant ratio between points) or linear");
    cmd->add_option("--values", options.values, "These values instead of --from/--to/--steps")
        ->delimiter(',');
    cmd->add_option("--backends", options.backends,
                    "Comma-separated: cuda:N, cpu (all cores), cpu:N (N threads), reference; "
                    "default: every CUDA device, cpu, and reference when there is one")
        ->delimiter(',');
    cmd->add_option("--array", options.array,
                    "The array whose size is swept (default: the first array argument)");
    cmd->add_option("--repeat", options.repeat, "Timed runs per point and backend (default 5)");
    cmd->add_option("--warmup", options.warmup, "Untimed runs first (default 1)");
    cmd->add_option("--flops", options.flops,
                    "Floating-point operations of one launch, a formula of n (e.g. 2*n^1.5)");
    cmd->add_option("--csv", options.csv, "Write the CSV here (default: stdout, with the summary on stderr)");
    cmd->add_option("--json", options.json, "Also write the whole result as JSON here");
    cmd->add_flag("--no-check", options.noCheck, "Do not compare outputs with the reference");
    cmd->add_flag("--quiet", options.quiet, "No progress lines on stderr");
    return cmd;
}

int runSweepCommand(const SweepCommandOptions& options) {
    try {
        return execute(options);
    } catch (const run::CompileError& e) {
        std::cerr << e.what() << "\n";
        return ExitCode::CompileError;
    } catch (const InputError& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return ExitCode::BadInput;
    } catch (const run::KernelFault& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return ExitCode::KernelFault;
    } catch (const cuda::Unavailable& e) {
        std::cerr << "kernelpad-cli: no CUDA backend here: " << e.what() << "\n";
        return ExitCode::NoBackend;
    }
}

} // namespace kp::cli
