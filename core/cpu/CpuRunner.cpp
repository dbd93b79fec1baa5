#include "CpuRunner.h"

#include "BarrierSplit.h"
#include "BlockState.h"
#include "ContainedRun.h"
#include "CudaHostHeader.h"
#include "ThreadFibers.h"
#include "core/SharedLibrary.h"
#include "core/Stopwatch.h"
#include "core/launch/CompileError.h"
#include "core/launch/KernelFault.h"
#include "core/launch/Repeats.h"
#include "core/sandbox/ChildSharedAllocator.h"
#include "core/sandbox/Contained.h"
#include "core/source/Lexer.h"
#include "core/source/SynchronisingCall.h"

#include <algorithm>
#include <array>
#include <atomic>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif
#include <barrier>
#include <chrono>
#include <cstring>
#include <latch>
#include <mutex>
#include <regex>
#include <string_view>
#include <thread>

namespace kp::cpu {

namespace {

using Clock = std::chrono::steady_clock;

// CUDA's uint3 as the generated code passes it (three unsigned ints, by value).
struct uint3Like {
    unsigned x, y, z;
};

// `extern __shared__ T name[];`, its specifiers in any order (`extern float __shared__ s[]`, with
// __align__(n), alignas(n) or volatile among them), has no host C++ spelling: it becomes `make(type, name)`,
// with the declaration's line breaks kept after it so that diagnostics keep their line numbers.
template <typename Make> std::string rewriteDynamicShared(const std::string& source, Make make) {
    source::Lexer lexer(source);
    const auto tokens = lexer.rest();
    const auto word = [&](std::size_t i) { return lexer.text(tokens[i]); };
    const auto ends = [&](std::size_t i) {
        return tokens[i].inDirective || tokens[i].kind == source::TokenKind::Directive || word(i) == ";" ||
               word(i) == "{" || word(i) == "}";
    };
    std::string out;
    std::size_t copied = 0;
    std::size_t start = 0; // the first token of the current declaration or statement
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (ends(i)) {
            start = i + 1;
            continue;
        }
        if (tokens[i].kind != source::TokenKind::Identifier || word(i) != "extern") continue;
        std::size_t end = i + 1; // the declaration's ';'
        while (end < tokens.size() && !ends(end))
            ++end;
        if (end == tokens.size() || word(end) != ";" || end < start + 5 || word(end - 1) != "]" ||
            word(end - 2) != "[" || tokens[end - 3].kind != source::TokenKind::Identifier)
            continue;
        bool shared = false;
        std::string type;
        for (std::size_t j = start; j < end - 3; ++j) {
            if (word(j) == "__shared__") {
                shared = true;
            } else if ((word(j) == "__align__" || word(j) == "alignas") && j + 1 < end - 3 &&
                       word(j + 1) == "(") {
                for (int depth = 0; j < end - 3; ++j) { // skips to the matching ')'
                    depth += word(j) == "(" ? 1 : word(j) == ")" ? -1 : 0;
                    if (word(j) == ")" && depth == 0) break;
                }
            } else if (word(j) != "extern") {
                type += (type.empty() ? "" : " ") + std::string(word(j));
            }
        }
        if (!shared || type.empty()) continue;
        const std::size_t begin = tokens[start].offset;
        const std::size_t stop = tokens[end].end();
        out.append(source, copied, begin - copied);
        out += make(type, std::string(word(end - 3)));
        out.append(static_cast<std::size_t>(std::count(source.begin() + std::ptrdiff_t(begin),
                                                       source.begin() + std::ptrdiff_t(stop), '\n')),
                   '\n');
        copied = stop;
        i = end;
        start = end + 1;
    }
    out.append(source, copied);
    return out;
}

std::string rewriteDynamicShared(const std::string& source) {
    return rewriteDynamicShared(source, [](const std::string& type, const std::string& name) {
        return type + "* " + name + " = reinterpret_cast<" + type +
               "*>(kernelpad_block_state.dynamicShared);";
    });
}

// The bounds-checking mode's shared memory: dynamic arrays become checked pointers sized by the launch,
// one-dimensional static arrays become SharedArray<T, N>. Arrays of two or more dimensions stay as
// they are (unchecked).
std::string checkedShared(const std::string& source) {
    std::string text = rewriteDynamicShared(source, [](const std::string& type, const std::string& name) {
        return "auto " + name + " = ::kernelpad::dynamicSharedArray<" + type + ">(\"" + name + "\");";
    });
    static const std::regex oneDimensional(
        R"(__shared__\s+([A-Za-z_][\w\s:]*?)\s+([A-Za-z_]\w*)\s*\[([^\]\[;]+)\]\s*;)");
    return std::regex_replace(text, oneDimensional,
                              "__shared__ ::kernelpad::SharedArray<$1, ($3)> $2{\"$2\"};");
}

// Where NVRTC's options leave one of its switches (`--fmad=false`, `-ftz=true`): the last word on it
// wins, and -use_fast_math turns on both --fmad and --ftz.
bool nvrtcSwitch(const std::vector<std::string>& nvrtcOptions, std::string_view name, bool byDefault) {
    bool on = byDefault;
    for (const auto& option : nvrtcOptions) {
        std::string_view word = option;
        if (!word.starts_with('-')) continue;
        word.remove_prefix(word.starts_with("--") ? 2 : 1);
        if (word == "use_fast_math" || word == std::string(name) + "=true")
            on = true;
        else if (word == std::string(name) + "=false")
            on = false;
    }
    return on;
}

// NVRTC contracts a*b+c into fused multiply-adds unless told --fmad=false; the CPU backend does the same
// where the processor has FMA, so that both round alike and a correct kernel agrees with its GPU run.
std::vector<std::string> arithmeticFlags(const std::vector<std::string>& nvrtcOptions, bool gcc) {
    const bool fmad = nvrtcSwitch(nvrtcOptions, "fmad", true);
    __builtin_cpu_init();
    // Without FMA on this processor there is nothing to contract into.
    if (!fmad || !__builtin_cpu_supports("fma")) return {"-ffp-contract=off"};
    std::vector<std::string> flags = {"-mfma", "-ffp-contract=fast"};
    // GCC's x86 tuning (generic since GCC 13, Zen always) splits a loop's chain of fused multiply-adds
    // (`sum += a[k] * b[k]`) back into multiplies and adds; NVRTC does not, so neither do we.
    if (gcc) flags.emplace_back("--param=avoid-fma-max-bits=0");
    return flags;
}

// NVRTC flushes single-precision denormals to zero under --ftz=true, which -use_fast_math implies; the
// CPU backend then sets the worker threads' SSE control (flush to zero, denormals are zero). The other
// parts of fast math, approximate division, square root and transcendentals, are the GPU's own hardware
// and are not imitated: the CPU computes those exactly.
bool flushesDenormals(const std::vector<std::string>& nvrtcOptions) {
    return nvrtcSwitch(nvrtcOptions, "ftz", false);
}

void flushDenormalsOnThisThread() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(_mm_getcsr() | 0x8040u); // FTZ (bit 15) and DAZ (bit 6)
#endif
}

