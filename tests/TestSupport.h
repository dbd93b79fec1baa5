// Small helpers the core's test suites share: whole-file text I/O, every dtype, the message of an
// expected InputError, and a run setup from inline code.
#pragma once

#include "core/Error.h"
#include "core/io/PlaygroundFile.h"
#include "core/model/DType.h"
#include "core/run/RunSetup.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace kp::test {

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
inline run::RunSetup setupOf(const std::string& code, const std::string& kernel, const std::vector<nlohmann::json>& args,
                             const nlohmann::json& launch, const std::filesystem::path& path) {
    nlohmann::json playground = {{"format", "kernelpad/1"}, {"code", code}, {"kernel", kernel}, {"launch", launch}};
    playground["args"] = args;
    return run::prepare(io::parsePlayground(playground.dump(), path));
}

inline constexpr model::DType kAllTypes[] = {
    model::DType::Int8,    model::DType::UInt8,  model::DType::Int16,  model::DType::UInt16,
    model::DType::Int32,   model::DType::UInt32, model::DType::Int64,  model::DType::UInt64,
    model::DType::Float16, model::DType::Float32, model::DType::Float64, model::DType::Float2,
    model::DType::Float4,  model::DType::Int2,   model::DType::Int4,
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
