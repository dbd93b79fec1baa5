#include "Timing.h"

#include "core/Error.h"
#include "core/launch/RunResult.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kp::run {

namespace {

using json = nlohmann::json;

[[noreturn]] void malformed(const std::string& path, const std::string& problem) {
    throw InputError("run report: " + path + ": " + problem);
}

std::string found(const json& value) {
    if (value.is_object()) return "an object";
    if (value.is_array()) return "an array";
    std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    return text;
}

double milliseconds(const json& value, const std::string& path) {
    if (!value.is_number()) malformed(path, "expected a time in ms, found " + found(value));
    const double ms = value.get<double>();
    if (!std::isfinite(ms) || ms < 0) malformed(path, "a time cannot be " + found(value));
    return ms;
}

std::vector<double> samples(const json& report, const std::string& key) {
    const auto& value = report.at(key);
    if (!value.is_array())
        malformed(key, "expected an array of times in ms (one per repeat), found " + found(value));
    std::vector<double> out;
    out.reserve(value.size());
    for (std::size_t i = 0; i < value.size(); ++i)
        out.push_back(milliseconds(value[i], key + "[" + std::to_string(i) + "]"));
    return out;
}

std::vector<double> optionalSamples(const json& report, const std::string& key) {
    return report.contains(key) ? samples(report, key) : std::vector<double>{};
}

std::optional<double> optionalMilliseconds(const json& report, const std::string& key) {
    if (!report.contains(key)) return std::nullopt;
    return milliseconds(report.at(key), key);
}

std::string optionalText(const json& report, const std::string& key) {
    if (!report.contains(key)) return {};
    const auto& value = report.at(key);
    if (!value.is_string()) malformed(key, "expected text, found " + found(value));
    return value.get<std::string>();
}

std::uint64_t bytesCopied(const json& report, const std::string& key) {
    if (!report.contains(key)) return 0;
    const auto& list = report.at(key);
    if (!list.is_array()) malformed(key, "expected an array of {argument, bytes, ms}, found " + found(list));
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string path = key + "[" + std::to_string(i) + "]";
        if (!list[i].is_object()) malformed(path, "expected {argument, bytes, ms}, found " + found(list[i]));
        if (!list[i].contains("bytes")) malformed(path + ".bytes", "missing");
        const auto& bytes = list[i].at("bytes");
        if (!bytes.is_number_integer() || (!bytes.is_number_unsigned() && bytes.get<std::int64_t>() < 0))
            malformed(path + ".bytes", "expected a count of bytes (0 or more), found " + found(bytes));
        total += bytes.get<std::uint64_t>();
    }
    return total;
}

// Two decimals just past the 5% threshold, so a real change never reads "1.0x faster"; none past 100x.
std::string times(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", ratio >= 100 ? 0 : ratio < 1.1 ? 2 : 1, ratio);
    return text;
}

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, fraction < 0.1 ? "%.1f%%" : "%.0f%%", fraction * 100);
    return text;
}

std::string rounded(double value) {
    char text[32];
    std::snprintf(text, sizeof text, value >= 100 ? "%.0f" : "%.3g", value);
    return text;
}

} // namespace

Spread spreadOf(std::vector<double> samples) {
    if (samples.empty()) return {};
    const auto [lowest, highest] = std::minmax_element(samples.begin(), samples.end());
    return {*lowest, launch::median(samples), *highest, samples.size()};
}

RunTimings RunTimings::fromReport(const nlohmann::json& report) {
    if (!report.is_object()) throw InputError("run report: expected a JSON object, found " + found(report));
    if (!report.contains("kernel_ms"))
        malformed("kernel_ms", "missing: the report has no kernel times (did the run finish?)");
    RunTimings run;
    run.backend = optionalText(report, "backend");
    run.kernel = optionalText(report, "kernel");
    run.kernelMs = samples(report, "kernel_ms");
    run.h2dMs = optionalSamples(report, "h2d_ms");
    run.d2hMs = optionalSamples(report, "d2h_ms");
    run.referenceMs = optionalMilliseconds(report, "reference_ms");
    run.cpuBackendMs = optionalMilliseconds(report, "cpu_backend_ms");
    run.bytesIn = bytesCopied(report, "h2d_by_argument");
    run.bytesOut = bytesCopied(report, "d2h_by_argument");
    if (report.contains("cancelled")) {
        const auto& cancelled = report.at("cancelled");
        if (!cancelled.is_boolean())
            malformed("cancelled", "expected true or false, found " + found(cancelled));
        run.cancelled = cancelled.get<bool>();
    }
    if (report.contains("check")) {
        const auto& check = report.at("check");
        if (!check.is_object())
            malformed("check", "expected {passed, mismatches, ...}, found " + found(check));
        if (!check.contains("passed") || !check.at("passed").is_boolean())
            malformed("check.passed",
                      "expected true or false, found " + found(check.value("passed", json())));
        run.checkPassed = check.at("passed").get<bool>();
    }
    run.uncheckedBecause = optionalText(report, "unchecked_because");
    if (report.contains("steps")) {
        const auto& steps = report.at("steps");
        if (!steps.is_array())
            malformed("steps", "expected an array of {path, label, ms, ...}, found " + found(steps));
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const std::string path = "steps[" + std::to_string(i) + "]";
            const auto& step = steps[i];
            if (!step.is_object()) malformed(path, "expected {path, label, ms, ...}, found " + found(step));
            StepTime time;
            time.path = optionalText(step, "path");
            time.kind = optionalText(step, "kind");
            time.label = optionalText(step, "label");
            time.depth = step.value("depth", 0);
            time.calls = step.value("calls", std::uint64_t{0});
            time.ms = launch::median(optionalSamples(step, "ms"));
            run.steps.push_back(std::move(time));
        }
    }
    run.launches = report.value("launches", std::uint64_t{0});
    return run;
}