std::string entryPoint(const std::string& kernel) {
    return R"(
#line 1 "<kernelpad cpu entry>"
namespace kernelpad_entry {
using ::kernelpad::argument;
// The kernel is a template argument, so the thread loop calls it directly and the compiler inlines it.
template <auto F, typename... P, std::size_t... I> void loop(void* const* args, std::index_sequence<I...>) {
    // The arguments are read once per block; the thread loop then calls the kernel directly.
    const std::tuple<P...> values{argument<P>(args[I])...};
    const dim3 block = kernelpad_block_state.blockDimension;
    for (unsigned z = 0; z < block.z; ++z)
        for (unsigned y = 0; y < block.y; ++y)
            for (unsigned x = 0; x < block.x; ++x) {
                kernelpad_block_state.threadIndex = uint3{x, y, z};
                F(std::get<I>(values)...);
            }
}
template <auto F, typename... P> void runBlock(void (*)(P...), void* const* args) {
    loop<F, P...>(args, std::index_sequence_for<P...>{});
}
template <auto F, typename... P, std::size_t... I> void one(void* const* args, std::index_sequence<I...>) {
    F(argument<P>(args[I])...);
}
template <auto F, typename... P> void runThread(void (*)(P...), void* const* args) {
    one<F, P...>(args, std::index_sequence_for<P...>{});
}
template <typename... P> constexpr int arity(void (*)(P...)) { return sizeof...(P); }
} // namespace kernelpad_entry
extern "C" int kernelpad_arity() { return kernelpad_entry::arity(&)" +
           kernel + R"(); }
extern "C" void kernelpad_install(void (*meet)(::kernelpad::Meeting&)) { ::kernelpad::meet = meet; }
extern "C" void kernelpad_run_block(void* const* args) {
    kernelpad_entry::runBlock<&)" +
           kernel + R"(>(&)" + kernel + R"(, args);
}
extern "C" void kernelpad_run_thread(void* const* args, unsigned x, unsigned y, unsigned z) {
    kernelpad_block_state.threadIndex = uint3{x, y, z};
    kernelpad_entry::runThread<&)" +
           kernel + R"(>(&)" + kernel + R"(, args);
}
)";
}

