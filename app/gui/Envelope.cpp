#include "Envelope.h"

#include "ValueReader.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kCancelCheckBuckets = 8192; // ~1M elements between looks at the cancel flag
} // namespace

template <typename Value>
std::optional<Envelope> Envelope::build(std::size_t size, const Value& value,
                                        const std::atomic<bool>* cancel) {
    Envelope e;
    e.size_ = size;
    std::vector<MinMax> level((size + kFirstBucket - 1) / kFirstBucket);
    for (std::size_t b = 0; b < level.size(); ++b) {
        if (b % kCancelCheckBuckets == 0 && cancel && cancel->load(std::memory_order_relaxed))
            return std::nullopt;
        MinMax m;
        const std::size_t end = std::min(size, (b + 1) * kFirstBucket);
        for (std::size_t i = b * kFirstBucket; i < end; ++i) {
            const double v = value(i);
            if (std::isfinite(v)) m.add(v);
        }
        level[b] = m;
    }
    e.levels_.push_back(std::move(level));
    // Coarser levels until one has at most kFactor buckets: each is 1/8 of the one below, so all of
    // them together add 1/7 to the first.
    while (e.levels_.back().size() > kFactor) {
        const auto& below = e.levels_.back();
        std::vector<MinMax> next((below.size() + kFactor - 1) / kFactor);
        for (std::size_t b = 0; b < below.size(); ++b)
            next[b / kFactor].add(below[b]);
        e.levels_.push_back(std::move(next));
    }
    return e;
}

std::optional<Envelope> Envelope::ofValues(std::shared_ptr<const kp::model::Array> array, int component,
                                           const std::atomic<bool>* cancel) {
    return withValueReader(*array, component, [&](auto read) {
        auto e = build(array->size(), read, cancel);
        if (e)
            e->elements_ = [array, read](std::size_t first, std::size_t count, double* out) {
                for (std::size_t i = 0; i < count; ++i)
                    out[i] = read(first + i);
            };
        return e;
    });
}

std::optional<Envelope> Envelope::ofMismatches(std::shared_ptr<const kp::model::Array> actual,
                                               std::shared_ptr<const kp::model::Array> expected,
                                               const kp::run::Tolerance& tolerance, int component,
                                               const std::atomic<bool>* cancel) {
    auto marker = [tolerance](double a, double x) {
        if (kp::run::matches(a, x, tolerance)) return kNaN;
        return std::isnan(a) ? x : a;
    };
    return withValueReaders(*actual, *expected, component, [&](auto readActual, auto readExpected) {
        auto e = build(
            actual->size(), [&](std::size_t i) { return marker(readActual(i), readExpected(i)); }, cancel);
        if (e)
            e->elements_ = [actual, expected, readActual, readExpected,
                            marker](std::size_t first, std::size_t count, double* out) {
                for (std::size_t i = 0; i < count; ++i)
                    out[i] = marker(readActual(first + i), readExpected(first + i));
            };
        return e;
    });
}

std::size_t Envelope::bucketSize(std::size_t level) const {
    std::size_t elements = 1; // level 0 is the elements themselves
    for (std::size_t l = 1; l <= level; ++l)
        elements *= l == 1 ? kFirstBucket : kFactor;
    return elements;
}

double Envelope::elementsPerBucket(double from, double to, int buckets) const {
    if (size_ == 0 || buckets < 1) return 1;
    const double first = std::clamp(std::floor(from) - 1, 0.0, double(size_ - 1));
    const double last = std::clamp(std::ceil(to) + 1, 0.0, double(size_ - 1));
    const double span = (last - first + 1) / buckets;
    return span < 2 ? 1 : span;
}

Envelope::Samples Envelope::sample(double from, double to, int buckets) const {
    Samples s;
    if (size_ == 0 || buckets < 1 || !(from <= to) || to < 0 || from > double(size_ - 1)) return s;
    const auto first = static_cast<std::size_t>(std::clamp(std::floor(from) - 1, 0.0, double(size_ - 1)));
    const auto last = static_cast<std::size_t>(std::clamp(std::ceil(to) + 1, 0.0, double(size_ - 1)));
    const double span = elementsPerBucket(from, to, buckets);
    std::size_t level = 0;
    while (span > 1 && level < levels_.size() && double(bucketSize(level + 1)) <= span)
        ++level;
    // Level 0: the elements themselves, read in one call (up to 128 per bucket).
    std::vector<double> elements(level == 0 ? last - first + 1 : 0);
    if (level == 0) elements_(first, elements.size(), elements.data());
    if (span == 1) {
        for (std::size_t i = 0; i < elements.size(); ++i) {
            s.keys.push_back(double(first + i));
            s.values.push_back(std::isfinite(elements[i]) ? elements[i] : kNaN);
        }
        return s;
    }
    auto bucket = [&](std::size_t b) {
        if (level > 0) return levels_[level - 1][b];
        MinMax m;
        if (std::isfinite(elements[b - first])) m.add(elements[b - first]);
        return m;
    };
    const std::size_t size = bucketSize(level);
    auto flush = [&](std::size_t group, const MinMax& m) {
        const double key = double(first) + (double(group) + 0.5) * span;
        s.keys.push_back(key);
        s.values.push_back(m.empty() ? kNaN : m.min);
        if (m.empty() || m.max == m.min) return;
        s.keys.push_back(key);
        s.values.push_back(m.max);
    };
    std::size_t group = 0;
    MinMax current;
    for (std::size_t b = first / size; b <= last / size; ++b) {
        const std::size_t start = std::max(b * size, first);
        const auto g = static_cast<std::size_t>(double(start - first) / span);
        if (g != group) {
            flush(group, current);
            group = g;
            current = MinMax{};
        }
        current.add(bucket(b));
    }
    flush(group, current);
    return s;
}

std::optional<std::pair<double, double>> Envelope::range() const {
    MinMax all;
    if (levels_.empty()) return std::nullopt;
    for (const auto& m : levels_.back())
        all.add(m);
    if (all.empty()) return std::nullopt;
    return std::pair{all.min, all.max};
}
