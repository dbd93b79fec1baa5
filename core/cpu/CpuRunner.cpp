#include "CpuRunner.h"

#include "BarrierSplit.h"
#include "BlockState.h"
#include "ContainedRun.h"
#include "CudaHostHeader.h"
#include "GridRun.h"
#include "ThreadFibers.h"
#include "WarpExchange.h"
#include "WarpSynchronous.h"
#include "core/Cores.h"
#include "core/Overloaded.h"
#include "core/Parallel.h"
#include "core/SharedLibrary.h"
#include "core/Stopwatch.h"
#include "core/launch/CompileError.h"
#include "core/launch/KernelFault.h"
#include "core/launch/ProgramPlan.h"
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
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <regex>
#include <string_view>
#include <system_error>
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
// The entry points of the compiled library: for each kernel instance k, kernelpad_arity_k,
// kernelpad_run_block_k (a block's threads in one loop) and kernelpad_run_thread_k (one thread, or a whole
// block of a kernel split at its barriers); for each symbol s a program writes, kernelpad_symbol_s.
// `privateRenamed`: per kernel instance, bit i where parameter i's atomics were renamed _kp_pNAdd.
std::string entryPoints(const launch::Program& program,
                        const std::vector<unsigned long long>& privateRenamed) {
    std::string text = R"(
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
extern "C" void kernelpad_install(void (*meet)(::kernelpad::Meeting&), void* (*warpSlots)()) {
    ::kernelpad::meet = meet;
    ::kernelpad::warpSlotsOfThisThread = warpSlots;
}
extern "C" void kernelpad_flush_deferred(void* table) { ::kernelpad::flushDeferred(table); }
extern "C" unsigned long long kernelpad_warp_slots_bytes() { return sizeof(::kernelpad::WarpSlots); }
extern "C" unsigned long long kernelpad_deferred_bytes() { return sizeof(::kernelpad::DeferredTable); }
)";
    for (std::size_t k = 0; k < program.kernels.size(); ++k) {
        const std::string& kernel = program.kernels[k].name;
        const std::string n = std::to_string(k);
        text += "extern \"C\" int kernelpad_arity_" + n + "() { return kernelpad_entry::arity(&" + kernel +
                "); }\n";
        text += "extern \"C\" void kernelpad_run_block_" + n +
                "(void* const* args) {\n    kernelpad_entry::runBlock<&" + kernel + ">(&" + kernel +
                ", args);\n}\n";
        text += "extern \"C\" void kernelpad_run_thread_" + n +
                "(void* const* args, unsigned x, unsigned y, unsigned z) {\n"
                "    kernelpad_block_state.threadIndex = uint3{x, y, z};\n    kernelpad_entry::runThread<&" +
                kernel + ">(&" + kernel + ", args);\n}\n";
        text += "extern \"C\" unsigned long long kernelpad_private_" + n +
                "() { return ::kernelpad::privateParameters(&" + kernel + ", " +
                std::to_string(privateRenamed.at(k)) + "ull); }\n";
    }
    for (std::size_t s = 0; s < program.symbols.size(); ++s) {
        const std::string& symbol = program.symbols[s].name;
        text += "extern \"C\" void* kernelpad_symbol_" + std::to_string(s) +
                "(unsigned long long* bytes) {\n    *bytes = sizeof(" + symbol + ");\n    return (void*)&" +
                symbol + ";\n}\n";
    }
    return text;
}

// The kernel definitions a program launches, one per definition (a template's instances share theirs),
// last in the source first: a rewrite of one leaves the text before it where it was.
// The kernel instances of `kernels` defined where `signature` is (a template's instances share one).
template <typename Kernels>
std::vector<std::size_t> instancesOf(const Kernels& kernels, const model::KernelSignature& signature) {
    std::vector<std::size_t> instances;
    for (std::size_t i = 0; i < kernels.size(); ++i)
        if (kernels[i].signature.line == signature.line && kernels[i].signature.column == signature.column)
            instances.push_back(i);
    return instances;
}