// One parameter of the kernel's parameter list: [begin, end) in the source, and whether it has a default.
struct ParameterSpan {
    std::size_t begin = 0, end = 0;
    bool hasDefault = false;
};

// The parameters of the kernel whose name is at 1-based (line, column). A comma, bracket or '=' in a
// comment or a literal is none; angle brackets count, as templates nest there (`Pair<int, float>* p`).
std::vector<ParameterSpan> parameterSpans(const std::string& text, int line, int column) {
    const std::size_t name = offsetOf(text, line, column);
    if (name == std::string::npos || name >= text.size())
        throw launch::SetupError({"kernel: cannot find the parameter list to check bounds"});
    source::Lexer lexer(text, {.offset = name, .line = line, .column = column});
    source::Token token = lexer.next();
    while (token.kind != source::TokenKind::End && lexer.text(token) != "(")
        token = lexer.next();
    if (token.kind == source::TokenKind::End)
        throw launch::SetupError({"kernel: cannot find the parameter list to check bounds"});
    std::vector<ParameterSpan> spans{{token.end(), token.end(), false}};
    for (int depth = 1; depth > 0;) {
        token = lexer.next();
        if (token.kind == source::TokenKind::End)
            throw launch::SetupError({"kernel: unbalanced parameter list"});
        if (token.kind != source::TokenKind::Punct) continue;
        const std::string_view punctuator = lexer.text(token);
        if (punctuator == "(" || punctuator == "[" || punctuator == "<") ++depth;
        if (punctuator == ")" || punctuator == "]" || punctuator == ">") --depth;
        if (punctuator == ">>") depth -= 2;
        if (punctuator == ">>>") depth -= 3;
        spans.back().end = token.offset;
        if (depth == 1 && punctuator == ",") spans.push_back({token.end(), token.end(), false});
        if (depth == 1 && punctuator == "=") spans.back().hasDefault = true;
    }
    return spans;
}

// reinterpret_cast cannot take a class, so in the bounds mode each one becomes kernelpad::reinterpretCast,
// which keeps a checked array checked under its new element type (the vector loads of
// reinterpret_cast<const float4*>(a)[i]). Only the identifier changes: lines stay where they were.
std::string checkedCasts(const std::string& source) {
    source::Lexer lexer(source);
    std::string text;
    std::size_t copied = 0;
    for (const auto& token : lexer.rest()) {
        if (token.kind != source::TokenKind::Identifier || lexer.text(token) != "reinterpret_cast") continue;
        text += source.substr(copied, token.offset - copied) + "::kernelpad::reinterpretCast";
        copied = token.end();
    }
    return text + source.substr(copied);
}

// For the bounds-checking mode: each array parameter of the kernel's definition becomes
// ::kernelpad::Checked<T> with the same name, on the same lines (newlines kept), so diagnostics and
// reported lines stay the user's.
std::string checkedParameters(const launch::RunSetup& setup) {
    std::string text = setup.source;
    const std::vector<ParameterSpan> spans =
        parameterSpans(text, setup.signature.line, setup.signature.column);
    if (spans.size() != setup.args.size())
        throw launch::SetupError({"kernel: cannot match the parameters to check bounds"});
    // Right to left, so earlier offsets stay valid.
    for (std::size_t i = spans.size(); i-- > 0;) {
        const auto& parameter = setup.args[i].parameter;
        if (!setup.args[i].isArray || !parameter.pointer || !parameter.dtype) continue;
        if (spans[i].hasDefault) continue; // leave it as it is
        std::string pointee = parameter.typeText.substr(0, parameter.typeText.rfind('*'));
        const std::string original = text.substr(spans[i].begin, spans[i].end - spans[i].begin);
        const std::string newlines(
            static_cast<std::size_t>(std::count(original.begin(), original.end(), '\n')), '\n');
        text.replace(spans[i].begin, spans[i].end - spans[i].begin,
                     " ::kernelpad::Checked<" + pointee + "> " + parameter.name + newlines);
    }
    return checkedCasts(text);
}

// The first out-of-bounds access of a run in the bounds-checking mode, and how many there were.
struct BoundsReport {
    std::mutex mutex;
    std::size_t count = 0;
    std::string first;
};
BoundsReport boundsReport;

void recordOutOfBounds(const char* array, long long index, unsigned long long size, uint3Like thread,
                       uint3Like block, const char* file, unsigned line) {
    const std::lock_guard lock(boundsReport.mutex);
    if (boundsReport.count++ > 0) return;
    boundsReport.first =
        std::string(array) + "[" + std::to_string(index) + "] is outside " + array + ", which has " +
        std::to_string(size) +
        " elements: " + threadOfBlock({thread.x, thread.y, thread.z}, {block.x, block.y, block.z}) + ", at " +
        file + ":" + std::to_string(line);
}

