#include "SweepResult.h"

#include "core/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace kp::run {

namespace {

using json = nlohmann::json;

double medianOf(const std::vector<double>& samples) {
    return spreadOf(samples).median;
}

// Reads members with the path of each in its error, so a hand-edited file says where it is wrong.
class Reader {
public:
    Reader(const json& object, std::string where) : object_(object), where_(std::move(where)) {
        if (!object_.is_object()) fail(where_, "expected an object");
    }
    [[noreturn]] static void fail(const std::string& path, const std::string& problem) {
        throw InputError(path + ": " + problem);
    }
    std::string path(const std::string& key) const { return where_ + "." + key; }
    const json* find(const std::string& key) const {
        const auto it = object_.find(key);
        return it == object_.end() ? nullptr : &*it;
    }
    const json& need(const std::string& key) const {
        if (const auto* value = find(key)) return *value;
        fail(path(key), "missing");
    }
    std::string text(const std::string& key, bool required = false) const {
        const auto* value = required ? &need(key) : find(key);
        if (!value) return {};
        if (!value->is_string()) fail(path(key), "expected text");
        return value->get<std::string>();
    }
    double number(const std::string& key) const {
        const auto& value = need(key);
        if (!value.is_number()) fail(path(key), "expected a number");
        return value.get<double>();
    }
    std::uint64_t count(const std::string& key) const {
        const auto& value = need(key);
        if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<std::int64_t>() >= 0))
            fail(path(key), "expected a whole number, 0 or more");
        return value.get<std::uint64_t>();
    }
    std::vector<double> times(const std::string& key) const {
        const auto* value = find(key);
        if (!value) return {};
        if (!value->is_array()) fail(path(key), "expected an array of times in ms");
        std::vector<double> out;
        for (std::size_t i = 0; i < value->size(); ++i) {
            const auto& t = (*value)[i];
            if (!t.is_number() || !std::isfinite(t.get<double>()) || t.get<double>() < 0)
                fail(path(key) + "[" + std::to_string(i) + "]", "expected a time in ms, 0 or more");
            out.push_back(t.get<double>());
        }
        return out;
    }
    std::array<std::uint32_t, 3> dims(const std::string& key) const {
        const auto& value = need(key);
        if (!value.is_array() || value.size() != 3) fail(path(key), "expected three whole numbers [x, y, z]");
        std::array<std::uint32_t, 3> out{};
        for (std::size_t i = 0; i < 3; ++i) {
            if (!value[i].is_number_unsigned())
                fail(path(key) + "[" + std::to_string(i) + "]", "expected a whole number");
            out[i] = value[i].get<std::uint32_t>();
        }
        return out;
    }

private:
    const json& object_;
    std::string where_;
};