std::vector<std::size_t> definitionsFromLast(const launch::Program& program) {
    std::vector<std::size_t> kernels;
    for (std::size_t k = 0; k < program.kernels.size(); ++k) {
        const auto& signature = program.kernels[k].signature;
        const bool seen = std::any_of(kernels.begin(), kernels.end(), [&](std::size_t other) {
            const auto& o = program.kernels[other].signature;
            return o.line == signature.line && o.column == signature.column;
        });
        if (!seen) kernels.push_back(k);
    }
    std::sort(kernels.begin(), kernels.end(), [&](std::size_t a, std::size_t b) {
        const auto& x = program.kernels[a].signature;
        const auto& y = program.kernels[b].signature;
        return std::pair(x.line, x.column) > std::pair(y.line, y.column);
    });
    return kernels;
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

// For the bounds-checking mode: each array parameter of the launched kernels' definitions becomes
// ::kernelpad::Checked<T> with the same name, on the same lines (newlines kept), so diagnostics and
// reported lines stay the user's.
std::string checkedParameters(std::string text, const launch::Program& program) {
    for (const std::size_t k : definitionsFromLast(program)) {
        const auto& signature = program.kernels[k].signature;
        const std::vector<ParameterSpan> spans = parameterSpans(text, signature.line, signature.column);
        if (spans.size() != signature.parameters.size())
            throw launch::SetupError(
                {"kernel: cannot match the parameters of " + signature.name + " to check bounds"});
        // Right to left, so earlier offsets stay valid.
        for (std::size_t i = spans.size(); i-- > 0;) {
            const auto& parameter = signature.parameters[i];
            if (!parameter.pointer || !parameter.dtype) continue;
            if (spans[i].hasDefault) continue; // leave it as it is
            std::string pointee = parameter.typeText.substr(0, parameter.typeText.rfind('*'));
            const std::string original = text.substr(spans[i].begin, spans[i].end - spans[i].begin);
            const std::string newlines(
                static_cast<std::size_t>(std::count(original.begin(), original.end(), '\n')), '\n');
            text.replace(spans[i].begin, spans[i].end - spans[i].begin,
                         " ::kernelpad::Checked<" + pointee + "> " + parameter.name + newlines);
        }
    }
    return checkedCasts(text);
}

// The first out-of-bounds access of a launch in the bounds-checking mode, and how many there were. A
// launch that has made one and does not end within kBoundsGrace is stopped there, and the access reported:
// a read past an array's end (the scratch value it returns) can make a loop's condition never change, and
// a time limit's "took too long" would hide the bug that made it so.
struct BoundsReport {
    std::mutex mutex;
    std::condition_variable changed;
    std::size_t count = 0;
    std::string first;
    std::string launch;         // "the kernel k", after the step of a program
    std::uint64_t launches = 0; // launches begun, so that the watcher knows one from the next
    bool running = false;
    bool watching = false; // the watcher thread is started (once per child)
};
BoundsReport boundsReport;
constexpr std::chrono::seconds kBoundsGrace{2};

// `many`: how the count of accesses is said ("in all" after the launch, "by then" where it was stopped).
std::string outOfBoundsText(const BoundsReport& r, const char* many) {
    return r.launch + " accessed memory out of bounds: " + r.first +
           (r.count > 1 ? " (" + std::to_string(r.count) + " out-of-bounds accesses " + many + ")"
                        : std::string());
}

[[noreturn]] void watchBounds() {
    std::unique_lock lock(boundsReport.mutex);
    for (;;) {
        boundsReport.changed.wait(lock, [] { return boundsReport.running && boundsReport.count > 0; });
        const std::uint64_t launch = boundsReport.launches;
        if (boundsReport.changed.wait_for(lock, kBoundsGrace, [launch] {
                return !boundsReport.running || boundsReport.launches != launch;
            }))
            continue;
        faultNow(
            outOfBoundsText(boundsReport, "by then") + "; the launch had not ended " +
            std::to_string(kBoundsGrace.count()) +
            " s after that access, and was stopped there. A read past an array's end gives a value the "
            "kernel never wrote, which can make a loop's condition never change; with the access mended, a "
            "kernel that simply takes longer runs to its end.");
        // Not in a contained child (faultNow did nothing): the launch goes on to the caller's limit.
        boundsReport.changed.wait(lock, [launch] { return boundsReport.launches != launch; });
    }
}

void recordOutOfBounds(const char* array, long long index, unsigned long long size, uint3Like thread,
                       uint3Like block, const char* file, unsigned line) {
    const std::lock_guard lock(boundsReport.mutex);
    if (boundsReport.count++ > 0) return;
    boundsReport.first =
        std::string(array) + "[" + std::to_string(index) + "] is outside " + array + ", which has " +
        std::to_string(size) +
        " elements: " + threadOfBlock({thread.x, thread.y, thread.z}, {block.x, block.y, block.z}) + ", at " +
        file + ":" + std::to_string(line);
    if (!boundsReport.watching) {
        try { // no thread to be had (the sandbox's limits): the access is still reported when the launch ends
            std::thread(watchBounds).detach();
            boundsReport.watching = true;
        } catch (const std::system_error&) {
        }
    }
    boundsReport.changed.notify_all();
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

template <typename F> F symbol(const SharedLibrary& library, const std::string& name) {
    void* p = library.symbol(name.c_str());
    if (!p) throw Error("the compiled kernel lacks " + name + ": " + library.error());
    return reinterpret_cast<F>(p);
}

} // namespace

CpuRunner::CpuRunner(HostCompiler compiler, unsigned workers, bool checkBounds)
    : compiler_(std::move(compiler)), workers_(workers ? workers : usableCores()), checkBounds_(checkBounds) {
}

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

std::string CpuRunner::hostSource(const launch::RunSetup& setup, bool checkBounds, bool deferAtomics) {
    return hostProgram(setup, checkBounds, false, deferAtomics).text;
}

CpuRunner::HostProgram CpuRunner::hostProgram(const launch::RunSetup& setup, bool checkBounds, bool trySplit,
                                              bool deferAtomics) {
    static const std::regex nameExpression(R"([A-Za-z_][\w:]*(<[\w:<>, *&+-]*>)?)");
    const launch::Program ran = launch::programOf(setup);
    const auto& kernels = ran.kernels;
    for (const auto& kernel : kernels)
        if (!std::regex_match(kernel.name, nameExpression))
            throw launch::SetupError(
                {"kernel: \"" + kernel.name + "\" is not a kernel name the CPU backend can call"});
    HostProgram program;
    program.kernels.resize(kernels.size());
    std::string& text = program.text; // compiled behind hostKernelOptions()'s prelude, the built-ins
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
    std::string user = setup.source;
    const auto launches = ran.distinctLaunches();
    if (deferAtomics)
        for (const std::size_t k : definitionsFromLast(ran)) {
            const auto& signature = kernels[k].signature;
            std::vector<std::pair<std::string, bool>> parameters;
            for (const auto& parameter : signature.parameters)
                parameters.emplace_back(parameter.name, parameter.pointer);
            // Warp-aggregated atomics become each lane's own (DeferredAtomics.h), which the deferral below
            // then folds: only where every launch of the kernel makes `threadIdx.x % 32` the lane (a block
            // of one row, or rows of whole warps). A template's instances share its rewrites.
            const auto instances = instancesOf(kernels, signature);
            const bool xIsLane = std::all_of(launches.begin(), launches.end(), [&](const auto& launch) {
                const auto& block = launch.second.block;
                return std::find(instances.begin(), instances.end(), launch.first) == instances.end() ||
                       (block[1] == 1 && block[2] == 1) || block[0] % 32 == 0;
            });
            if (xIsLane) {
                const int undone = undoWarpAggregation(user, signature.line, signature.column, parameters);
                for (const std::size_t i : instances)
                    program.kernels[i].aggregatedAtomics = undone;
            }
            const auto deferred = rewriteDeferredAtomics(user, signature.line, signature.column, parameters);
            for (const std::size_t i : instances)
                program.kernels[i].deferred = deferred;
        }
    for (const std::size_t k : definitionsFromLast(ran)) {
        const auto& signature = kernels[k].signature;
        const int renamed = rewriteSharedAtomics(user, signature.line, signature.column);
        for (const std::size_t i : instancesOf(kernels, signature)) // a template's instances share it
            program.kernels[i].sharedAtomics = renamed;
    }
    // Legacy warp-synchronous steps through volatile shared memory: the warp takes each together.
    syncVolatileStatements(user);
    user = withoutBuiltInIncludes(checkBounds ? checkedParameters(std::move(user), ran) : user);
    if (trySplit)
        for (const std::size_t k : definitionsFromLast(ran)) {
            const auto& signature = kernels[k].signature;
            auto split = splitAtBarriers(user, signature.line, signature.column,
                                         {setup.sourceName, checkBounds, checkBounds});
            if (split.split()) user = std::move(split.source);
            for (const std::size_t i : instancesOf(kernels, signature)) // a template's instances share it
                program.kernels[i] = {split.reason,
                                      split.barriers,
                                      program.kernels[i].deferred,
                                      program.kernels[i].sharedAtomics,
                                      program.kernels[i].aggregatedAtomics,
                                      split.warpOperations,
                                      split.gatheredAtomics,
                                      split.computedActiveMasks,
                                      split.gridStrideLoops,
                                      split.insideOut};
        }
    text += checkBounds ? checkedShared(user) : rewriteDynamicShared(user);
    std::vector<unsigned long long> privateRenamed;
    for (const auto& kernel : program.kernels) {
        unsigned long long bits = 0;
        for (const auto& parameter : kernel.deferred)
            if (parameter.privateCopy) bits |= 1ull << parameter.index;
        privateRenamed.push_back(bits);
    }
    text += "\n" + entryPoints(ran, privateRenamed);
    if (checkBounds)
        text += "extern \"C\" void kernelpad_install_bounds(void (*report)(const char*, long long, unsigned "
                "long long, "
                "uint3, uint3, const char*, unsigned)) { ::kernelpad::outOfBounds = report; }\n";
    return program;
}

namespace {

// The built-ins and the flags a kernel is compiled with, before its folder is added: one definition for
// compiles and for the built-ins precompiled at build time, whose flags must be the same to be used.
HostCompileOptions kernelOptions(const std::vector<std::string>& nvrtcOptions, bool gcc) {
    HostCompileOptions options = hostKernelOptions();
    const auto arithmetic = arithmeticFlags(nvrtcOptions, gcc);
    options.flags.insert(options.flags.end(), arithmetic.begin(), arithmetic.end());
    // CUDA is C++17 to NVRTC, which deprecates nothing about volatile; C++20 here warned on every step of a
    // legacy warp reduction (`s[tid] += s[tid + 16];` through a volatile pointer), a marker on each line.
    options.flags.emplace_back(gcc ? "-Wno-volatile" : "-Wno-deprecated-volatile");
    return options;
}

// How one kernel's threads run, in words: the run's "execution", which the app shows beside its times.
// `split` is the attempt to split it at its barriers (null when none was made).
std::string executionWords(const CpuRunner::HostProgram::Kernel* split, bool splitCompiled, bool fibers) {
    if (!split) return fibers ? "threads of a block run as fibers" : "threads of a block run in a loop";
    // Grid- and block-stride loops (`i += step`) alike; at run time only where their indices fit.
    const std::string passes =
        split->gridStrideLoops == 0
            ? ""
            : (split->gridStrideLoops == 1
                   ? "; its strided loop runs"
                   : "; its " + std::to_string(split->gridStrideLoops) + " strided loops run") +
                  std::string(split->gridStrideLoops == 1 ? " in passes where its indices stay"
                                                          : " in passes where their indices stay") +
                  " below 2^31 (in each pass, every thread of the block takes its next index)";
    if (split->notSplitBecause.empty() && splitCompiled &&
        split->warpOperations + split->gatheredAtomics > 0) {
        const int cuts = split->barriers + split->warpOperations + split->gatheredAtomics;
        const auto counted = [](int n, const std::string& one, const std::string& many) {
            return n == 1 ? one : std::to_string(n) + " " + many;
        };
        std::vector<std::string> parts;
        if (split->barriers > 0) parts.push_back(counted(split->barriers, "barrier", "barriers"));
        if (split->warpOperations > 0)
            parts.push_back(counted(split->warpOperations, "warp operation", "warp operations"));
        if (split->gatheredAtomics > 0)
            parts.push_back(counted(split->gatheredAtomics, "atomicAdd whose result it uses",
                                    "atomicAdds whose results it uses"));
        std::string between;
        for (std::size_t i = 0; i < parts.size(); ++i)
            between += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
        return "threads of a block run as loops " +
               std::string(cuts == 1 ? "before and after its " : "between its ") + between +
               ", each run by every thread to record and again to take its result" +
               (split->gatheredAtomics > 0 ? " (an atomicAdd: one atomic per warp and address)" : "") +
               (split->computedActiveMasks > 0
                    ? "; where a region begins with __activemask(), its lanes are found once for the block"
                    : "") +
               passes;
    }
    // Only a kernel without barriers has a loop turned inside out (BarrierSplit.cpp).
    const std::string insideOut =
        split->insideOut.empty()
            ? ""
            : "; its " + (split->insideOut == "loop" ? std::string("loop") : split->insideOut + " loop") +
                  " runs around each row of threads, which take each step together (where their indices "
                  "stay below 2^31)";
    if (split->notSplitBecause.empty() && splitCompiled)
        return (split->barriers == 0   ? "threads of a block run in one loop (the kernel has no barriers)"
                : split->barriers == 1 ? "threads of a block run as loops before and after its barrier"
                                       : "threads of a block run as loops between its " +
                                             std::to_string(split->barriers) + " barriers") +
               insideOut + passes;
    if (split->notSplitBecause.empty())
        return "threads of a block run as fibers (the host compiler rejected the kernel split at its "
               "barriers)";
    // The reasons are phrases ("a break out of a loop...") and sentences ("an auto variable lives across a
    // barrier") alike: in parentheses, both read.
    return fibers ? "threads of a block run as fibers: the kernel was not split at its barriers (" +
                        split->notSplitBecause + ")"
                  : "threads of a block run in a loop";
}

} // namespace

bool CpuRunner::precompileBuiltIns(const std::filesystem::path& cacheDirectory, std::string& why) {
    namespace fs = std::filesystem;
    const HostCompiler compiler(std::string(), cacheDirectory);
    if (!compiler.isGcc()) {
        why = "the host compiler is not GCC: the built-ins are compiled with each kernel";
        return false;
    }
    // The options every kernel without NVRTC options of its own is compiled with (optionsFor).
    std::string failure;
    const auto forKernels = compiler.precompilePrelude(kernelOptions({}, true), &failure);
    const auto forReferences =
        forKernels ? compiler.precompilePrelude(hostKernelOptions(), &failure) : forKernels;
    if (!forKernels || !forReferences) {
        why = "the built-ins did not precompile with " + compiler.compilerPath() + ": " + failure;
        return false;
    }
    // Those of an older header or compiler go: each is ~47 MB.
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(compiler.cacheDirectory() / "prelude", ec))
        if (entry.path() != *forKernels && entry.path() != *forReferences) fs::remove_all(entry.path(), ec);
    return true;
}

