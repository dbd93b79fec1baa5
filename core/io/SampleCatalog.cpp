#include "SampleCatalog.h"

#include "FileBytes.h"
#include "PlaygroundFile.h"
#include "core/Error.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>

namespace kp::io {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kUnlistedGroup = "More samples";

// NAME/NAME.kpad.json, else the folder's first *.kpad.json by name; empty when it has none.
fs::path playgroundIn(const fs::path& folder) {
    fs::path named = folder / (folder.filename().string() + ".kpad.json");
    if (fs::is_regular_file(named)) return named;
    std::vector<fs::path> found;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error))
        if (entry.is_regular_file() && entry.path().filename().string().ends_with(".kpad.json"))
            found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    return found.empty() ? fs::path{} : found.front();
}

Sample readSample(const fs::path& folder, const fs::path& playgroundFile) {
    Sample sample;
    sample.name = folder.filename().string();
    sample.title = sample.name;
    sample.playground = playgroundFile;
    try {
        const auto playground = readPlayground(playgroundFile);
        if (!playground.title.empty()) sample.title = playground.title;
        if (!playground.lesson.empty()) {
            sample.lesson = folder / playground.lesson;
            if (const auto text = readFileIfPresent(sample.lesson))
                sample.summary = lessonSummary(*text);
            else
                sample.problem = "lesson: " + playground.lesson + " cannot be read";
        }
    } catch (const Error& e) {
        sample.problem = e.what();
    }
    return sample;
}

struct Group {
    std::string title;
    std::vector<std::string> names;
};

// index.json: {"groups": [{"title": "...", "samples": ["name", ...]}, ...]}. Problems are reported with
// their JSON path and what is usable is still used.
std::vector<Group> readIndex(const fs::path& file, std::vector<std::string>& problems) {
    const auto text = readFileIfPresent(file);
    if (!text) return {};
    const std::string where = file.filename().string() + ": ";
    const json root = json::parse(*text, nullptr, false);
    if (root.is_discarded() || !root.is_object() || !root.contains("groups") || !root["groups"].is_array()) {
        problems.push_back(where +
                           "not a JSON object with a \"groups\" array; the samples are listed by name");
        return {};
    }
    std::vector<Group> groups;
    for (std::size_t g = 0; g < root["groups"].size(); ++g) {
        const json& entry = root["groups"][g];
        const std::string path = where + "groups[" + std::to_string(g) + "]";
        if (!entry.is_object() || !entry.contains("title") || !entry["title"].is_string() ||
            !entry.contains("samples") || !entry["samples"].is_array()) {
            problems.push_back(path + ": needs a \"title\" string and a \"samples\" array");
            continue;
        }
        Group group{entry["title"].get<std::string>(), {}};
        for (std::size_t s = 0; s < entry["samples"].size(); ++s) {
            const json& name = entry["samples"][s];
            if (name.is_string())
                group.names.push_back(name.get<std::string>());
            else
                problems.push_back(path + ".samples[" + std::to_string(s) + "]: not a folder name");
        }
        groups.push_back(std::move(group));
    }
    return groups;
}

} // namespace

const Sample* SampleCatalog::find(std::string_view nameOrTitle) const {
    for (const auto& sample : samples)
        if (sample.name == nameOrTitle) return &sample;
    for (const auto& sample : samples)
        if (sample.title == nameOrTitle) return &sample;
    return nullptr;
}

std::string SampleCatalog::names() const {
    std::string text;
    for (const auto& sample : samples)
        text += (text.empty() ? "" : ", ") + sample.name;
    return text;
}

SampleCatalog readSampleCatalog(const fs::path& folder) {
    if (!fs::is_directory(folder))
        throw InputError("samples folder " + folder.string() + " does not exist or is not a folder");
    SampleCatalog catalog;
    catalog.folder = folder;

    // Each sample folder with its playground, by name.
    std::vector<std::pair<fs::path, fs::path>> folders;
    for (const auto& entry : fs::directory_iterator(folder))
        if (entry.is_directory())
            if (auto playground = playgroundIn(entry.path()); !playground.empty())
                folders.emplace_back(entry.path(), std::move(playground));
    std::sort(folders.begin(), folders.end());

    std::set<std::string> listed;
    for (const auto& group : readIndex(folder / "index.json", catalog.problems)) {
        for (const auto& name : group.names) {
            const auto it = std::find_if(folders.begin(), folders.end(),
                                         [&](const auto& f) { return f.first.filename() == name; });
            if (it == folders.end()) {
                catalog.problems.push_back("index.json: \"" + name + "\" (group \"" + group.title +
                                           "\") has no folder with a playground");
                continue;
            }
            if (!listed.insert(name).second) continue;
            Sample sample = readSample(it->first, it->second);
            sample.group = group.title;
            catalog.samples.push_back(std::move(sample));
        }
    }
    for (const auto& [sampleFolder, playground] : folders) {
        if (listed.count(sampleFolder.filename().string())) continue;
        Sample sample = readSample(sampleFolder, playground);
        sample.group = kUnlistedGroup;
        catalog.samples.push_back(std::move(sample));
    }
    return catalog;
}

fs::path defaultSamplesFolder() {
    if (const char* chosen = std::getenv("KERNELPAD_SAMPLES_DIR"); chosen && *chosen) return chosen;
    std::error_code error;
    const auto self = fs::read_symlink("/proc/self/exe", error);
    if (!error) {
        const fs::path installed = self.parent_path().parent_path() / "share" / "kernelpad" / "samples";
        if (fs::is_directory(installed, error)) return installed.lexically_normal();
    }
    return KP_SAMPLES_DIR;
}

std::string lessonSummary(std::string_view markdown) {
    std::string summary;
    bool started = false;
    std::size_t start = 0;
    while (start <= markdown.size()) {
        const auto end = std::min(markdown.find('\n', start), markdown.size());
        std::string_view line = markdown.substr(start, end - start);
        start = end + 1;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.remove_suffix(1);
        while (!line.empty() && line.front() == ' ')
            line.remove_prefix(1);
        if (line.empty()) {
            if (started) break;
            continue;
        }
        if (line.front() == '#') {
            if (started) break;
            continue;
        }
        started = true;
        summary += (summary.empty() ? "" : " ") + std::string(line);
    }
    return summary;
}

} // namespace kp::io
