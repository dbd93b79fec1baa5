#include "Toolkit.h"

#include "Nvrtc.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <string_view>

#ifndef KP_CUDA_LIBRARY_DIR
#define KP_CUDA_LIBRARY_DIR "/usr/local/cuda/lib64"
#endif

namespace kp::cuda {
namespace fs = std::filesystem;

namespace {

bool isFile(const fs::path& path) {
    std::error_code error;
    return fs::is_regular_file(path, error);
}

bool isFolder(const fs::path& path) {
    std::error_code error;
    return fs::is_directory(path, error);
}

// The file the loaded NVRTC came from, absolute even when the loader found it by its bare name.
fs::path nvrtcFile() {
    if (!Nvrtc::available()) return {};
    Dl_info info{};
    if (::dladdr(reinterpret_cast<const void*>(Nvrtc::api().nvrtcVersion), &info) == 0 || !info.dli_fname)
        return {};
    std::error_code error;
    const auto real = fs::canonical(info.dli_fname, error);
    return error ? fs::path(info.dli_fname) : real;
}

// A library folder's toolkit root: lib64/ (or lib/) is one below it, targets/<arch>/lib three below.
void addRootsOfLibraryFolder(const fs::path& library, std::vector<fs::path>& roots) {
    if (!library.is_absolute()) return;
    roots.push_back(library.parent_path().lexically_normal());
    roots.push_back((library / "../../..").lexically_normal());
}

void addUnique(std::vector<fs::path>& into, fs::path path) {
    path = path.lexically_normal();
    if (std::find(into.begin(), into.end(), path) == into.end()) into.push_back(std::move(path));
}

} // namespace

std::string environmentValue(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::vector<fs::path> folderList(std::string_view list) {
    std::vector<fs::path> folders;
    while (!list.empty()) {
        const auto end = list.find(':');
        if (const auto folder = list.substr(0, end); !folder.empty()) folders.emplace_back(folder);
        if (end == std::string_view::npos) break;
        list.remove_prefix(end + 1);
    }
    return folders;
}

std::vector<fs::path> toolkitRoots() {
    std::vector<fs::path> roots;
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
        if (const auto root = environmentValue(variable); !root.empty()) roots.emplace_back(root);
    if (const auto nvrtc = nvrtcFile(); !nvrtc.empty()) addRootsOfLibraryFolder(nvrtc.parent_path(), roots);
    addRootsOfLibraryFolder(fs::path(KP_CUDA_LIBRARY_DIR), roots);
    roots.emplace_back("/usr/local/cuda");
    std::vector<fs::path> unique;
    for (auto& root : roots)
        addUnique(unique, std::move(root));
    return unique;
}

std::string ToolkitHeaders::unavailableReason() const {
    std::string places;
    for (const auto& folder : lookedIn)
        places += (places.empty() ? "" : ", ") + folder.string();
    return "the CUDA toolkit's headers (cooperative_groups.h and the folders beside it) were not found; "
           "looked in " +
           (places.empty() ? std::string("no folder") : places) +
           ". Install the toolkit's headers (the cuda-cudart-dev and cuda-cccl packages), or set CUDA_HOME "
           "to "
           "the toolkit's folder or KERNELPAD_CUDA_INCLUDE to its include folder";
}

ToolkitHeaders findToolkitHeaders() {
    ToolkitHeaders headers;
    if (const auto chosen = environmentValue("KERNELPAD_CUDA_INCLUDE"); !chosen.empty()) {
        for (auto& folder : folderList(chosen)) {
            headers.lookedIn.push_back(folder);
            if (isFolder(folder)) addUnique(headers.folders, std::move(folder));
        }
        return headers;
    }
    for (const auto& root : toolkitRoots()) {
        // The usual layout has include/ at the root; a targets/<arch>/ layout has it there too.
        const fs::path include = root / "include";
        headers.lookedIn.push_back(include);
        if (!isFile(include / "cooperative_groups.h")) continue;
        headers.folders.push_back(include);
        if (isFolder(include / "cccl")) headers.folders.push_back(include / "cccl");
        break;
    }
    return headers;
}

const ToolkitHeaders& toolkitHeaders() {
    static const ToolkitHeaders found = findToolkitHeaders();
    return found;
}

} // namespace kp::cuda
