// Reads and writes playground files (*.kpad.json, docs/project-format.md, format "kernelpad/1") for the
// app, the command-line tool and the samples. Reading trusts nothing in the file: every problem found is
// reported with the file name and its JSON path (args[2].array.shape[1]), all of them at once.
#pragma once

#include "core/Error.h"
#include "core/model/Playground.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kp::io {

// A playground file that cannot be used. what() is one line per problem, "FILE: PROBLEM"; problems()
// holds the same problems without the file name, each starting with its JSON path or "LINE:COLUMN".
class PlaygroundError : public InputError {
public:
    PlaygroundError(std::string file, std::vector<std::string> problems);
    const std::string& file() const noexcept { return file_; }
    const std::vector<std::string>& problems() const noexcept { return problems_; }

private:
    std::string file_;
    std::vector<std::string> problems_;
};

// Throws PlaygroundError for a file that is not a valid playground (including one written for a newer
// format), InputError when it cannot be opened. The result's folder is the file's folder.
model::Playground readPlayground(const std::filesystem::path& file);
// The same for text already in memory; `file` names it in messages and gives the folder paths resolve in.
model::Playground parsePlayground(std::string_view text, const std::filesystem::path& file);

// Writes pretty JSON (2-space indent, a stable member order, unknown members kept) atomically: a failed
// write leaves the old file as it was. Relative paths are written as they are, so they stay relative to
// the playground's folder: save beside the sources. Throws SystemError naming the failed call.
void writePlayground(const model::Playground& playground, const std::filesystem::path& file);
// Writes the playground and the kernel's source it names as a pair: both go to temporary files before
// either replaces its old file, so a failure leaves both old files (a source that changed under a
// playground that did not would not match its arguments). Symbolic links are followed, permissions kept.
void writePlayground(const model::Playground& playground, const std::filesystem::path& file,
                     const std::filesystem::path& sourceFile, std::string_view sourceText);
// The text writePlayground writes.
std::string serializePlayground(const model::Playground& playground);

} // namespace kp::io