HostCompileOptions CpuRunner::optionsFor(const launch::RunSetup& setup) const {
    HostCompileOptions options = kernelOptions(setup.compile.options, compiler_.isGcc());
    options.readable = {setup.folder}; // its headers
    if (!setup.folder.empty())
        options.includeDirs = {setup.folder.string()}; // "common.cuh" beside the source
    return options;
}

CpuRunner::Compiled CpuRunner::compile(const launch::RunSetup& setup) const {
    Compiled out;
    const HostCompileOptions options = optionsFor(setup);
    // Each kernel split at its barriers where it allows it; otherwise, or when the host compiler rejects
    // the split kernels, the source as written (whose diagnostics are then the user's).
    const auto kernels = launch::programOf(setup).kernels;
    const bool fibers = needsFibers(setup.source);
    out.fibers = fibers;
    out.split.assign(kernels.size(), false);
    HostProgram program;
    bool anySplit = false;
    if (splitAtBarriers_) {
        program = hostProgram(setup, checkBounds_, true, deferAtomics_);
        anySplit = std::any_of(program.kernels.begin(), program.kernels.end(),
                               [](const auto& k) { return k.notSplitBecause.empty(); });
        if (anySplit) {
            out.compiled = compiler_.compile({{setup.sourceName, program.text}}, options);
            if (out.compiled.ok)
                for (std::size_t k = 0; k < kernels.size(); ++k)
                    out.split[k] = program.kernels[k].notSplitBecause.empty();
        }
    }
    const bool splitCompiled = anySplit && out.compiled.ok;
    if (!splitCompiled) {
        const HostProgram plain = hostProgram(setup, checkBounds_, false, deferAtomics_);
        if (!splitAtBarriers_) program.kernels = plain.kernels; // what the plain source defers
        out.compiled = compiler_.compile({{setup.sourceName, plain.text}}, options);
        if (!out.compiled.ok)
            throw launch::CompileError(explainUnsupported(out.compiled.diagnostics), out.compiled.log);
    }
    describe(out, program, kernels, splitCompiled);
    return out;
}

