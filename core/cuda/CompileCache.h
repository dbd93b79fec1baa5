// Remembers successful compiles so that an unchanged kernel is never compiled twice: in memory (LRU,
// bounded in bytes) and on disk, surviving restarts. The Compiler consults it; tests and the CLI may
// give it their own folder. Thread-safe: the GUI, the worker and sweeps may compile concurrently.
#pragma once

#include "CompileResult.h"

#include <cstdint>
#include <filesystem>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace kp::cuda {

class CompileCache {
public:
    // A 128-bit XXH3 hash of everything that decides a compile's output (see Compiler.cpp).
    struct Key {
        std::uint64_t high = 0;
        std::uint64_t low = 0;

        static Key of(std::string_view canonicalInput);
        std::string hex() const; // 32 hex digits, the entry's file name
        bool operator==(const Key&) const = default;
    };

    static constexpr std::size_t kDefaultMemoryBytes = 64u << 20;

    // `directory` holds the disk entries; empty: defaultDirectory(). Nothing is created until a store.
    explicit CompileCache(std::filesystem::path directory = {},
                          std::size_t memoryBytes = kDefaultMemoryBytes);
    CompileCache(const CompileCache&) = delete;
    CompileCache& operator=(const CompileCache&) = delete;

    // userCacheFolder() (core/CacheFolder.h) + /compile.
    static std::filesystem::path defaultDirectory();
    // The cache Compilers share unless given another: one per process, at defaultDirectory().
    static CompileCache& user();

    // The stored result with fromCache set, or nothing. A damaged disk entry is deleted and reported
    // as a miss, so that the caller compiles again and stores a good one.
    std::optional<CompileResult> find(const Key& key);
    // Keeps a successful result; failed ones are ignored (their diagnostics change with the source).
    // A disk that cannot be written leaves the entry in memory only; diskProblem() says why.
    void store(const Key& key, const CompileResult& result);
    // Forgets the in-memory entries (the disk ones stay): lets tests and benchmarks reach the disk path.
    void clearMemory();

    const std::filesystem::path& directory() const noexcept { return directory_; }
    std::filesystem::path entryPath(const Key& key) const;
    std::size_t memoryBytes() const;
    std::string diskProblem() const;

private:
    struct KeyHash {
        std::size_t operator()(const Key& key) const noexcept { return static_cast<std::size_t>(key.low); }
    };
    struct Entry {
        Key key;
        CompileResult result;
        std::size_t bytes = 0;
    };

    std::optional<CompileResult> findInMemory(const Key& key);
    void storeInMemory(const Key& key, const CompileResult& result);
    std::optional<CompileResult> loadFromDisk(const Key& key);
    void writeToDisk(const Key& key, const CompileResult& result);

    std::filesystem::path directory_;
    std::size_t memoryLimit_;
    mutable std::mutex mutex_;
    std::list<Entry> lru_; // most recently used first
    std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> index_;
    std::size_t memoryUsed_ = 0;
    std::string diskProblem_;
};

} // namespace kp::cuda
