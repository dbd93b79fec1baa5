// The folder of `kernelpad-cli run --out DIR`, written as one set: the files go into a hidden folder
// beside DIR (.DIR.kptmp.PID), which then takes DIR's place in one rename, so a reader sees the earlier
// set or the new one, never a mix of both (a full disk, two runs writing the same folder at once).
#pragma once

#include "OutputError.h"

#include <filesystem>
#include <functional>
#include <string>

namespace kp::cli {

// Throws InputError when `folder` cannot be replaced by a set: it is a file, the current folder or one
// above it, or it holds something a set does not (anything but regular NAME.npy files and timings.json),
// which replacing the folder would delete. Called before the run, so nothing runs for a bad --out.
void requireReplaceable(const std::filesystem::path& folder);

// Creates the hidden folder, has `write` fill it, flushes it to disk and puts it in `folder`'s place
// (renameat2 RENAME_EXCHANGE, or the old folder renamed aside where the file system cannot exchange),
// then removes the earlier set. On any failure the hidden folder is removed, `folder` is as it was and
// OutputError says what failed, where, and that the earlier files are kept (InputError when files that
// are not a set came into the folder during the run).
void replaceFolder(const std::filesystem::path& folder,
                   const std::function<void(const std::filesystem::path&)>& write);

} // namespace kp::cli