double RunTimings::totalMs() const {
    return launch::median(h2dMs) + launch::median(kernelMs) + launch::median(d2hMs);
}

Throughput throughputOf(const RunTimings& run, std::optional<double> flops, const DevicePeak& peak) {
    Throughput out;
    const double ms = launch::median(run.kernelMs);
    if (ms <= 0) return out;
    const double bytes = static_cast<double>(run.bytesIn) + static_cast<double>(run.bytesOut);
    if (bytes > 0) out.bandwidthGBs = bytes / (ms * 1e6);
    if (flops && *flops > 0) out.gflops = *flops / (ms * 1e6);
    if (run.onCpu()) return out;
    if (out.bandwidthGBs && peak.bandwidthGBs > 0)
        out.bandwidthOfPeak = *out.bandwidthGBs / peak.bandwidthGBs;
    if (out.gflops && peak.gflops > 0) out.gflopsOfPeak = *out.gflops / peak.gflops;
    return out;
}

std::string describe(const Throughput& throughput, const DevicePeak& peak) {
    std::string text;
    if (throughput.bandwidthGBs) {
        text = rounded(*throughput.bandwidthGBs) + " GB/s effective";
        if (throughput.bandwidthOfPeak)
            text += " (" + percent(*throughput.bandwidthOfPeak) + " of the " + rounded(peak.bandwidthGBs) +
                    " GB/s peak)";
    }
    if (throughput.gflops) {
        text += (text.empty() ? "" : ", ") + rounded(*throughput.gflops) + " GFLOP/s";
        if (throughput.gflopsOfPeak)
            text += " (" + percent(*throughput.gflopsOfPeak) + " of the " + rounded(peak.gflops) +
                    " GFLOP/s peak)";
    }
    return text;
}

std::string speedupText(const RunTimings& before, const RunTimings& after) {
    const double was = launch::median(before.kernelMs);
    const double now = launch::median(after.kernelMs);
    if (was <= 0 || now <= 0) return "no kernel time to compare";
    if (before.bytesIn != after.bytesIn || before.bytesOut != after.bytesOut)
        return "not compared: the arrays changed size";
    if (after.checkPassed == false) return "not compared: this run's outputs did not match the reference";
    if (before.checkPassed == false)
        return "not compared: the previous run's outputs did not match the reference";
    if (was >= now * 1.05) return times(was / now) + "x faster";
    if (now >= was * 1.05) return times(now / was) + "x slower";
    return "about the same";
}

std::string formatMilliseconds(double ms) {
    if (!std::isfinite(ms)) return "-";
    if (ms == 0) return "0";
    // Two digits after the leading one, so 0.0123 and 12.3 carry the same precision.
    const int decimals = std::clamp(2 - static_cast<int>(std::floor(std::log10(std::abs(ms)))), 0, 6);
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", decimals, ms);
    return text;
}

std::string formatDuration(double ms) {
    if (!std::isfinite(ms)) return "-";
    if (ms == 0) return "0 s";
    struct Unit {
        double perMs;
        const char* name;
    };
    static constexpr Unit units[] = {{1e6, "ns"}, {1e3, "µs"}, {1, "ms"}, {1e-3, "s"}};
    // The first unit in which the value, rounded to three digits, is under 1000; seconds past that.
    for (const Unit& unit : units) {
        const double value = ms * unit.perMs;
        if (std::abs(value) < 999.5 || unit.perMs == 1e-3) {
            const int decimals =
                std::abs(value) < 1
                    ? 2
                    : std::clamp(2 - static_cast<int>(std::floor(std::log10(std::abs(value)))), 0, 2);
            char text[48];
            std::snprintf(text, sizeof text, "%.*f %s", decimals, value, unit.name);
            return text;
        }
    }
    return "-";
}

} // namespace kp::run
