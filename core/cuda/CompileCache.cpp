#include "CompileCache.h"

#include "core/CacheFolder.h"
#include "core/io/FileBytes.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>
#include <unistd.h>
#include <xxhash.h>

namespace kp::cuda {

namespace {

namespace fs = std::filesystem;
using model::Diagnostic;

// An entry file: a fixed header, then the payload (the serialized CompileResult). The header lets a
// reader reject a file from another format version, a truncated write or flipped bits before parsing.
// Numbers are little-endian whatever the host, so that a cache folder can be shared or copied.
constexpr std::string_view kMagic = "KPCOMPIL";
constexpr std::uint32_t kFormatVersion = 1;
constexpr std::size_t kHeaderSize = 48; // magic, version, reserved, key (2), payload length, checksum
constexpr std::string_view kEntrySuffix = ".kpc";

void putU64(std::string& out, std::uint64_t value) {
    for (int shift = 0; shift < 64; shift += 8)
        out.push_back(static_cast<char>((value >> shift) & 0xffu));
}

void putU32(std::string& out, std::uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8)
        out.push_back(static_cast<char>((value >> shift) & 0xffu));
}

void putBytes(std::string& out, std::string_view bytes) {
    putU64(out, bytes.size());
    out.append(bytes);
}

// Reads what put* wrote; any read past the end marks the whole payload as bad instead of throwing, so a
// damaged entry costs one check at the end.
struct PayloadReader {
    std::string_view rest;
    bool bad = false;

    std::uint64_t u64() {
        if (rest.size() < 8) return fail();
        std::uint64_t value = 0;
        for (std::size_t i = 0; i < 8; ++i)
            value |= std::uint64_t{static_cast<unsigned char>(rest[i])} << (8 * i);
        rest.remove_prefix(8);
        return value;
    }

    std::uint32_t u32() {
        if (rest.size() < 4) return static_cast<std::uint32_t>(fail());
        std::uint32_t value = 0;
        for (std::size_t i = 0; i < 4; ++i)
            value |= std::uint32_t{static_cast<unsigned char>(rest[i])} << (8 * i);
        rest.remove_prefix(4);
        return value;
    }

    std::string_view bytes() {
        const auto size = u64();
        if (bad || size > rest.size()) {
            fail();
            return {};
        }
        const auto value = rest.substr(0, size);
        rest.remove_prefix(size);
        return value;
    }