CpuRunner::Compiled CpuRunner::check(const launch::RunSetup& setup) const {
    Compiled out;
    HostCompileOptions options = optionsFor(setup);
    options.syntaxOnly = true;
    // The source as written (less the rewrites every run makes): its diagnostics are the user's own.
    const HostProgram plain = hostProgram(setup, checkBounds_, false, deferAtomics_);
    out.compiled = compiler_.compile({{setup.sourceName, plain.text}}, options);
    if (!out.compiled.ok)
        throw launch::CompileError(explainUnsupported(out.compiled.diagnostics), out.compiled.log);
    const auto kernels = launch::programOf(setup).kernels;
    out.fibers = needsFibers(setup.source);
    const HostProgram program =
        splitAtBarriers_ ? hostProgram(setup, checkBounds_, true, deferAtomics_) : plain;
    out.split.assign(kernels.size(), false);
    for (std::size_t k = 0; k < kernels.size(); ++k)
        out.split[k] = splitAtBarriers_ && program.kernels[k].notSplitBecause.empty();
    // Said as a run will do it; a split the host compiler then rejects (rare) runs as fibers, and the run's
    // own words say so.
    describe(out, program, kernels, std::find(out.split.begin(), out.split.end(), true) != out.split.end());
    return out;
}

void CpuRunner::describe(Compiled& out, const HostProgram& program,
                         const std::vector<launch::KernelInstance>& kernels, bool splitCompiled) const {
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        std::string words =
            executionWords(splitAtBarriers_ ? &program.kernels[k] : nullptr, splitCompiled, out.fibers);
        std::vector<std::size_t> deferred;
        std::string names; // "bins", "bins and wide", "bins, wraps and wide"
        const auto& parameters = program.kernels[k].deferred;
        for (std::size_t p = 0; p < parameters.size(); ++p) {
            deferred.push_back(parameters[p].index);
            names += (p == 0 ? "" : p + 1 == parameters.size() ? " and " : ", ") + parameters[p].name;
        }
        if (!parameters.empty())
            words += "; atomics on " + names +
                     " are combined on each core and applied once at the end of the launch (nothing in the "
                     "kernel reads " +
                     (parameters.size() == 1 ? names : std::string("them")) + ")";
        if (program.kernels[k].sharedAtomics > 0)
            words += "; atomics on its shared memory run without a lock (a block's threads share one core)";
        if (const int undone = program.kernels[k].aggregatedAtomics; undone > 0)
            words += std::string(undone == 1 ? "; its warp-aggregated atomicAdd runs"
                                             : "; its warp-aggregated atomicAdds run") +
                     " as each lane's own add of 1, the same counts without the match (a GPU's saving, not "
                     "a CPU's)";
        out.deferred.push_back(std::move(deferred));
        if (kernels.size() > 1) words = kernels[k].name + ": " + words;
        out.execution += (out.execution.empty() ? "" : "; ") + words;
    }
}

