// The table every benchmark prints: a figure through Kernelpad, the same figure done raw in the same
// run, their ratio and the goal; also written as JSON for the closing notes and later comparisons.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace kp::bench {

struct Row {
    std::string figure;
    std::string unit;
    double ours = 0;
    double baseline = 0;  // 0: no baseline for this figure
    std::string goal;     // e.g. "ratio <= 1.05"
    double goalRatio = 0; // 0: informational
};

class BenchTable {
public:
    void add(Row row);
    void print() const;
    void writeJson(const std::string& path) const;
    // Rows whose ratio misses its goal (printed, never asserted: benchmarks report, tests assert).
    int missedGoals() const;

private:
    std::vector<Row> rows_;
};

double median(std::vector<double> values);
// The median wall time of `repeat` calls of `body`, in milliseconds.
double medianMs(int repeat, const std::function<void()>& body);

} // namespace kp::bench
