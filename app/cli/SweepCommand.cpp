#include "SweepCommand.h"

#include "ExitCode.h"
#include "OutputError.h"
#include "SamplesCommand.h"
#include "core/cuda/CudaError.h"
#include "core/io/FileBytes.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/CompileError.h"
#include "core/launch/KernelFault.h"
#include "core/run/SweepRunner.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace kp::cli {

namespace {

// A message about the playground's "sweep" member names the option instead ("--to" for "sweep.to")
// where the value came from the command line.
std::string namingOptions(std::string message, const SweepCommandOptions& o) {
    const std::pair<const char*, bool> typed[] = {
        {"parameter", o.parameter.has_value()}, {"scale", o.scale.has_value()},
        {"array", o.array.has_value()},         {"flops", o.flops.has_value()},
        {"from", o.from.has_value()},           {"to", o.to.has_value()},
        {"steps", o.steps.has_value()},         {"repeat", o.repeat.has_value()},
        {"warmup", o.warmup.has_value()},       {"values", !o.values.empty()},
        {"backends", !o.backends.empty()}};
    for (const auto& [key, given] : typed) {
        if (!given) continue;
        // Every "sweep.to" that is the member itself, not the start of a longer name.
        const std::string member = std::string("sweep.") + key;
        for (auto at = message.find(member); at != std::string::npos; at = message.find(member, at + 1)) {
            const auto end = at + member.size();
            if (end < message.size() && std::string_view(":[ )").find(message[end]) == std::string_view::npos)
                continue;
            message.replace(at, member.size(), std::string("--") + key);
        }
    }
    return message;
}

// The playground's stored settings with the command line's on top.
run::SweepSpec specOf(const model::Playground& playground, const SweepCommandOptions& o) {
    if (!o.values.empty() && (o.from || o.to || o.steps))
        throw InputError("--values: give either --values or a range (--from, --to, --steps), not both");
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

// A file the results go to, opened before the sweep so that a path that cannot be written is said at
// once, not after minutes of measuring.
std::ofstream openOutput(const std::string& path, const char* option) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(std::string(option) + ": cannot write " + path + ": " + std::strerror(errno));
    return out;
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
    // What the sweep will change, before it runs: a crash on the CPU backend would end this process.
    for (const auto& note : run::planSweep(playground, spec).notes)
        summary << "note: " << note << std::endl;

    std::ofstream csvFile, jsonFile;
    if (!options.csv.empty()) csvFile = openOutput(options.csv, "--csv");
    if (!options.json.empty()) jsonFile = openOutput(options.json, "--json");
    std::ostream& csv = options.csv.empty() ? std::cout : csvFile;
    // Rows are written as they are measured, so that those before a crash are kept.
    csv << run::SweepResult::csvHeader() << std::flush;
    run::SweepResult shown; // what csvLine and the progress lines need: the parameter
    shown.spec = spec;
    run::SweepOptions sweepOptions;
    sweepOptions.check = !options.noCheck;
    sweepOptions.progress = [&](const run::SweepRow& row, std::size_t done, std::size_t total) {
        csv << shown.csvLine(row) << std::flush;
        if (!options.quiet) std::cerr << line(shown, row, done, total) << std::endl;
    };
    std::size_t written = 0;
    sweepOptions.progress = [&, progress = sweepOptions.progress](const run::SweepRow& row, std::size_t done,
                                                                  std::size_t total) {
        progress(row, done, total);
        ++written;
    };
    run::SweepResult result;
    try {
        result = run::runSweep(playground, spec, sweepOptions);
    } catch (...) {
        // Refused before any row (a compile error, no CUDA here): no files that look like results.
        if (written == 0)
            for (const auto* path : {&options.csv, &options.json})
                if (!path->empty()) std::filesystem::remove(*path);
        throw;
    }
    if (!options.json.empty()) {
        // The sweep as a playground keeps it: its settings, and its results under "results".
        auto stored = result.spec.toJson();
        stored["results"] = result.toJson();
        jsonFile << stored.dump(2) << "\n";
        if (!jsonFile.flush())
            throw OutputError("--json: writing " + options.json + " failed: " + std::strerror(errno));
    }
    if (!csv.flush()) throw OutputError("--csv: writing " + options.csv + " failed: " + std::strerror(errno));

    const auto first = result.rows.empty() ? 0.0 : result.x(result.rows.front());
    const auto last = result.rows.empty() ? 0.0 : result.x(result.rows.back());
    summary << result.kernel << ": " << result.rows.size() << (result.rows.size() == 1 ? " row, " : " rows, ")
            << result.parameterLabel() << " from " << run::formatCount(first) << " to "
            << run::formatCount(last) << "\n";
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
    cmd->add_option("--json", options.json,
                    "Also write the sweep as JSON here: its settings, and its rows under \"results\" (as a "
                    "playground keeps it)");
    cmd->add_flag("--no-check", options.noCheck, "Do not compare outputs with the reference");
    cmd->add_flag("--quiet", options.quiet, "No progress lines on stderr");
    cmd->footer(kExitCodesHelp);
    return cmd;
}

int runSweepCommand(const SweepCommandOptions& options) {
    return exitCodeOf([&] { return execute(options); },
                      [&](const std::string& message) { return namingOptions(message, options); });
}

} // namespace kp::cli
