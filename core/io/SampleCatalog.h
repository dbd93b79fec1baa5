// The samples that ship with Kernelpad (samples/NAME/NAME.kpad.json with its lesson), in the teaching
// order and groups that samples/index.json gives. The app's samples browser and `kernelpad-cli samples`
// and `run NAME` read the same catalogue.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kp::io {

struct Sample {
    std::string name;                 // the folder's name, which the CLI takes: "multiply_them"
    std::string title;                // the playground's title, else the name
    std::string group;                // index.json's group title, else "More samples"
    std::filesystem::path playground; // the sample's *.kpad.json
    std::filesystem::path lesson;     // its lesson (Markdown), empty when it has none
    std::string summary;              // the lesson's first paragraph, on one line
    std::string problem;              // why the playground cannot be read; empty when it can
};

struct SampleCatalog {
    std::filesystem::path folder;
    std::vector<Sample> samples;       // index order; samples the index does not list follow, by name
    std::vector<std::string> problems; // index.json's own problems: bad JSON, a listed folder missing

    // By folder name, else by title; nullptr when there is none.
    const Sample* find(std::string_view nameOrTitle) const;
    // "multiply_them, doublify, ..." for messages that say what exists.
    std::string names() const;
};

// Reads the catalogue of `folder`: every sub-folder holding a *.kpad.json is a sample. A sample whose
// playground cannot be read is listed with its problem rather than hidden. Throws InputError when
// `folder` is not a folder.
SampleCatalog readSampleCatalog(const std::filesystem::path& folder);

// Where the samples are: $KERNELPAD_SAMPLES_DIR, else share/kernelpad/samples beside the running
// program's bin folder (an installed Kernelpad), else the source tree's samples folder.
std::filesystem::path defaultSamplesFolder();

// The first paragraph of a Markdown lesson after its title, joined into one line.
std::string lessonSummary(std::string_view markdown);

} // namespace kp::io
