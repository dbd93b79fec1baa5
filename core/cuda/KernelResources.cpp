#include "KernelResources.h"

#include "core/Error.h"
#include "core/Lines.h"

#include <charconv>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>
#include <optional>

namespace kp::cuda {

namespace {

using nlohmann::json;

// The number that ends just before `at` in `text`, spaces between allowed.
std::optional<int> numberEndingAt(std::string_view text, std::size_t at) {
    auto end = at;
    while (end > 0 && text[end - 1] == ' ')
        --end;
    auto begin = end;
    while (begin > 0 && text[begin - 1] >= '0' && text[begin - 1] <= '9')
        --begin;
    int value = 0;
    if (begin == end || std::from_chars(text.data() + begin, text.data() + end, value).ec != std::errc())
        return std::nullopt;
    return value;
}

// The number written just before `unit` in `text` ("2408 bytes stack frame" with unit "bytes stack"),
// or nullopt when `unit` is not there.
std::optional<int> numberBefore(std::string_view text, std::string_view unit) {
    const auto at = text.find(unit);
    return at == std::string_view::npos ? std::nullopt : numberEndingAt(text, at);
}

// The text between the first pair of single quotes: "Compiling entry function 'NAME' for 'sm_90'".
std::string_view quoted(std::string_view text) {
    const auto open = text.find('\'');
    const auto close = open == std::string_view::npos ? open : text.find('\'', open + 1);
    return close == std::string_view::npos ? std::string_view() : text.substr(open + 1, close - open - 1);
}

// Every "N bytes cmem[K]" on a line, summed; nullopt when there is none (ptxas for sm_90 and newer
// does not print them).
std::optional<int> constantBytes(std::string_view line) {
    std::optional<int> total;
    for (auto at = line.find("bytes cmem["); at != std::string_view::npos;
         at = line.find("bytes cmem[", at + 1)) {
        if (const auto n = numberEndingAt(line, at)) total = total.value_or(0) + *n;
    }
    return total;
}

} // namespace

std::string demangle(const std::string& symbol) {
    // Only function names: __cxa_demangle also reads type names, and an extern "C" kernel named "a" or "f"
    // would come back as "signed char" or "float".
    if (!symbol.starts_with("_Z")) return symbol;
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> text(
        abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && text ? std::string(text.get()) : symbol;
}

std::vector<KernelResources> KernelResources::fromPtxasLog(std::string_view log) {
    std::vector<KernelResources> kernels;
    KernelResources* current = nullptr; // the kernel being compiled
    bool propertiesOfCurrent = false;   // the last "Function properties for" named it
    for (const std::string_view line : splitLines(log)) {
        if (line.find("Compiling entry function") != std::string_view::npos) {
            KernelResources kernel;
            kernel.name = std::string(quoted(line));
            kernel.displayName = demangle(kernel.name);
            kernels.push_back(std::move(kernel));
            current = &kernels.back();
            propertiesOfCurrent = false;
        } else if (const auto at = line.find("Function properties for "); at != std::string_view::npos) {
            auto name = line.substr(at + 24);
            while (!name.empty() && (name.back() == ' ' || name.back() == '\r'))
                name.remove_suffix(1);
            propertiesOfCurrent = current && name == current->name;
        } else if (current && propertiesOfCurrent &&
                   line.find("bytes stack frame") != std::string_view::npos) {
            current->stackBytes = numberBefore(line, "bytes stack frame").value_or(0);
            current->spillStoreBytes = numberBefore(line, "bytes spill stores").value_or(0);
            current->spillLoadBytes = numberBefore(line, "bytes spill loads").value_or(0);
        } else if (current && line.find("Used ") != std::string_view::npos &&
                   line.find(" registers") != std::string_view::npos) {
            current->registers = numberBefore(line, "registers").value_or(0);
            current->barriers = numberBefore(line, "barriers").value_or(0);
            current->sharedBytes = numberBefore(line, "bytes smem").value_or(0);
            current->constBytes = constantBytes(line).value_or(-1);
        }
    }
    return kernels;
}

json KernelResources::toJson() const {
    return {{"name", name},
            {"display_name", displayName},
            {"registers", registers},
            {"stack_bytes", stackBytes},
            {"shared_bytes", sharedBytes},
            {"spill_store_bytes", spillStoreBytes},
            {"spill_load_bytes", spillLoadBytes},
            {"const_bytes", constBytes},
            {"barriers", barriers}};
}

KernelResources KernelResources::fromJson(const json& j) {
    try {
        return {j.at("name").get<std::string>(),     j.at("display_name").get<std::string>(),
                j.at("registers").get<int>(),        j.at("stack_bytes").get<int>(),
                j.at("shared_bytes").get<int>(),     j.at("spill_store_bytes").get<int>(),
                j.at("spill_load_bytes").get<int>(), j.at("const_bytes").get<int>(),
                j.at("barriers").get<int>()};
    } catch (const json::exception& e) {
        throw InputError(std::string("kernel resources: ") + e.what());
    }
}

} // namespace kp::cuda
