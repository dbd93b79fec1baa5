#include "BenchTable.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

namespace kp::bench {

namespace {
double ratioOf(const Row& r) {
    return r.baseline > 0 ? r.ours / r.baseline : 0.0;
}
bool missed(const Row& r) {
    return r.goalRatio > 0 && r.baseline > 0 && ratioOf(r) > r.goalRatio;
}
} // namespace

void BenchTable::add(Row row) {
    rows_.push_back(std::move(row));
}

void BenchTable::print() const {
    std::printf("%-52s %12s %12s %8s  %-18s\n", "figure", "kernelpad", "raw", "ratio", "goal");
    for (const auto& r : rows_) {
        const std::string label = r.figure + " (" + r.unit + ")";
        if (r.baseline > 0)
            std::printf("%-52s %12.4f %12.4f %8.3f  %-18s%s\n", label.c_str(), r.ours, r.baseline, ratioOf(r),
                        r.goal.c_str(), missed(r) ? "  MISSED" : "");
        else
            std::printf("%-52s %12.4f %12s %8s  %-18s\n", label.c_str(), r.ours, "-", "-", r.goal.c_str());
    }
}

void BenchTable::writeJson(const std::string& path) const {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& r : rows_)
        rows.push_back({{"figure", r.figure},
                        {"unit", r.unit},
                        {"kernelpad", r.ours},
                        {"raw", r.baseline},
                        {"ratio", ratioOf(r)},
                        {"goal", r.goal},
                        {"missed", missed(r)}});
    std::ofstream(path) << rows.dump(2) << "\n";
}

int BenchTable::missedGoals() const {
    return static_cast<int>(std::count_if(rows_.begin(), rows_.end(), missed));
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

double medianMs(int repeat, const std::function<void()>& body) {
    std::vector<double> samples;
    for (int i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        body();
        samples.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return median(samples);
}

} // namespace kp::bench
