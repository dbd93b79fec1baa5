// The array an argument starts with: read from its init's file (.npy, .csv), or generated from its init
// (model::generate). What a run copies to the device and what the GUI's argument panels preview.
#pragma once

#include "core/model/Array.h"
#include "core/model/Playground.h"

#include <filesystem>
#include <memory>
#include <string>

namespace kp::io {

// `where` names the init in messages, e.g. "args[1].init". A file init is read from `baseDir` (the
// playground's folder, which it may not leave) and must match the spec's dtype and shape exactly. The
// array's memory comes from `allocator` (the CUDA runner's pinned memory: no copy afterwards).
model::Array initialArray(const model::ArraySpec& spec, const model::InitSpec& init,
                          const std::filesystem::path& baseDir, const std::string& where,
                          const std::shared_ptr<model::HostAllocator>& allocator = model::heapAllocator());

} // namespace kp::io