// Numbers in a CSV cell: enough digits for a time or a rate, never locale-dependent.
std::string cell(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

std::string cell(const std::optional<double>& value) {
    return value ? cell(*value) : std::string();
}

// RFC 4180: quote a cell holding a comma, quote or line break.
std::string quoted(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string dims(const std::array<std::uint32_t, 3>& d) {
    return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

// The order CPU backends are compared in: the reference first (what the tutorials timed against),
// then the CPU backend on all cores, then on fewer.
int cpuRank(const std::string& id) {
    if (id == "reference") return 0;
    if (id == "cpu") return 1;
    return 2;
}

} // namespace

double SweepRow::timeMs(bool withTransfers) const {
    double ms = medianOf(kernelMs);
    if (withTransfers && onGpu()) ms += medianOf(h2dMs) + medianOf(d2hMs);
    return ms;
}

std::optional<double> SweepRow::elementsPerSecond() const {
    const double ms = medianOf(kernelMs);
    if (!ran() || ms <= 0) return std::nullopt;
    return static_cast<double>(elements) / (ms * 1e-3);
}

std::optional<double> SweepRow::gigabytesPerSecond() const {
    const double ms = medianOf(kernelMs);
    if (!ran() || ms <= 0 || bytes == 0) return std::nullopt;
    return static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

std::optional<double> SweepRow::gflops() const {
    const double ms = medianOf(kernelMs);
    if (!ran() || ms <= 0 || !flops) return std::nullopt;
    return *flops / (ms * 1e-3) / 1e9;
}

std::optional<double> SweepRow::intensity() const {
    if (!flops || bytes == 0) return std::nullopt;
    return *flops / static_cast<double>(bytes);
}

double roofGflops(const DevicePeak& peak, double intensity) {
    if (peak.bandwidthGBs <= 0 || peak.gflops <= 0) return 0;
    return std::min(peak.gflops, peak.bandwidthGBs * intensity);
}

const SweepBackendInfo* SweepResult::backend(std::string_view id) const {
    for (const auto& b : backends)
        if (b.id == id) return &b;
    return nullptr;
}

std::vector<const SweepRow*> SweepResult::rowsOf(std::string_view backendId) const {
    std::vector<const SweepRow*> out;
    for (const auto& row : rows)
        if (row.backend == backendId) out.push_back(&row);
    std::stable_sort(out.begin(), out.end(),
                     [this](const SweepRow* a, const SweepRow* b) { return x(*a) < x(*b); });
    return out;
}

double SweepResult::x(const SweepRow& row) const {
    return spec.parameter == SweepParameter::ProblemSize ? static_cast<double>(row.elements)
                                                         : static_cast<double>(row.value);
}

std::string SweepResult::parameterLabel() const {
    if (spec.parameter == SweepParameter::BlockSize) return "threads per block (blockDim.x)";
    return array.empty() ? std::string("elements") : "elements of " + array;
}

json toJson(const SweepRow& r) {
    json row = {{"value", r.value},     {"elements", r.elements},  {"block", r.block}, {"grid", r.grid},
                {"backend", r.backend}, {"kernel_ms", r.kernelMs}, {"bytes", r.bytes}};
    if (!r.h2dMs.empty()) row["h2d_ms"] = r.h2dMs;
    if (!r.d2hMs.empty()) row["d2h_ms"] = r.d2hMs;
    if (r.flops) row["flops"] = *r.flops;
    if (!r.check.empty()) row["check"] = r.check;
    if (!r.error.empty()) row["error"] = r.error;
    return row;
}

SweepRow sweepRowFromJson(const json& value, const std::string& where) {
    const Reader r(value, where);
    SweepRow row;
    const auto& v = r.need("value");
    if (!v.is_number_integer()) Reader::fail(r.path("value"), "expected a whole number");
    row.value = v.get<std::int64_t>();
    row.elements = r.count("elements");
    row.block = r.dims("block");
    row.grid = r.dims("grid");
    row.backend = r.text("backend", true);
    row.kernelMs = r.times("kernel_ms");
    row.h2dMs = r.times("h2d_ms");
    row.d2hMs = r.times("d2h_ms");
    row.bytes = r.count("bytes");
    if (r.find("flops")) row.flops = r.number("flops");
    row.check = r.text("check");
    row.error = r.text("error");
    return row;
}

json SweepResult::toJson() const {
    json out = {
        {"title", title}, {"kernel", kernel}, {"array", array}, {"notes", notes}, {"cancelled", cancelled}};
    out["backends"] = json::array();
    for (const auto& b : backends)
        out["backends"].push_back({{"id", b.id},
                                   {"name", b.name},
                                   {"peak_bandwidth_gbs", b.peak.bandwidthGBs},
                                   {"peak_gflops", b.peak.gflops}});
    out["rows"] = json::array();
    for (const auto& r : rows)
        out["rows"].push_back(run::toJson(r));
    return out;
}

SweepResult SweepResult::fromJson(const json& value, const std::string& where) {
    const Reader in(value, where);
    SweepResult result;
    result.title = in.text("title");
    result.kernel = in.text("kernel");
    result.array = in.text("array");
    if (const auto* cancelled = in.find("cancelled")) {
        if (!cancelled->is_boolean()) Reader::fail(in.path("cancelled"), "expected true or false");
        result.cancelled = cancelled->get<bool>();
    }
    if (const auto* notes = in.find("notes")) {
        if (!notes->is_array()) Reader::fail(in.path("notes"), "expected an array of text");
        for (std::size_t i = 0; i < notes->size(); ++i) {
            if (!(*notes)[i].is_string())
                Reader::fail(in.path("notes") + "[" + std::to_string(i) + "]", "expected text");
            result.notes.push_back((*notes)[i].get<std::string>());
        }
    }
    const auto& backends = in.need("backends");
    if (!backends.is_array()) Reader::fail(in.path("backends"), "expected an array");
    for (std::size_t i = 0; i < backends.size(); ++i) {
        const Reader b(backends[i], in.path("backends") + "[" + std::to_string(i) + "]");
        result.backends.push_back(
            {b.text("id", true), b.text("name"), {b.number("peak_bandwidth_gbs"), b.number("peak_gflops")}});
    }
    const auto& rows = in.need("rows");
    if (!rows.is_array()) Reader::fail(in.path("rows"), "expected an array");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto row = sweepRowFromJson(rows[i], in.path("rows") + "[" + std::to_string(i) + "]");
        if (!result.backend(row.backend))
            Reader::fail(in.path("rows") + "[" + std::to_string(i) + "].backend",
                         "\"" + row.backend + "\" is not one of the sweep's backends");
        result.rows.push_back(std::move(row));
    }
    return result;
}

std::string SweepResult::csvHeader() {
    return "parameter,value,elements,block,grid,backend,repeats,kernel_min_ms,kernel_median_ms,kernel_max_ms,"
           "h2d_median_ms,d2h_median_ms,with_copies_ms,bytes,gb_per_s,elements_per_s,gflop_per_s,check,"
           "error\n";
}

std::string SweepResult::csvLine(const SweepRow& row) const {
    std::ostringstream out;
    const auto spread = row.kernel();
    const bool ran = row.ran();
    out << name(spec.parameter) << ',' << row.value << ',' << row.elements << ',' << dims(row.block) << ','
        << dims(row.grid) << ',' << quoted(row.backend) << ',' << row.kernelMs.size() << ','
        << (ran ? cell(spread.min) : "") << ',' << (ran ? cell(spread.median) : "") << ','
        << (ran ? cell(spread.max) : "") << ',' << (row.h2dMs.empty() ? "" : cell(medianOf(row.h2dMs))) << ','
        << (row.d2hMs.empty() ? "" : cell(medianOf(row.d2hMs))) << ',' << (ran ? cell(row.timeMs(true)) : "")
        << ',' << row.bytes << ',' << cell(row.gigabytesPerSecond()) << ',' << cell(row.elementsPerSecond())
        << ',' << cell(row.gflops()) << ',' << quoted(row.check) << ',' << quoted(row.error) << '\n';
    return out.str();
}

std::string SweepResult::toCsv() const {
    std::string out = csvHeader();
    for (const auto& row : rows)
        out += csvLine(row);
    return out;
}

Crossover crossover(const SweepResult& result, std::string_view gpu, std::string_view cpu,
                    bool withTransfers) {
    Crossover c{std::string(gpu), std::string(cpu), withTransfers, Crossover::Kind::TooFewPoints, 0, 0};
    // The x values where both ran, with the two times there.
    struct Pair {
        double x, gpuMs, cpuMs;
    };
    std::vector<Pair> pairs;
    const auto cpuRows = result.rowsOf(cpu);
    for (const auto* g : result.rowsOf(gpu)) {
        if (!g->ran()) continue;
        for (const auto* h : cpuRows)
            if (h->ran() && h->value == g->value) {
                pairs.push_back({result.x(*g), g->timeMs(withTransfers), h->timeMs(false)});
                break;
            }
    }
    if (pairs.size() < 2) return c;
    // The last point where the GPU is not faster: from the next one on, it wins at every point.
    std::ptrdiff_t last = -1;
    for (std::size_t i = 0; i < pairs.size(); ++i)
        if (pairs[i].gpuMs >= pairs[i].cpuMs) last = static_cast<std::ptrdiff_t>(i);
    if (last < 0) {
        c.kind = Crossover::Kind::GpuFasterThroughout;
        c.x = pairs.front().x;
        return c;
    }
    if (last == static_cast<std::ptrdiff_t>(pairs.size()) - 1) {
        c.kind = Crossover::Kind::GpuNeverFaster;
        c.x = pairs.back().x;
        return c;
    }
    // Between a and b the ratio gpu/cpu goes from >= 1 to < 1: where its logarithm, a straight line
    // in log x, is zero.
    const auto& a = pairs[static_cast<std::size_t>(last)];
    const auto& b = pairs[static_cast<std::size_t>(last) + 1];
    const auto logRatio = [](const Pair& p) {
        return std::log(std::max(p.gpuMs, 1e-12) / std::max(p.cpuMs, 1e-12));
    };
    const double ra = logRatio(a), rb = logRatio(b);
    const double t = ra - rb > 0 ? ra / (ra - rb) : 0.0;
    const double lx = std::log(a.x) + t * (std::log(b.x) - std::log(a.x));
    const double lt = std::log(std::max(a.cpuMs, 1e-12)) +
                      t * (std::log(std::max(b.cpuMs, 1e-12)) - std::log(std::max(a.cpuMs, 1e-12)));
    c.kind = Crossover::Kind::Found;
    c.x = std::exp(lx);
    c.timeMs = std::exp(lt);
    return c;
}

std::vector<std::string> cpusInOrder(const SweepResult& result) {
    std::vector<std::string> cpus;
    for (const auto& b : result.backends)
        if (!b.onGpu()) cpus.push_back(b.id);
    std::stable_sort(cpus.begin(), cpus.end(),
                     [](const auto& a, const auto& b) { return cpuRank(a) < cpuRank(b); });
    return cpus;
}

std::string preferredCpu(const SweepResult& result) {
    const auto cpus = cpusInOrder(result);
    return cpus.empty() ? std::string() : cpus.front();
}

std::vector<Crossover> crossovers(const SweepResult& result) {
    if (result.spec.parameter == SweepParameter::BlockSize) return {};
    std::vector<std::string> gpus;
    for (const auto& b : result.backends)
        if (b.onGpu()) gpus.push_back(b.id);
    const auto cpus = cpusInOrder(result);
    std::vector<Crossover> out;
    for (const auto& gpu : gpus)
        for (const auto& cpu : cpus)
            for (const bool withTransfers : {false, true})
                out.push_back(crossover(result, gpu, cpu, withTransfers));
    return out;
}

// A crossover is interpolated: three significant digits are all it can claim.
double roughly(double x) {
    if (x <= 0 || !std::isfinite(x)) return x;
    const double scale = std::pow(10.0, std::floor(std::log10(x)) - 2);
    return std::round(x / scale) * scale;
}

std::string describe(const Crossover& c, const SweepResult& result) {
    const auto nameOf = [&](const std::string& id) {
        if (id == "reference") return std::string("the C++ reference");
        if (id == "cpu") return std::string("the CPU backend");
        if (id.rfind("cpu:", 0) == 0) {
            const auto threads = id.substr(4);
            return "the CPU backend on " + threads + (threads == "1" ? " core" : " cores");
        }
        return id;
    };
    const std::string what = c.withTransfers ? " (with copies)" : " (kernel only)";
    const std::string unit = result.spec.parameter == SweepParameter::BlockSize
                                 ? " threads per block"
                                 : " " + result.parameterLabel();
    switch (c.kind) {
    case Crossover::Kind::Found:
        return c.gpu + " beats " + nameOf(c.cpu) + " from about " + formatCount(roughly(c.x)) + unit + what;
    case Crossover::Kind::GpuFasterThroughout:
        return c.gpu + " beats " + nameOf(c.cpu) + " already at " + formatCount(c.x) + unit + what;
    case Crossover::Kind::GpuNeverFaster:
        return c.gpu + " does not beat " + nameOf(c.cpu) + " up to " + formatCount(c.x) + unit + what;
    case Crossover::Kind::TooFewPoints:
        break;
    }
    return c.gpu + " and " + nameOf(c.cpu) + ": too few points ran on both to compare" + what;
}

std::string formatCount(double count) {
    if (!std::isfinite(count)) return "?";
    char buffer[48];
    if (std::fabs(count) >= 1e7) {
        std::snprintf(buffer, sizeof buffer, "%.3g million", count / 1e6);
        return buffer;
    }
    std::snprintf(buffer, sizeof buffer, "%.0f", std::round(count));
    std::string digits = buffer;
    const bool negative = !digits.empty() && digits[0] == '-';
    if (negative) digits.erase(0, 1);
    for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return (negative ? "-" : "") + digits;
}

} // namespace kp::run

namespace kp::run {

std::optional<SweepSpec> storedSweepSpec(const model::Playground& playground) {
    const auto it = playground.extra.find("sweep");
    if (it == playground.extra.end()) return std::nullopt;
    return SweepSpec::fromJson(*it, "sweep");
}

std::optional<SweepResult> storedSweepResult(const model::Playground& playground) {
    const auto it = playground.extra.find("sweep");
    if (it == playground.extra.end() || !it->is_object() || !it->contains("results")) return std::nullopt;
    auto result = SweepResult::fromJson(it->at("results"), "sweep.results");
    result.spec = SweepSpec::fromJson(*it, "sweep");
    return result;
}

void storeSweep(model::Playground& playground, const SweepSpec& spec, const SweepResult* results) {
    auto stored = spec.toJson();
    if (results) stored["results"] = results->toJson();
    playground.extra["sweep"] = std::move(stored);
}

} // namespace kp::run
