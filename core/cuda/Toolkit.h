// Where the CUDA toolkit's own files are: the programs beside it (nvdisasm) and the headers NVRTC needs
// for what CUDA code includes but NVRTC does not carry itself (<cooperative_groups.h>, and CUDA 13's
// libcu++ under include/cccl: <cuda/std/...>, <cub/...>).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kp::cuda {

// The value of an environment variable; empty when it is not set.
std::string environmentValue(const char* name);
// The folders of a ':'-separated list such as $PATH, in order, empty entries left out.
std::vector<std::filesystem::path> folderList(std::string_view list);

// The folders that may be a CUDA toolkit's root, in the order they are tried, without repeats:
// $CUDA_HOME, $CUDA_PATH, the toolkit of the NVRTC library in use, the toolkit Kernelpad was built
// with, /usr/local/cuda. Nothing is checked here: a folder may not exist.
std::vector<std::filesystem::path> toolkitRoots();

struct ToolkitHeaders {
    // The include folders to give NVRTC after the user's own, in search order; empty when none was found.
    std::vector<std::filesystem::path> folders;
    // The candidate folders looked at, for a message when `folders` is empty.
    std::vector<std::filesystem::path> lookedIn;
    bool found() const noexcept { return !folders.empty(); }
    // "the CUDA toolkit's headers (cooperative_groups.h) were not found: looked in A, B. Set CUDA_HOME ..."
    std::string unavailableReason() const;
};

// The first root whose include folder has cooperative_groups.h, with its include/cccl when present.
// $KERNELPAD_CUDA_INCLUDE (folders separated by ':') replaces the search. Found once per process.
const ToolkitHeaders& toolkitHeaders();
// The same search, not cached (tests change the environment).
ToolkitHeaders findToolkitHeaders();

} // namespace kp::cuda