namespace {

// What a run may allocate beyond the address space it has at fork: its working arrays and the
// threads' stacks and malloc arenas, with room to spare; a kernel that allocates far more is stopped.
std::uint64_t memoryBudget(const launch::Program& program, unsigned workers, bool fibers) {
    std::uint64_t arrays = 0;
    for (const auto& buffer : program.buffers)
        arrays += buffer.bytes();
    std::uint64_t threads = 0;
    for (const auto& [kernel, geometry] : program.distinctLaunches())
        threads = std::max(threads, geometry.threadsPerBlock());
    const std::uint64_t perWorker = (std::uint64_t{8} << 20) + (std::uint64_t{128} << 20) +
                                    (fibers ? threads * std::uint64_t{ThreadFibers::reservedPerThread()} : 0);
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

void checkWholeGrid(const launch::LaunchGeometry& g, int line, const std::string& path) {
    const std::uint64_t blocks = g.blocks(), threads = blocks * g.threadsPerBlock();
    if (blocks <= kGridBlocks && threads <= kGridThreads) return;
    throw launch::SetupError(
        {path + ": the kernel synchronises its grid (a grid group on line " + std::to_string(line) +
         "), so the CPU backend runs all its blocks at once, each on a thread of its own: at most " +
         std::to_string(kGridBlocks) + " blocks and " + std::to_string(kGridThreads) +
         " threads in all. This grid has " + std::to_string(blocks) + " blocks of " +
         std::to_string(g.threadsPerBlock()) + " threads (" + std::to_string(threads) +
         "). Use fewer blocks, with a grid-stride loop to cover the data."});
}

// Where a kernel fault happened, in front of its message: nothing for a single launch (the message names
// the kernel), the step and its pass for a program's.
std::string inStep(const launch::Program& program, const launch::Operation& operation) {
    return program.single ? std::string() : "at " + launch::whereIs(program, operation) + ", ";
}

} // namespace

launch::RunResult CpuRunner::run(const launch::RunSetup& setup, const launch::RunOptions& options) const {
    launch::RunResult result;
    result.backend = backendName();
    const launch::Program program = launch::programOf(setup);
    if (auto problems = launch::checkLaunches(program, limits()); !problems.empty())
        throw launch::SetupError(problems);
    const int gridLine = source::gridGroupLine(setup.source);
    std::uint64_t gridWorkers = 0;
    if (gridLine > 0)
        for (const auto& [kernel, geometry] : program.distinctLaunches()) {
            checkWholeGrid(geometry, gridLine, launch::launchPath(program, kernel, geometry));
            gridWorkers = std::max(gridWorkers, geometry.blocks());
        }
    const auto workers = gridLine > 0 ? static_cast<unsigned>(gridWorkers) : workers_;

    auto [compiled, execution, split, fibers, deferred] = compile(setup);
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

    // The operation the child is at, in memory this process reads should the child crash.
    model::Array operation(model::DType::UInt64, {1}, sandbox::childSharedAllocator());
    auto* at = operation.as<std::uint64_t>().data();
    *at = program.operations.size();
    const auto whereNow = [&program, at]() -> std::string {
        return *at < program.operations.size() ? "at " + launch::whereIs(program, program.operations[*at])
                                               : "";
    };
    const cpu::ContainedCode code{program.single ? "the kernel " + setup.signature.name : "the program",
                                  compiled.library,
                                  compiler_.cacheDirectory(),
                                  memoryBudget(program, workers, fibers),
                                  options.cancel,
                                  program.single ? std::function<std::string()>() : whereNow};
    // A lambda may not name a structured binding (clang).
    const Loaded loaded{
        compiled.library, split, deferred, fibers, gridLine > 0, flushesDenormals(setup.compile.options), at};
    const auto answer = runContainedOnInputs(code, setup, options.readInputsInPlace && program.single,
                                             [&](const ChildInputs& inputs, const std::atomic<bool>& cancel) {
                                                 return runLoaded(setup, program, options, loaded, inputs,
                                                                  result.outputs, cancel);
                                             });
    if (answer.value("cancelled", false)) result.cancelled = true;
    result.h2dMs = answer.value("h2d", std::vector<double>{});
    result.kernelMs = answer.value("kernel", std::vector<double>{});
    result.d2hMs = answer.value("d2h", std::vector<double>{});
    if (!program.single) {
        result.steps = launch::stepTimings(program);
        const auto steps = answer.value("steps", std::vector<std::vector<double>>{});
        for (std::size_t i = 0; i < steps.size() && i < result.steps.size(); ++i)
            result.steps[i].ms = steps[i];
    }
    if (shared != wanted)
        for (auto& [name, array] : result.outputs)
            array = array.copyTo(wanted);
    return result;
}

namespace {

// How each kernel instance runs (CpuRunner::Compiled's).
struct Execution {
    const std::vector<bool>& split;
    const std::vector<std::vector<std::size_t>>& deferred;
    bool fibers = false;
};

// A program replayed in the child: the kernels' entry points and the symbols' addresses in the loaded
// library, each buffer's memory, and the operations performed on them.
class ProgramReplay {
public:
    ProgramReplay(const SharedLibrary& library, const launch::RunSetup& setup, const launch::Program& program,
                  const ChildInputs& inputs, launch::NamedArrays& outputs, bool checkBounds)
        : setup_(setup), program_(program), outputs_(outputs), checkBounds_(checkBounds) {
        bind(library);
        placeBuffers(inputs);
        prepareParameters();
    }