// "'__shfl_foo' was not declared in this scope" on a CUDA name says too little: it is a CUDA built-in the
// CPU backend does not provide, and the message says so, on the same line.
std::vector<model::Diagnostic> explainUnsupported(std::vector<model::Diagnostic> diagnostics) {
    static const std::regex undeclared(
        R"((?:'|‘|`)((?:__|cuda|tex|surf)\w*)(?:'|’) was not declared in this scope)");
    static const std::regex groupMember(
        R"((?:'|‘|`)(\w+)(?:'|’) is not a member of (?:'|‘|`)(?:cooperative_groups|cg)(?:'|’))");
    static const std::regex groupMethod(
        R"((?:'|‘|`)(?:const )?(?:class |struct )?cooperative_groups::[^']*?(?:'|’) has no member named (?:'|‘|`)(\w+)(?:'|’))");
    for (auto& d : diagnostics) {
        std::smatch m;
        if (std::regex_search(d.message, m, undeclared))
            d.message = m[1].str() + " is not supported by Kernelpad's CPU backend (" + d.message + ")";
        else if (std::regex_search(d.message, m, groupMember) || std::regex_search(d.message, m, groupMethod))
            d.message = "cooperative_groups " + m[1].str() +
                        " is not supported by Kernelpad's CPU backend; it runs on the GPU (" + d.message +
                        ")";
    }
    return diagnostics;
}

// The toolkit's headers whose contents are the CPU backend's own built-ins (kernelpad_cuda_host.h):
// cooperative groups, and what a Visual Studio CUDA template includes. Their #include lines become
// blank, keeping the line numbers.
bool isBuiltInHeader(std::string_view spelled) {
    if (spelled.size() < 3) return false;
    const std::string_view name = spelled.substr(1, spelled.size() - 2);
    static constexpr std::array<std::string_view, 9> kBuiltIn{
        "cuda_runtime.h",       "cuda_runtime_api.h", "device_launch_parameters.h",
        "device_functions.h",   "vector_types.h",     "vector_functions.h",
        "cooperative_groups.h", "cuda_fp16.h",        "cuda_bf16.h"};
    return name.starts_with("cooperative_groups/") ||
           std::find(kBuiltIn.begin(), kBuiltIn.end(), name) != kBuiltIn.end();
}

std::string withoutBuiltInIncludes(const std::string& source) {
    std::string text = source;
    source::Lexer lexer(source);
    const auto tokens = lexer.rest();
    for (std::size_t i = 0; i + 2 < tokens.size(); ++i) {
        if (tokens[i].kind != source::TokenKind::Directive || lexer.text(tokens[i + 1]) != "include" ||
            (tokens[i + 2].kind != source::TokenKind::HeaderName &&
             tokens[i + 2].kind != source::TokenKind::String) ||
            !isBuiltInHeader(lexer.text(tokens[i + 2])))
            continue;
        for (std::size_t at = tokens[i].offset; at < tokens[i + 2].end(); ++at)
            if (text[at] != '\n') text[at] = ' ';
    }
    return text;
}

struct ArrayArgument {
    void* data = nullptr;
    unsigned long long size = 0;
    const char* name = nullptr;
};

struct Entry {
    int (*arity)() = nullptr;
    void (*install)(void (*)(Meeting&)) = nullptr;
    void (*runBlock)(void* const*) = nullptr;
    void (*runThread)(void* const*, unsigned, unsigned, unsigned) = nullptr;
};

template <typename F> F symbol(const SharedLibrary& library, const char* name) {
    void* p = library.symbol(name);
    if (!p) throw Error(std::string("the compiled kernel lacks ") + name + ": " + library.error());
    return reinterpret_cast<F>(p);
}

} // namespace

CpuRunner::CpuRunner(HostCompiler compiler, unsigned workers, bool checkBounds)
    : compiler_(std::move(compiler)),
      workers_(workers ? workers : std::max(1u, std::thread::hardware_concurrency())),
      checkBounds_(checkBounds) {}

std::string CpuRunner::backendName() const {
    return "cpu (" + std::to_string(workers_) + (workers_ == 1 ? " thread)" : " threads)");
}

bool CpuRunner::needsFibers(const std::string& source) {
    // Barriers, warp votes and shuffles all make threads wait for each other; macros count, comments not.
    source::Lexer lexer(source);
    for (source::Token token = lexer.next(); token.kind != source::TokenKind::End; token = lexer.next())
        if (token.kind == source::TokenKind::Identifier && source::isSynchronisingCall(lexer.text(token)))
            return true;
    return false;
}

std::string CpuRunner::hostSource(const launch::RunSetup& setup, bool checkBounds) {
    return hostProgram(setup, checkBounds, false).text;
}

