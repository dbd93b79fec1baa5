// The headers a CUDA source includes, found as the compiler would find them, read into a fingerprint for
// a compile cache's key: a header that changes must make the kernel compile again, on both backends.
// Headers that are not in the user's folders (the toolkit's <cuda_fp16.h>, the host's <cmath>) are not
// followed: the compiler's identity covers them. An #include whose name comes from a macro is not
// followed either; such a header's edits are not seen by a cache.
#pragma once

#include "core/model/Diagnostic.h"

#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace kp::io {

class IncludedHeaders {
public:
    // The folders searched for an #include after the including file's own folder (for "name").
    explicit IncludedHeaders(std::vector<std::filesystem::path> searchPath);

    // Follows the includes of `text`, whose own folder is `folder` (empty: none, only the search path).
    // `file` names the text in problems.
    void add(std::string_view text, const std::filesystem::path& folder, const std::string& file);

    // Every header found, path and content, length-prefixed so that no two different sets read alike.
    const std::string& fingerprint() const noexcept { return fingerprint_; }
    // The headers found, in the order they were first included.
    const std::vector<std::filesystem::path>& headers() const noexcept { return headers_; }
    // Includes of things that are not regular files (/dev/zero, a FIFO, a folder): a compiler would read
    // them without end or wait forever, so a compile stops before it with these errors.
    const std::vector<model::Diagnostic>& problems() const noexcept { return problems_; }

private:
    struct Include {
        std::string name;
        bool quoted;
    };
    void add(std::string_view text, const std::filesystem::path& folder, const std::string& file, int depth);
    void addHeader(const Include& include, const std::filesystem::path& folder, const std::string& file,
                   int line, int depth);
    std::filesystem::path resolve(const Include& include, const std::filesystem::path& folder) const;

    std::vector<std::filesystem::path> searchPath_;
    std::set<std::string> seen_;
    std::vector<std::filesystem::path> headers_;
    std::string fingerprint_;
    std::vector<model::Diagnostic> problems_;
};

} // namespace kp::io