    // Refills what the kernels read from the inputs, and zeroes the scratch buffers.
    void refill(const ChildInputs& inputs) {
        inputs.refill(working_);
        for (std::size_t b = 0; b < program_.buffers.size(); ++b)
            if (program_.buffers[b].scratch()) zeroBytes(memory_[b], program_.buffers[b].bytes());
    }

    // Runs one operation, launches on `grid`.
    void perform(const launch::Operation& operation, GridRun& grid, const Execution& execution) {
        std::visit(Overloaded{
                       [&](const launch::LaunchOperation& op) { launch(operation, op, grid, execution); },
                       [&](const launch::CopyOperation& op) {
                           std::memmove(at(op.to), at(op.from),
                                        op.elements * model::byteSize(program_.buffers[op.to.buffer].dtype));
                       },
                       [&](const launch::FillOperation& op) { fill(at(op.to), op.value, op.elements); },
                       [&](const launch::SymbolOperation& op) {
                           std::memcpy(symbols_[op.symbol].first, op.from ? at(*op.from) : op.values.data(),
                                       op.bytes);
                       },
                   },
                   operation.what);
    }

    // The library's way to apply a worker's deferred atomics, and the size of their table.
    using Flush = void (*)(void*);
    Flush flushDeferred() const noexcept { return flushDeferred_; }
    std::size_t deferredBytes() const noexcept { return deferredBytes_; }

    // Whether out and inout arrays are written where the results are kept (no swap moves them).
    bool direct() const noexcept { return direct_; }

    // Outputs a swap moved, copied where the results are kept.
    void copyOut() {
        for (std::size_t i = 0; i < setup_.args.size(); ++i)
            if (setup_.args[i].copiedOut())
                copyBytes(outputs_[outputOf_[i]].second.data(), at(program_.finalPlace[i]),
                          setup_.args[i].array.bytes());
    }

private:
    std::byte* at(const launch::BufferPlace& place) const {
        return memory_[place.buffer] + place.offset * model::byteSize(program_.buffers[place.buffer].dtype);
    }

    static void fill(std::byte* to, const std::vector<std::byte>& value, std::uint64_t elements) {
        const std::size_t size = value.size();
        if (std::all_of(value.begin(), value.end(), [](std::byte b) { return b == std::byte{0}; })) {
            std::memset(to, 0, elements * size);
            return;
        }
        for (std::uint64_t i = 0; i < elements; ++i)
            std::memcpy(to + i * size, value.data(), size);
    }

    void bind(const SharedLibrary& library) {
        for (std::size_t k = 0; k < program_.kernels.size(); ++k) {
            const std::string n = std::to_string(k);
            const Entry entry{symbol<int (*)()>(library, "kernelpad_arity_" + n),
                              symbol<unsigned long long (*)()>(library, "kernelpad_private_" + n),
                              symbol<void (*)(void* const*)>(library, "kernelpad_run_block_" + n),
                              symbol<void (*)(void* const*, unsigned, unsigned, unsigned)>(
                                  library, "kernelpad_run_thread_" + n)};
            const auto& signature = program_.kernels[k].signature;
            if (static_cast<std::size_t>(entry.arity()) != signature.parameters.size())
                throw launch::SetupError({(program_.single ? std::string("args") : program_.kernels[k].name) +
                                          ": the kernel takes " + std::to_string(entry.arity()) +
                                          " parameters, the playground gives " +
                                          std::to_string(signature.parameters.size())});
            entries_.push_back(entry);
        }
        symbol<void (*)(void (*)(Meeting&), void* (*)())>(library, "kernelpad_install")(
            &ThreadFibers::meet, &warpSlotsOfThisThread);
        // The header's WarpSlots and the core's mirror of it (WarpExchange.cpp) must agree to the byte.
        if (symbol<unsigned long long (*)()>(library, "kernelpad_warp_slots_bytes")() != warpSlotsBytes())
            throw Error("the compiled kernel's warp slots differ from this Kernelpad's: "
                        "resources/cpu/kernelpad_cuda_host.h and core/cpu/WarpExchange.cpp disagree");
        flushDeferred_ = symbol<void (*)(void*)>(library, "kernelpad_flush_deferred");
        deferredBytes_ = symbol<unsigned long long (*)()>(library, "kernelpad_deferred_bytes")();
        if (checkBounds_) {
            using Report = void (*)(const char*, long long, unsigned long long, uint3Like, uint3Like,
                                    const char*, unsigned);
            symbol<void (*)(Report)>(library, "kernelpad_install_bounds")(&recordOutOfBounds);
        }
        for (std::size_t s = 0; s < program_.symbols.size(); ++s) {
            unsigned long long bytes = 0;
            auto* address = symbol<void* (*)(unsigned long long*)>(library, "kernelpad_symbol_" +
                                                                                std::to_string(s))(&bytes);
            symbols_.emplace_back(static_cast<std::byte*>(address), bytes);
        }
        launch::checkSymbolWrites(program_, [this](std::uint32_t s) { return symbols_[s].second; });
    }