CpuRunner::HostProgram CpuRunner::hostProgram(const launch::RunSetup& setup, bool checkBounds,
                                              bool trySplit) {
    static const std::regex nameExpression(R"([A-Za-z_][\w:]*(<[\w:<>, *&]*>)?)");
    if (!std::regex_match(setup.kernelName, nameExpression))
        throw launch::SetupError(
            {"kernel: \"" + setup.kernelName + "\" is not a kernel name the CPU backend can call"});
    HostProgram program;
    std::string& text = program.text;
    text = "#line 1 \"<kernelpad cuda built-ins>\"\n";
    text += kCudaHostHeader;
    static const std::regex identifier(R"([A-Za-z_]\w*)");
    for (const auto& [name, value] : setup.compile.defines) {
        // One line each: a name that is not an identifier or a value with a line break would let the
        // playground write arbitrary code into the translation unit.
        if (!std::regex_match(name, identifier) || value.find_first_of("\r\n") != std::string::npos)
            throw launch::SetupError(
                {"compile.defines: \"" + name + "\" is not a NAME with a one-line value"});
        text += "#define " + name + " " + value + "\n";
    }
    text += "#line 1 \"" + setup.sourceName + "\"\n";
    std::string user = withoutBuiltInIncludes(checkBounds ? checkedParameters(setup) : setup.source);
    if (trySplit) {
        auto split = splitAtBarriers(user, setup.signature.line, setup.signature.column,
                                     {setup.sourceName, checkBounds});
        program.notSplitBecause = split.reason;
        program.barriers = split.barriers;
        if (split.split()) user = std::move(split.source);
    }
    text += checkBounds ? checkedShared(user) : rewriteDynamicShared(user);
    text += "\n" + entryPoint(setup.kernelName);
    if (checkBounds)
        text += "extern \"C\" void kernelpad_install_bounds(void (*report)(const char*, long long, unsigned "
                "long long, "
                "uint3, uint3, const char*, unsigned)) { ::kernelpad::outOfBounds = report; }\n";
    return program;
}

CpuRunner::Compiled CpuRunner::compile(const launch::RunSetup& setup) const {
    Compiled out;
    HostCompileOptions options = hostKernelOptions();
    const auto arithmetic = arithmeticFlags(setup.compile.options, compiler_.isGcc());
    options.flags.insert(options.flags.end(), arithmetic.begin(), arithmetic.end());
    options.readable = {setup.folder}; // its headers
    if (!setup.folder.empty())
        options.includeDirs = {setup.folder.string()}; // "common.cuh" beside the source
    // Split at the barriers where the kernel allows it; otherwise, or when the host compiler rejects the
    // split kernel, the source as written (whose diagnostics are then the user's).
    const bool fibers = needsFibers(setup.source);
    bool split = false;
    if (splitAtBarriers_) {
        const auto program = hostProgram(setup, checkBounds_, true);
        if (program.notSplitBecause.empty()) {
            out.compiled = compiler_.compile({{setup.sourceName, program.text}}, options);
            split = out.compiled.ok;
            out.execution = split && program.barriers == 0
                                ? "threads of a block run in one loop (the kernel has no barriers)"
                            : split ? "threads of a block run as loops between its " +
                                          std::to_string(program.barriers) + " barriers"
                                    : "threads of a block run as fibers (the host compiler rejected the "
                                      "kernel split at its barriers)";
        } else {
            out.execution = fibers ? "threads of a block run as fibers: the kernel was not split at its "
                                     "barriers because of " +
                                         program.notSplitBecause
                                   : "threads of a block run in a loop";
        }
    }
    if (!split) {
        out.compiled = compiler_.compile({{setup.sourceName, hostSource(setup, checkBounds_)}}, options);
        if (!out.compiled.ok)
            throw launch::CompileError(explainUnsupported(out.compiled.diagnostics), out.compiled.log);
        if (out.execution.empty())
            out.execution = fibers ? "threads of a block run as fibers" : "threads of a block run in a loop";
    }
    out.split = split;
    out.fibers = fibers && !split;
    return out;
}