    std::uint64_t fail() {
        bad = true;
        rest = {};
        return 0;
    }
};

std::string serialize(const CompileResult& result) {
    std::string out;
    out.reserve(result.ptx.size() + result.cubin.size() + result.log.size() + 256);
    putBytes(out, result.arch);
    putBytes(out, result.ptx);
    putBytes(out, {reinterpret_cast<const char*>(result.cubin.data()), result.cubin.size()});
    putBytes(out, result.log);
    putU32(out, static_cast<std::uint32_t>(result.diagnostics.size()));
    for (const auto& d : result.diagnostics) {
        putBytes(out, d.file);
        putU32(out, static_cast<std::uint32_t>(d.line));
        putU32(out, static_cast<std::uint32_t>(d.column));
        putU32(out, static_cast<std::uint32_t>(d.severity));
        putBytes(out, d.message);
    }
    putU32(out, static_cast<std::uint32_t>(result.loweredNames.size()));
    for (const auto& [expression, lowered] : result.loweredNames) {
        putBytes(out, expression);
        putBytes(out, lowered);
    }
    return out;
}

std::optional<Diagnostic::Severity> severityFrom(std::uint32_t value) {
    switch (value) {
    case static_cast<std::uint32_t>(Diagnostic::Severity::Error):
        return Diagnostic::Severity::Error;
    case static_cast<std::uint32_t>(Diagnostic::Severity::Warning):
        return Diagnostic::Severity::Warning;
    case static_cast<std::uint32_t>(Diagnostic::Severity::Note):
        return Diagnostic::Severity::Note;
    default:
        return std::nullopt;
    }
}

std::optional<CompileResult> deserialize(std::string_view payload) {
    PayloadReader in{payload};
    CompileResult result;
    result.ok = true;
    result.arch = in.bytes();
    result.ptx = in.bytes();
    const auto cubin = in.bytes();
    result.cubin.resize(cubin.size());
    std::memcpy(result.cubin.data(), cubin.data(), cubin.size());
    result.log = in.bytes();
    // A wrong count cannot make the loops run away: every read past the end sets `bad` and stops them.
    const auto diagnostics = in.u32();
    for (std::uint32_t i = 0; i < diagnostics && !in.bad; ++i) {
        Diagnostic d;
        d.file = in.bytes();
        d.line = static_cast<int>(in.u32());
        d.column = static_cast<int>(in.u32());
        const auto severity = severityFrom(in.u32());
        if (!severity) return std::nullopt;
        d.severity = *severity;
        d.message = in.bytes();
        result.diagnostics.push_back(std::move(d));
    }
    const auto names = in.u32();
    for (std::uint32_t i = 0; i < names && !in.bad; ++i) {
        std::string expression(in.bytes());
        result.loweredNames[std::move(expression)] = in.bytes();
    }
    if (in.bad || !in.rest.empty()) return std::nullopt;
    return result;
}

std::string header(const CompileCache::Key& key, std::string_view payload) {
    std::string out(kMagic);
    putU32(out, kFormatVersion);
    putU32(out, 0);
    putU64(out, key.high);
    putU64(out, key.low);
    putU64(out, payload.size());
    putU64(out, XXH3_64bits(payload.data(), payload.size()));
    return out;
}

// The payload of a well-formed entry for `key`, or nothing when any header field disagrees with it.
std::optional<std::string_view> checkedPayload(std::string_view file, const CompileCache::Key& key) {
    if (file.size() < kHeaderSize || !file.starts_with(kMagic)) return std::nullopt;
    PayloadReader in{file.substr(kMagic.size(), kHeaderSize - kMagic.size())};
    const auto version = in.u32();
    in.u32();
    const auto high = in.u64();
    const auto low = in.u64();
    const auto length = in.u64();
    const auto checksum = in.u64();
    const auto payload = file.substr(kHeaderSize);
    if (in.bad || version != kFormatVersion || high != key.high || low != key.low || length != payload.size())
        return std::nullopt;
    if (XXH3_64bits(payload.data(), payload.size()) != checksum) return std::nullopt;
    return payload;
}

std::size_t footprint(const CompileResult& result) {
    std::size_t bytes = sizeof(CompileResult) + result.arch.size() + result.ptx.size() + result.cubin.size() +
                        result.log.size();
    for (const auto& d : result.diagnostics)
        bytes += sizeof(Diagnostic) + d.file.size() + d.message.size();
    for (const auto& [expression, lowered] : result.loweredNames)
        bytes += 64 + expression.size() + lowered.size();
    return bytes;
}

} // namespace

CompileCache::Key CompileCache::Key::of(std::string_view canonicalInput) {
    const auto hash = XXH3_128bits(canonicalInput.data(), canonicalInput.size());
    return {hash.high64, hash.low64};
}

std::string CompileCache::Key::hex() const {
    constexpr char digits[] = "0123456789abcdef";
    std::string text;
    for (const auto part : {high, low})
        for (int shift = 60; shift >= 0; shift -= 4)
            text.push_back(digits[(part >> shift) & 0xfu]);
    return text;
}

CompileCache::CompileCache(fs::path directory, std::size_t memoryBytes)
    : directory_(directory.empty() ? defaultDirectory() : std::move(directory)), memoryLimit_(memoryBytes) {}

fs::path CompileCache::defaultDirectory() {
    return userCacheFolder() / "compile";
}

