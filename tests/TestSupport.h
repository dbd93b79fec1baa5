// Small helpers the core's test suites share: whole-file text I/O, every dtype, the message of an
// expected InputError, and a run setup from inline code.
#pragma once

#include "core/Error.h"
#include "core/cuda/Device.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/RunSetup.h"
#include "core/model/DType.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace kp::test {

// An NVIDIA H100's properties as the driver reports them: occupancy and launch checks without a GPU.
inline cuda::DeviceProperties h100() {
    cuda::DeviceProperties p;
    p.name = "NVIDIA H100 80GB HBM3";
    p.ccMajor = 9;
    p.ccMinor = 0;
    p.multiprocessors = 132;
    p.maxThreadsPerBlock = 1024;
    p.maxBlockDim = {1024, 1024, 64};
    p.maxGridDim = {2147483647, 65535, 65535};
    p.sharedPerBlock = 48 * 1024;
    p.sharedPerBlockOptin = 227 * 1024;
    p.sharedPerMultiprocessor = 228 * 1024;
    p.registersPerBlock = 65536;
    p.registersPerMultiprocessor = 65536;
    p.warpSize = 32;
    p.maxThreadsPerMultiprocessor = 2048;
    p.maxBlocksPerMultiprocessor = 32;
    return p;
}

inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

inline void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// A playground with inline code, parsed as a file at `path` would be, and prepared for a run.
inline launch::RunSetup setupOf(const std::string& code, const std::string& kernel,
                                const std::vector<nlohmann::json>& args, const nlohmann::json& launch,
                                const std::filesystem::path& path) {
    nlohmann::json playground = {
        {"format", "kernelpad/1"}, {"code", code}, {"kernel", kernel}, {"launch", launch}};
    playground["args"] = args;
    return launch::prepare(io::parsePlayground(playground.dump(), path));
}

inline constexpr model::DType kAllTypes[] = {
    model::DType::Int8,    model::DType::UInt8,   model::DType::Int16,   model::DType::UInt16,
    model::DType::Int32,   model::DType::UInt32,  model::DType::Int64,   model::DType::UInt64,
    model::DType::Float16, model::DType::Float32, model::DType::Float64, model::DType::Float2,
    model::DType::Float4,  model::DType::Int2,    model::DType::Int4,
};

// The message of the InputError `action` throws; empty when it throws none.
inline std::string inputErrorOf(const std::function<void()>& action) {
    try {
        action();
    } catch (const InputError& error) {
        return error.what();
    }
    return {};
}

} // namespace kp::test
