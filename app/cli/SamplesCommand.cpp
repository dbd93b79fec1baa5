#include "SamplesCommand.h"

#include "ExitCode.h"
#include "core/Error.h"
#include "core/io/FileBytes.h"
#include "core/io/SampleCatalog.h"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

namespace kp::cli {

namespace {

namespace fs = std::filesystem;

nlohmann::json toJson(const io::Sample& sample) {
    nlohmann::json out = {{"name", sample.name},
                          {"title", sample.title},
                          {"group", sample.group},
                          {"playground", sample.playground.string()},
                          {"lesson", sample.lesson.string()},
                          {"summary", sample.summary}};
    if (!sample.problem.empty()) out["problem"] = sample.problem;
    return out;
}

void printList(const io::SampleCatalog& catalog) {
    std::size_t width = 0;
    for (const auto& sample : catalog.samples)
        width = std::max(width, sample.name.size());
    std::string group;
    for (const auto& sample : catalog.samples) {
        if (sample.group != group) {
            std::cout << (group.empty() ? "" : "\n") << sample.group << "\n";
            group = sample.group;
        }
        std::cout << "  " << std::left << std::setw(static_cast<int>(width)) << sample.name << "  "
                  << sample.title;
        if (!sample.problem.empty()) std::cout << "  (" << sample.problem << ")";
        std::cout << "\n";
    }
    std::cout
        << "\nRun one with `kernelpad-cli run NAME`; read its lesson with `kernelpad-cli samples NAME`.\n"
        << "Samples folder: " << catalog.folder.string() << "\n";
}

void printSample(const io::Sample& sample) {
    const auto lesson = sample.lesson.empty() ? std::nullopt : io::readFileIfPresent(sample.lesson);
    if (lesson)
        std::cout << *lesson << (lesson->ends_with('\n') ? "" : "\n");
    else
        std::cout << sample.title << "\n";
    std::cout << "\nPlayground: " << sample.playground.string() << "\n"
              << "Run it with: kernelpad-cli run " << sample.name << " [--backend cpu]\n";
}

const io::Sample& findSample(const io::SampleCatalog& catalog, const std::string& name) {
    if (const auto* sample = catalog.find(name)) return *sample;
    throw InputError("no sample named \"" + name + "\" in " + catalog.folder.string() +
                     "; the samples are: " + catalog.names());
}

} // namespace

CLI::App* addSamplesCommand(CLI::App& root, SamplesCommandOptions& options) {
    auto* cmd = root.add_subcommand("samples", "List the samples and lessons, or show one sample's lesson");
    cmd->add_option("name", options.name, "A sample's name: show its lesson and where its playground is");
    cmd->add_flag("--json", options.json, "Print the samples (or the one named) as JSON");
    return cmd;
}

int runSamplesCommand(const SamplesCommandOptions& options) {
    const auto catalog = io::readSampleCatalog(io::defaultSamplesFolder());
    for (const auto& problem : catalog.problems)
        std::cerr << "kernelpad-cli: " << problem << "\n";
    if (!options.name.empty()) {
        const auto& sample = findSample(catalog, options.name);
        if (options.json)
            std::cout << toJson(sample).dump(2) << "\n";
        else
            printSample(sample);
        return ExitCode::Ok;
    }
    if (options.json) {
        auto list = nlohmann::json::array();
        for (const auto& sample : catalog.samples)
            list.push_back(toJson(sample));
        std::cout << list.dump(2) << "\n";
    } else {
        printList(catalog);
    }
    return ExitCode::Ok;
}

std::string samplePlayground(const std::string& file) {
    const bool looksLikePath = file.find('/') != std::string::npos || file.ends_with(".json");
    if (looksLikePath || fs::exists(file)) return file;
    const auto catalog = io::readSampleCatalog(io::defaultSamplesFolder());
    return findSample(catalog, file).playground.string();
}

} // namespace kp::cli