CompileCache& CompileCache::user() {
    static CompileCache cache;
    return cache;
}

fs::path CompileCache::entryPath(const Key& key) const {
    return directory_ / (key.hex() + std::string(kEntrySuffix));
}

std::optional<CompileResult> CompileCache::find(const Key& key) {
    if (auto hit = findInMemory(key)) return hit;
    auto loaded = loadFromDisk(key);
    if (!loaded) return std::nullopt;
    storeInMemory(key, *loaded);
    loaded->fromCache = CompileResult::CacheHit::Disk;
    return loaded;
}

void CompileCache::store(const Key& key, const CompileResult& result) {
    if (!result.ok) return;
    storeInMemory(key, result);
    writeToDisk(key, result);
}

void CompileCache::clearMemory() {
    const std::lock_guard lock(mutex_);
    lru_.clear();
    index_.clear();
    memoryUsed_ = 0;
}

std::size_t CompileCache::memoryBytes() const {
    const std::lock_guard lock(mutex_);
    return memoryUsed_;
}

std::string CompileCache::diskProblem() const {
    const std::lock_guard lock(mutex_);
    return diskProblem_;
}

std::optional<CompileResult> CompileCache::findInMemory(const Key& key) {
    const std::lock_guard lock(mutex_);
    const auto found = index_.find(key);
    if (found == index_.end()) return std::nullopt;
    lru_.splice(lru_.begin(), lru_, found->second);
    auto result = found->second->result;
    result.fromCache = CompileResult::CacheHit::Memory;
    return result;
}

void CompileCache::storeInMemory(const Key& key, const CompileResult& result) {
    const auto bytes = footprint(result);
    if (bytes > memoryLimit_) return;
    const std::lock_guard lock(mutex_);
    if (const auto found = index_.find(key); found != index_.end()) {
        memoryUsed_ -= found->second->bytes;
        lru_.erase(found->second);
        index_.erase(found);
    }
    while (!lru_.empty() && memoryUsed_ + bytes > memoryLimit_) {
        memoryUsed_ -= lru_.back().bytes;
        index_.erase(lru_.back().key);
        lru_.pop_back();
    }
    lru_.push_front(Entry{key, result, bytes});
    lru_.front().result.fromCache = CompileResult::CacheHit::None;
    index_[key] = lru_.begin();
    memoryUsed_ += bytes;
}

std::optional<CompileResult> CompileCache::loadFromDisk(const Key& key) {
    const auto path = entryPath(key);
    const auto file = io::readFileIfPresent(path);
    if (!file) return std::nullopt;
    std::optional<CompileResult> result;
    if (const auto payload = checkedPayload(*file, key)) result = deserialize(*payload);
    if (!result) {
        // Damaged (a crash mid-write on a filesystem without ordered writes, a disk error, an older
        // format): never load it; removing it lets the next store replace it.
        std::error_code ignored;
        fs::remove(path, ignored);
    }
    return result;
}

void CompileCache::writeToDisk(const Key& key, const CompileResult& result) {
    // A unique temporary name, then rename: readers see the old entry or the whole new one, never half,
    // even with several processes (GUI, worker, CLI) sharing the folder.
    static std::atomic<unsigned> counter{0};
    const auto path = entryPath(key);
    auto temporary = path;
    temporary += ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);

    std::string problem;
    std::error_code error;
    fs::create_directories(directory_, error);
    if (error) {
        problem = "cannot create " + directory_.string() + ": " + error.message();
    } else {
        const auto payload = serialize(result);
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << header(key, payload) << payload;
        out.close();
        if (!out) {
            problem = "cannot write " + temporary.string();
        } else {
            fs::rename(temporary, path, error);
            if (error) problem = "cannot rename " + temporary.string() + ": " + error.message();
        }
        if (!problem.empty()) fs::remove(temporary, error);
    }
    const std::lock_guard lock(mutex_);
    diskProblem_ = problem;
}

} // namespace kp::cuda
