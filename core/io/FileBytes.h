// Whole-file reads and crash-safe whole-file writes for the io area's formats (.npy, .csv, playgrounds)
// and the app's sources. Reads take only regular files, up to a limit, and never block; a write goes
// to a temporary file beside the target and is renamed over it, so a failure keeps the old file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kp::io {

// The most a reader takes from one file. Arrays are data and may be large; sources, playgrounds and
// lessons are text a person wrote, and one far larger than this is a mistake, not a kernel.
inline constexpr std::uint64_t kArrayFileLimit = std::uint64_t{1} << 30; // 1 GiB
inline constexpr std::uint64_t kTextFileLimit = std::uint64_t{64} << 20; // 64 MiB

// The whole of a regular file. Never blocks: the file is opened without waiting (a FIFO with no writer
// does not hold the caller) and anything that is not a regular file (a FIFO, a device, a folder, a
// socket) is refused. Throws InputError naming the path when it cannot be opened, is not a regular file
// or holds more than `limit` bytes (the message says the limit); SystemError when reading it fails.
std::vector<std::byte> readFileBytes(const std::filesystem::path& path,
                                     std::uint64_t limit = kArrayFileLimit);
// The same as text, with the smaller limit that suits a source file.
std::string readTextFile(const std::filesystem::path& path, std::uint64_t limit = kTextFileLimit);
// The whole file as text, or nullopt when it is missing, unreadable, not a regular file or over `limit`:
// for caches and optional extras (headers, lessons), where an entry that cannot be read is simply not there.
std::optional<std::string> readFileIfPresent(const std::filesystem::path& path,
                                             std::uint64_t limit = kTextFileLimit);

// One file of an atomic write.
struct FileContent {
    std::filesystem::path path;
    std::span<const std::byte> bytes;
};

// Writes to a hidden temporary file in the target's folder, flushes it to disk and renames it over
// `path`. A symbolic link is followed: its target is replaced and the link stays. An existing file keeps
// its permissions (and its owner, where this process may give it). Temporary files a crashed process
// left in that folder are removed first. Throws InputError when the target is a FIFO, a device or a
// socket, SystemError naming the failed call and the path (rename, for a folder); the temporary file is
// removed then.
void writeFileAtomically(const std::filesystem::path& path, std::span<const std::byte> bytes);
// The same for files that belong together (a playground and its kernel's source): every temporary is
// written before any is renamed, and a rename that fails puts back the files already replaced, so a
// failure leaves all of them as they were.
void writeFilesAtomically(std::span<const FileContent> files);

// Removes the temporary files writeFileAtomically left in `folder` when its process was killed mid-write:
// those whose process is gone, and any older than half an hour. Returns how many it removed; never throws.
int removeStaleTemporaries(const std::filesystem::path& folder);

} // namespace kp::io
