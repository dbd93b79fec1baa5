// Where Kernelpad keeps what it can make again (compiled kernels, build and scratch folders): one folder
// per user, never one that other users can write. Used by the GPU compile cache and the host compiler.
#pragma once

#include <filesystem>
#include <string>
#include <sys/types.h>

namespace kp {

// $KERNELPAD_CACHE_DIR, else $XDG_CACHE_HOME/kernelpad, else $HOME/.cache/kernelpad, else the home
// folder the password database gives, + /.cache/kernelpad; without any home, a folder of this user's
// own in the temporary folder (created 0700 and checked to be ours). Throws SystemError when that
// last folder exists but belongs to someone else or others may write in it.
std::filesystem::path userCacheFolder();

// Work folders in the cache are named PREFIX-PID-..., PID being the process that made them. Removes
// those of `parent` whose process is gone (killed mid-compile or mid-run), once per folder, prefix and
// process: cheap enough to call before every compile or run.
void removeAbandonedFolders(const std::filesystem::path& parent, const std::string& prefix);

// Whether no process `pid` exists any more: the test for work left behind by a killed process (cache
// folders, temporary files, --out's hidden folders). A process of another user counts as alive.
bool processIsGone(pid_t pid);

} // namespace kp
