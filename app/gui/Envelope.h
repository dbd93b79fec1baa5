// The min and max of one component of an array over buckets of 128, 1024, 8192, ... elements: how
// ArrayPlot draws a 100M-element output as a few thousand points at any zoom, never handing QCustomPlot
// the array itself. Built once (off the GUI thread for big arrays), sampled on the GUI thread per zoom.
#pragma once

#include "core/model/Array.h"
#include "core/run/Check.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class Envelope {
public:
    // The values of `array`'s `component`. Nullopt when `cancel` was set before it was done.
    static std::optional<Envelope> ofValues(std::shared_ptr<const kp::model::Array> array, int component,
                                            const std::atomic<bool>* cancel = nullptr);
    // The actual values only where they do not match `expected` (kp::run::matches): the mismatch
    // markers. An actual NaN against a number is marked at the expected value. Same dtype and shape.
    static std::optional<Envelope> ofMismatches(std::shared_ptr<const kp::model::Array> actual,
                                                std::shared_ptr<const kp::model::Array> expected,
                                                const kp::run::Tolerance& tolerance, int component,
                                                const std::atomic<bool>* cancel = nullptr);

    struct Samples {
        std::vector<double> keys;   // element indices, ascending
        std::vector<double> values; // NaN: a gap (no finite value there)
    };
    // Points for elements [from, to] and one beyond each end, with about `buckets` buckets: each element
    // when there are fewer than 2 per bucket, else each bucket's min then max, read from the finest
    // level that needs no more than ~8 reads per bucket. Infinities and NaN are gaps.
    Samples sample(double from, double to, int buckets) const;
    // Elements per point of sample(from, to, buckets): 1 when it returns every element.
    double elementsPerBucket(double from, double to, int buckets) const;

    std::size_t size() const { return size_; }
    // The finite min and max of all elements; nullopt when there is none.
    std::optional<std::pair<double, double>> range() const;

    static constexpr std::size_t kFirstBucket = 128; // elements per bucket of the first level
    static constexpr std::size_t kFactor = 8;        // buckets of a level per bucket of the next

private:
    struct MinMax {
        double min = std::numeric_limits<double>::infinity();
        double max = -std::numeric_limits<double>::infinity();
        bool empty() const { return min > max; }
        void add(double v) {
            min = v < min ? v : min;
            max = v > max ? v : max;
        }
        void add(const MinMax& m) {
            min = m.min < min ? m.min : min;
            max = m.max > max ? m.max : max;
        }
    };
    template <typename Value>
    static std::optional<Envelope> build(std::size_t size, const Value& value,
                                         const std::atomic<bool>* cancel);
    std::size_t bucketSize(std::size_t level) const;

    std::size_t size_ = 0;
    // Level 0: elements [first, first + count) into out, read from the array when zoomed in.
    std::function<void(std::size_t first, std::size_t count, double* out)> elements_;
    std::vector<std::vector<MinMax>> levels_; // levels_[0]: buckets of kFirstBucket elements
};
