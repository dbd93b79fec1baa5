// Whole-file reads and crash-safe whole-file writes for the io area's formats (.npy, .csv): a write
// goes to a temporary file beside the target and is renamed over it, so a failure keeps the old file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <span>
#include <vector>

namespace kp::io {

// Throws InputError when the file cannot be opened (missing, a directory, no permission): the path
// came from a person; SystemError when reading an opened file fails.
std::vector<std::byte> readFileBytes(const std::filesystem::path& path);
// The whole file as text, or nullopt when it is missing or unreadable: for caches, where an entry that
// cannot be read is simply not there.
std::optional<std::string> readFileIfPresent(const std::filesystem::path& path);

// Writes to a hidden temporary file in the target's folder, flushes it to disk and renames it over
// `path`. Throws SystemError naming the failed call and the path; the temporary file is removed then.
void writeFileAtomically(const std::filesystem::path& path, std::span<const std::byte> bytes);

} // namespace kp::io