    // What the kernels read and write, refilled from the inputs before every repeat. Out and inout arrays
    // are the results themselves (memory shared with the parent) unless a swap moves them, so nothing is
    // copied out; In arrays read in place are the inputs themselves; the others, and scratch buffers, are
    // working copies.
    void placeBuffers(const ChildInputs& inputs) {
        direct_ = !program_.argumentsMoved();
        owned_.resize(program_.buffers.size());
        memory_.assign(program_.buffers.size(), nullptr);
        working_.assign(setup_.args.size(), nullptr);
        outputOf_.assign(setup_.args.size(), 0);
        for (std::size_t i = 0, out = 0; i < setup_.args.size(); ++i)
            if (setup_.args[i].copiedOut()) outputOf_[i] = out++;
        for (std::size_t b = 0; b < program_.buffers.size(); ++b) {
            const auto& buffer = program_.buffers[b];
            const auto argument = static_cast<std::size_t>(buffer.argument);
            if (!buffer.scratch() && direct_ && setup_.args[argument].copiedOut()) {
                memory_[b] = outputs_[outputOf_[argument]].second.data();
            } else if (std::byte* input = buffer.scratch() ? nullptr : inputs.inPlace(argument)) {
                memory_[b] = input;
                continue; // no working copy to refill
            } else {
                owned_[b] = model::Array(buffer.dtype, buffer.shape, model::heapAllocator(),
                                         model::Array::Uninitialized{});
                memory_[b] = owned_[b].data();
            }
            if (!buffer.scratch()) working_[argument] = memory_[b];
        }
    }

    // A launch's parameters: pointers into the buffers, or the scalars' bytes; in the bounds-checking mode
    // an array parameter is its data, element count and name.
    void launch(const launch::Operation& operation, const launch::LaunchOperation& op, GridRun& grid,
                const Execution& execution) {
        const auto& signature = program_.kernels[op.kernel].signature;
        const Parameters& parameters =
            parameters_[static_cast<std::size_t>(&operation - program_.operations.data())];
        if (checkBounds_) { // only checked arrays report (a lock per launch is a third of a 4x4 array's run)
            const std::lock_guard lock(boundsReport.mutex);
            boundsReport.count = 0;
            boundsReport.launch = inStep(program_, operation) + "the kernel " + signature.name;
            ++boundsReport.launches;
            boundsReport.running = true;
        }
        // The launch has ended, by returning or throwing: the watcher of a launch gone on too long stands
        // down. Returns the out-of-bounds accesses it counted (read under the same lock).
        struct Ended {
            bool checked;
            std::size_t now() noexcept {
                if (!checked) return 0;
                checked = false;
                const std::lock_guard lock(boundsReport.mutex);
                boundsReport.running = false;
                boundsReport.changed.notify_all();
                return boundsReport.count;
            }
            ~Ended() { now(); }
        } ended{checkBounds_};
        const BlockExecution how = execution.split[op.kernel] ? BlockExecution::Split
                                   : execution.fibers         ? BlockExecution::Fibers
                                                              : BlockExecution::Loop;
        const bool defer = mayDefer(op, execution.deferred[op.kernel]);
        try {
            grid.run(entries_[op.kernel], how, op.geometry, parameters.pointers.data(), signature.name, defer,
                     defer ? parameters.privateCopies : kNoCopies);
        } catch (const launch::KernelFault& e) {
            if (program_.single) throw;
            throw launch::KernelFault(inStep(program_, operation) + e.what());
        }
        if (ended.now() > 0) {
            const std::lock_guard lock(boundsReport.mutex);
            throw launch::KernelFault(outOfBoundsText(boundsReport, "in all"));
        }
    }

    // The deferred atomics of a launch stay deferred only where no other pointer argument reaches into
    // the same buffer (a program may pass one buffer twice, or a view of it): the kernel could read
    // through that one what its atomics change.
    bool mayDefer(const launch::LaunchOperation& op, const std::vector<std::size_t>& deferred) const {
        if (deferred.empty()) return false;
        for (const std::size_t d : deferred)
            for (std::size_t i = 0; i < op.args.size(); ++i)
                if (i != d && op.args[i].pointer && op.args[d].pointer &&
                    op.args[i].place.buffer == op.args[d].place.buffer)
                    return false;
        return true;
    }

    const launch::RunSetup& setup_;
    const launch::Program& program_;
    launch::NamedArrays& outputs_;
    bool checkBounds_;
    std::vector<Entry> entries_;                                // per kernel instance
    std::vector<std::pair<std::byte*, std::uint64_t>> symbols_; // address and size
    bool direct_ = true;
    std::vector<model::Array> owned_;   // per buffer: a working copy, or none
    std::vector<std::byte*> memory_;    // per buffer
    std::vector<std::byte*> working_;   // per argument, for the refill
    std::vector<std::size_t> outputOf_; // per argument copied out: its place in the outputs
    void (*flushDeferred_)(void*) = nullptr;
    std::size_t deferredBytes_ = 0;
    // A launch's parameters, the same in every repeat (the buffers stay where they are): worked out once,
    // since a 4x4 array's launch is tens of nanoseconds.
    struct Parameters {
        std::vector<void*> pointers;
        std::vector<ArrayArgument> arrays;      // checked arrays, which pointers point to in bounds mode
        std::vector<PrivateCopy> privateCopies; // where the launch defers its atomics
    };
    static inline const std::vector<PrivateCopy> kNoCopies;
    // A buffer of at most this many bytes (4,096 bins of 4 bytes) is copied for each worker where the
    // kernel's atomics on it are all integer adds: a copy per worker, zeroed, then scanned once a launch.
    static constexpr std::uint64_t kPrivateBytes = 16384;
    // A larger one, up to this size, where it has no more elements than the launch has threads (a
    // histogram of 100,000 bins over 2M values): summed after the launch, a slice a worker (merged). Its
    // adds went to the worker's table before, a hash probe each where the bins outnumber its slots: 41 ms
    // for the 2M values on 2 cores, against 3.4 ms for a serial loop. The scan then costs less than the
    // adds, and the copies take at most this much memory a worker.
    static constexpr std::uint64_t kMergedBytes = 1 << 20;
    std::vector<Parameters> parameters_; // per operation (empty for all but launches)