namespace {

// What a run may allocate beyond the address space it has at fork: its working arrays and the
// threads' stacks and malloc arenas, with room to spare; a kernel that allocates far more is stopped.
std::uint64_t memoryBudget(const launch::RunSetup& setup, unsigned workers, bool fibers) {
    std::uint64_t arrays = 0;
    for (const auto& arg : setup.args)
        if (arg.isArray) arrays += arg.array.bytes();
    const std::uint64_t perWorker =
        (std::uint64_t{8} << 20) + (std::uint64_t{128} << 20) +
        (fibers ? setup.launch.threadsPerBlock() * std::uint64_t{ThreadFibers::reservedPerThread()} : 0);
    return (std::uint64_t{2} << 30) + 4 * arrays + workers * perWorker;
}

nlohmann::json samples(const std::vector<double>& values) {
    return values;
}

// A kernel that syncs its grid needs every block running at once: here each on an OS thread of its own,
// within these bounds (the GPU's are its SMs' occupancy; see CudaRunner).
// Each thread's fiber stack has a guard page, and Linux allows a process 65,530 mappings by default
// (vm.max_map_count): 16,384 threads keep well below it.
constexpr std::uint64_t kGridBlocks = 1024;
constexpr std::uint64_t kGridThreads = 16384;

void checkWholeGrid(const launch::LaunchGeometry& g, int line) {
    const std::uint64_t blocks = g.blocks(), threads = blocks * g.threadsPerBlock();
    if (blocks <= kGridBlocks && threads <= kGridThreads) return;
    throw launch::SetupError(
        {"launch: the kernel synchronises its grid (a grid group on line " + std::to_string(line) +
         "), so the CPU backend runs all its blocks at once, each on a thread of its own: at most " +
         std::to_string(kGridBlocks) + " blocks and " + std::to_string(kGridThreads) +
         " threads in all. This grid has " + std::to_string(blocks) + " blocks of " +
         std::to_string(g.threadsPerBlock()) + " threads (" + std::to_string(threads) +
         "). Use fewer blocks, with a grid-stride loop to cover the data."});
}

} // namespace

launch::RunResult CpuRunner::run(const launch::RunSetup& setup, const launch::RunOptions& options) const {
    launch::RunResult result;
    result.backend = backendName();
    if (auto problems = launch::validate(setup.launch, limits()); !problems.empty())
        throw launch::SetupError(problems);
    const int gridLine = source::gridGroupLine(setup.source);
    if (gridLine > 0) checkWholeGrid(setup.launch, gridLine);
    const auto workers = gridLine > 0 ? static_cast<unsigned>(setup.launch.blocks()) : workers_;

    auto [compiled, execution, split, fibers] = compile(setup);
    result.execution = std::move(execution);
    result.compileMs = compiled.milliseconds;
    result.compileFromCache = compiled.fromCache;

    // Results live in memory the contained child writes and this process reads; inputs the child cannot
    // inherit (memory the CUDA driver pinned) are copied first.
    // Without an allocator asked for, the results stay in that shared memory: no copy.
    const auto& wanted = options.resultAllocator ? options.resultAllocator : sandbox::childSharedAllocator();
    const auto shared = wanted->sharedWithChildren() ? wanted : sandbox::childSharedAllocator();
    for (std::size_t i = 0; i < setup.args.size(); ++i)
        if (setup.args[i].copiedOut())
            result.outputs.emplace_back(setup.args[i].name,
                                        model::Array(setup.args[i].array.dtype(), setup.args[i].array.shape(),
                                                     shared, model::Array::Uninitialized{}));
    const ChildInputs inputs(setup);

    const cpu::ContainedCode code{"the kernel " + setup.signature.name, compiled.library,
                                  compiler_.cacheDirectory(), memoryBudget(setup, workers, fibers),
                                  options.cancel};
    // A lambda may not name a structured binding (clang).
    const Loaded loaded{compiled.library, split, fibers, gridLine > 0,
                        flushesDenormals(setup.compile.options)};
    const auto answer = runContainedCode(code, [&](const std::atomic<bool>& cancel) {
        return runLoaded(setup, options, loaded, inputs, result.outputs, cancel);
    });
    if (answer.value("cancelled", false)) result.cancelled = true;
    result.h2dMs = answer.value("h2d", std::vector<double>{});
    result.kernelMs = answer.value("kernel", std::vector<double>{});
    result.d2hMs = answer.value("d2h", std::vector<double>{});
    if (shared != wanted)
        for (auto& [name, array] : result.outputs)
            array = array.copyTo(wanted);
    return result;
}

nlohmann::json CpuRunner::runLoaded(const launch::RunSetup& setup, const launch::RunOptions& options,
                                    const Loaded& loaded, const ChildInputs& inputs,
                                    launch::NamedArrays& outputs, const std::atomic<bool>& cancel) const {
    const auto library = loadCompiled(loaded.library);
    const bool split = loaded.split;
    const bool fibers = loaded.fibers;
    Entry entry{
        symbol<int (*)()>(*library, "kernelpad_arity"),
        symbol<void (*)(void (*)(Meeting&))>(*library, "kernelpad_install"),
        symbol<void (*)(void* const*)>(*library, "kernelpad_run_block"),
        symbol<void (*)(void* const*, unsigned, unsigned, unsigned)>(*library, "kernelpad_run_thread")};
    if (static_cast<std::size_t>(entry.arity()) != setup.args.size())
        throw launch::SetupError({"args: the kernel takes " + std::to_string(entry.arity()) +
                                  " parameters, the playground gives " + std::to_string(setup.args.size())});
    entry.install(&ThreadFibers::meet);
    if (checkBounds_) {
        using Report =
            void (*)(const char*, long long, unsigned long long, uint3Like, uint3Like, const char*, unsigned);
        symbol<void (*)(Report)>(*library, "kernelpad_install_bounds")(&recordOutOfBounds);
    }

    // What the kernel reads and writes, refilled from the inputs before every repeat: out and inout
    // arrays are the results themselves (memory shared with the parent), so nothing is copied out; the
    // others are working copies.
    std::vector<model::Array> work(setup.args.size());
    std::vector<std::byte*> memory(setup.args.size(), nullptr);
    std::vector<void*> pointers;
    for (std::size_t i = 0, out = 0; i < setup.args.size(); ++i) {
        const auto& arg = setup.args[i];
        if (!arg.isArray) {
            pointers.push_back(const_cast<std::byte*>(arg.scalarBytes.data()));
            continue;
        }
        if (arg.copiedOut()) {
            memory[i] = outputs[out++].second.data();
        } else {
            work[i] = model::Array(arg.array.dtype(), arg.array.shape(), model::heapAllocator(),
                                   model::Array::Uninitialized{});
            memory[i] = work[i].data();
        }
        pointers.push_back(memory[i]);
    }
    // The bounds-checking mode passes array parameters as their data, element count and name.
    std::vector<ArrayArgument> arrays(setup.args.size());
    if (checkBounds_)
        for (std::size_t i = 0; i < setup.args.size(); ++i) {
            const auto& arg = setup.args[i];
            if (!arg.isArray || !arg.parameter.pointer || !arg.parameter.dtype) continue;
            arrays[i] = {memory[i], arg.array.size(), arg.name.c_str()};
            pointers[i] = &arrays[i];
        }

    const auto& g = setup.launch;
    const std::uint64_t blocks = g.blocks();
    const bool wholeGrid = loaded.wholeGrid && fibers;
    const unsigned workers = wholeGrid ? static_cast<unsigned>(blocks)
                                       : static_cast<unsigned>(std::min<std::uint64_t>(workers_, blocks));
    // Fibers and their stacks, one set per worker, kept from repeat to repeat: mapping a worker's stacks
    // (a guard page each, a page fault for each stack's top) in every repeat cost more than the kernel
    // on 16 cores, where the workers queue on the process's memory map.
    std::vector<std::unique_ptr<ThreadFibers>> fiberSets(workers);
    const auto runGrid = [&] {
        std::atomic<std::uint64_t> next{0};
        // Enough chunks per worker to even out blocks of unequal cost, few enough to keep the counter cold.
        // A whole grid at once: one block per worker, which meet at each grid.sync(); a block that ends
        // (or fails) leaves the meeting, so the others are never left waiting for it.
        const std::uint64_t chunk = std::clamp<std::uint64_t>(blocks / (std::uint64_t{workers} * 64), 1, 64);
        std::barrier gridBarrier(static_cast<std::ptrdiff_t>(wholeGrid ? workers : 1));
        std::latch started(static_cast<std::ptrdiff_t>(wholeGrid ? workers : 0));
        std::atomic<bool> abandon{false};
        const std::function<void()> gridSync =
            wholeGrid ? std::function<void()>([&] { gridBarrier.arrive_and_wait(); }) : nullptr;
        const auto worker = [&](unsigned w) {
            sandbox::prepareThreadForOverflow();
            if (loaded.flushDenormals) flushDenormalsOnThisThread();
            std::vector<unsigned char> shared(g.sharedBytes ? g.sharedBytes : 1);
            if (fibers && !fiberSets[w]) fiberSets[w] = std::make_unique<ThreadFibers>();
            ThreadFibers* threadFibers = fiberSets[w].get();
            const std::size_t threads = static_cast<std::size_t>(g.threadsPerBlock());
            // The block's built-ins live in this worker thread's state, which the kernel reads. Blocks are
            // taken a chunk at a time and their indices counted up, not divided out for each block:
            // with 2^16 small blocks, per-block bookkeeping showed in a memory-bound kernel's time.
            auto& state = kernelpad_block_state;
            std::copy(g.grid.begin(), g.grid.end(), state.gridDimension);
            std::copy(g.block.begin(), g.block.end(), state.blockDimension);
            state.dynamicShared = shared.data();
            state.dynamicSharedBytes = g.sharedBytes;
            state.blockThreads = static_cast<unsigned>(threads);
            const auto runBlock = [&] {
                if (split) {
                    entry.runThread(pointers.data(), 0, 0, 0); // the split kernel runs the whole block
                } else if (!threadFibers) {
                    entry.runBlock(pointers.data());
                } else {
                    const auto body = [&](std::size_t t) {
                        entry.runThread(pointers.data(), static_cast<unsigned>(t % g.block[0]),
                                        static_cast<unsigned>(t / g.block[0] % g.block[1]),
                                        static_cast<unsigned>(t / (std::size_t{g.block[0]} * g.block[1])));
                    };
                    // A block that ends, or fails, leaves the grid's meetings.
                    struct Leave {
                        std::barrier<>* grid;
                        ~Leave() {
                            if (grid) grid->arrive_and_drop();
                        }
                    } leave{wholeGrid ? &gridBarrier : nullptr};
                    try {
                        threadFibers->run(threads, body, gridSync);
                    } catch (const launch::KernelFault& e) {
                        throw launch::KernelFault("the kernel " + setup.signature.name +
                                                  " cannot go on: " + e.what());
                    }
                }
            };
            if (wholeGrid) { // block w, whatever the other workers do, once every worker has started
                started.arrive_and_wait();
                if (abandon) return;
                state.blockIndex[0] = static_cast<std::uint32_t>(w % g.grid[0]);
                state.blockIndex[1] = static_cast<std::uint32_t>(w / g.grid[0] % g.grid[1]);
                state.blockIndex[2] = static_cast<std::uint32_t>(w / (std::uint64_t{g.grid[0]} * g.grid[1]));
                runBlock();
                return;
            }
            for (std::uint64_t first = next.fetch_add(chunk); first < blocks; first = next.fetch_add(chunk)) {
                auto x = static_cast<std::uint32_t>(first % g.grid[0]);
                auto y = static_cast<std::uint32_t>(first / g.grid[0] % g.grid[1]);
                auto z = static_cast<std::uint32_t>(first / (std::uint64_t{g.grid[0]} * g.grid[1]));
                for (std::uint64_t b = first, end = std::min(blocks, first + chunk); b < end; ++b) {
                    state.blockIndex[0] = x;
                    state.blockIndex[1] = y;
                    state.blockIndex[2] = z;
                    runBlock();
                    if (++x == g.grid[0]) {
                        x = 0;
                        if (++y == g.grid[1]) {
                            y = 0;
                            ++z;
                        }
                    }
                }
            }
        };
        // An exception a kernel throws (new failing, a throw) ends the launch with the first one, on
        // this thread, where runContainedCode reports it; escaping a thread it would end the process.
        std::mutex failureMutex;
        std::exception_ptr failure;
        const auto guarded = [&](unsigned w) {
            try {
                worker(w);
            } catch (...) {
                const std::lock_guard lock(failureMutex);
                if (!failure) failure = std::current_exception();
            }
        };
        std::vector<std::thread> pool;
        try {
            for (unsigned w = 1; w < workers; ++w)
                pool.emplace_back(guarded, w);
        } catch (const std::system_error& e) {
            // The system refused a thread: stop those already started (a whole grid's blocks wait for
            // each other, so none has begun) and say so, rather than end the process.
            abandon = true;
            if (wholeGrid) started.count_down(static_cast<std::ptrdiff_t>(workers - pool.size()));
            for (auto& t : pool)
                t.join();
            throw Error("could not start " + std::to_string(workers) + " threads for the kernel's blocks (" +
                        e.what() + ")");
        }
        guarded(0);
        for (auto& t : pool)
            t.join();
        if (failure) std::rethrow_exception(failure);
    };

    const auto times = launch::repeatRounds(options.warmup, options.repeat, &cancel, [&] {
        auto t = Clock::now();
        inputs.refill(memory);
        const double copyIn = millisecondsSince(t);
        {
            const std::lock_guard lock(boundsReport.mutex);
            boundsReport.count = 0;
        }
        t = Clock::now();
        runGrid();
        const double kernel = millisecondsSince(t);
        if (checkBounds_ && boundsReport.count > 0)
            throw launch::KernelFault("the kernel " + setup.signature.name +
                                      " accessed memory out of bounds: " + boundsReport.first +
                                      (boundsReport.count > 1 ? " (" + std::to_string(boundsReport.count) +
                                                                    " out-of-bounds accesses in all)"
                                                              : std::string()));
        // Nothing is copied out: the kernel wrote into the results themselves.
        return launch::RoundTimes{copyIn, kernel, 0.0};
    });
    return {{"h2d", samples(times.h2dMs)},
            {"kernel", samples(times.kernelMs)},
            {"d2h", samples(times.d2hMs)},
            {"cancelled", times.cancelled}};
}

} // namespace kp::cpu