    void prepareParameters() {
        parameters_.resize(program_.operations.size());
        for (std::size_t o = 0; o < program_.operations.size(); ++o) {
            const auto* op = std::get_if<launch::LaunchOperation>(&program_.operations[o].what);
            if (!op) continue;
            const auto& signature = program_.kernels[op->kernel].signature;
            Parameters& p = parameters_[o];
            p.pointers.assign(op->args.size(), nullptr);
            p.arrays.assign(op->args.size(), {});
            for (std::size_t i = 0; i < op->args.size(); ++i) {
                const auto& arg = op->args[i];
                if (!arg.pointer) {
                    p.pointers[i] = const_cast<std::byte*>(arg.bytes.data());
                    continue;
                }
                p.pointers[i] = at(arg.place);
                if (checkBounds_ && signature.parameters[i].dtype) {
                    p.arrays[i] = {p.pointers[i], arg.elements, arg.name.c_str()};
                    p.pointers[i] = &p.arrays[i];
                }
            }
            if (!checkBounds_) p.privateCopies = privateCopies(*op);
        }
    }

    // The parameters of `op` whose buffers each worker gets a copy of (the library says which may: integer
    // adds alone, renamed _kp_pNAdd; the buffer small, and aligned to the adds' size).
    std::vector<PrivateCopy> privateCopies(const launch::LaunchOperation& op) const {
        std::vector<PrivateCopy> copies;
        const unsigned long long bits = entries_[op.kernel].privateParameters();
        for (unsigned i = 0; i < 32 && i < op.args.size(); ++i) {
            if (!(bits >> i & 1u) || !op.args[i].pointer) continue;
            const auto& place = op.args[i].place;
            const unsigned size = bits >> (32 + i) & 1u ? 8 : 4;
            const std::uint64_t bytes = program_.buffers[place.buffer].bytes();
            const std::uint64_t offset = place.offset * model::byteSize(program_.buffers[place.buffer].dtype);
            std::byte* const buffer = memory_[place.buffer];
            const bool merged = bytes > kPrivateBytes && bytes <= kMergedBytes &&
                                bytes / size <= op.geometry.blocks() * op.geometry.threadsPerBlock();
            if (bytes == 0 || (bytes > kPrivateBytes && !merged) || bytes % size != 0 || offset % size != 0 ||
                reinterpret_cast<std::uintptr_t>(buffer) % size != 0)
                continue;
            copies.push_back({i, buffer, bytes, offset, size, merged});
        }
        return copies;
    }
};

} // namespace

nlohmann::json CpuRunner::runLoaded(const launch::RunSetup& setup, const launch::Program& program,
                                    const launch::RunOptions& options, const Loaded& loaded,
                                    const ChildInputs& inputs, launch::NamedArrays& outputs,
                                    const std::atomic<bool>& cancel) const {
    const auto library = loadCompiled(loaded.library);
    ProgramReplay replay(*library, setup, program, inputs, outputs, checkBounds_);

    // The workers, their fibers and stacks are kept from launch to launch and repeat to repeat: mapping a
    // worker's stacks (a guard page each, a page fault for each stack's top) in every repeat cost more than
    // the kernel on 16 cores, where the workers queue on the process's memory map.
    const auto prepareWorker = [flush = loaded.flushDenormals] {
        sandbox::prepareThreadForOverflow();
        if (flush) flushDenormalsOnThisThread();
    };
    prepareWorker();
    std::uint64_t mostBlocks = 0;
    for (const auto& [kernel, geometry] : program.distinctLaunches())
        mostBlocks = std::max(mostBlocks, geometry.blocks());
    GridRun grid(workers_, mostBlocks, loaded.wholeGrid, prepareWorker);
    grid.setDeferredAtomics(replay.flushDeferred(), replay.deferredBytes());
    const Execution execution{loaded.split, loaded.deferred, loaded.fibers};

    std::vector<std::vector<double>> stepMs(program.single ? 0 : program.steps.size());
    std::vector<double> roundSteps(stepMs.size());
    std::atomic_ref<std::uint64_t> operationNow(*loaded.operation);
    int round = 0;
    const auto times = launch::repeatRounds(options.warmup, options.repeat, &cancel, [&] {
        // The workers, asleep since the last round's launch, wake while the inputs are copied in: a
        // sleeping worker took hundreds of microseconds to join a 0.6 ms launch on a 2-core virtual machine.
        grid.rouse();
        auto t = Clock::now();
        replay.refill(inputs);
        const double copyIn = millisecondsSince(t);
        std::fill(roundSteps.begin(), roundSteps.end(), 0.0);
        const auto start = Clock::now();
        for (std::size_t j = 0; j < program.operations.size(); ++j) {
            const auto& operation = program.operations[j];
            if (program.single) {
                replay.perform(operation, grid, execution);
                continue;
            }
            operationNow.store(j, std::memory_order_relaxed);
            const auto before = Clock::now();
            replay.perform(operation, grid, execution);
            launch::chargeStep(program, operation.step, millisecondsSince(before), roundSteps);
        }
        if (!program.single) operationNow.store(program.operations.size(), std::memory_order_relaxed);
        const double kernel = millisecondsSince(start);
        t = Clock::now();
        if (!replay.direct()) replay.copyOut();
        const double copyOut = replay.direct() ? 0.0 : millisecondsSince(t);
        if (round++ >= options.warmup)
            for (std::size_t i = 0; i < stepMs.size(); ++i)
                stepMs[i].push_back(roundSteps[i]);
        return launch::RoundTimes{copyIn, kernel, copyOut};
    });
    return {{"h2d", samples(times.h2dMs)},
            {"kernel", samples(times.kernelMs)},
            {"d2h", samples(times.d2hMs)},
            {"steps", stepMs},
            {"cancelled", times.cancelled}};
}

} // namespace kp::cpu
