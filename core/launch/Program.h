// A playground's steps made ready to run: every buffer sized, every kernel instance named, every loop
// unrolled and every expression evaluated, so that a backend replays a flat list of operations over
// buffers it allocated once (they stay where the kernels run between steps). Everything a program could
// get wrong, a missing buffer or kernel, a view outside its buffer, a loop that does not end, a symbol the
// source does not declare, is found by planProgram before anything runs. A single-launch playground is
// the program of one launch (singleLaunch), so both backends run every playground the same way.
#pragma once

#include "LaunchGeometry.h"
#include "RunResult.h"
#include "core/model/Array.h"
#include "core/model/KernelSignature.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kp::launch {

// A loop runs at most this many passes unless its "limit" says otherwise.
constexpr std::uint64_t kDefaultLoopLimit = 100000;
// One run of a program performs at most this many operations (launches, copies, fills, symbol writes).
constexpr std::uint64_t kMaxOperations = 1000000;

// Where a pointer points: a buffer of the program and an offset into it, in elements.
struct BufferPlace {
    std::uint32_t buffer = 0;
    std::uint64_t offset = 0;
    bool operator==(const BufferPlace&) const = default;
};

struct ProgramBuffer {
    std::string name; // the argument's, or the scratch buffer's
    model::DType dtype = model::DType::Float32;
    model::Shape shape{1};
    int argument = -1; // its index in RunSetup::args; -1 for scratch memory

    std::uint64_t elements() const { return model::elementCount(shape); }
    std::uint64_t bytes() const { return elements() * model::byteSize(dtype); }
    bool scratch() const { return argument < 0; }
};

// A kernel as it is launched: a template kernel once per set of template arguments.
struct KernelInstance {
    std::string name;                 // what NVRTC and the host compiler are asked for: "reduce<float, 256>"
    model::KernelSignature signature; // its parameters, with template type parameters bound where known
};

// One parameter's value in a launch.
struct LaunchArgument {
    bool pointer = false;
    BufferPlace place;          // pointer: where it points
    std::uint64_t elements = 0; // pointer: how many elements from there to the end of the buffer
    std::string name;           // pointer: what the step called it ("data + 256"), for bounds messages
    model::DType scalarType = model::DType::Int32; // scalar
    std::vector<std::byte> bytes;                  // scalar: as the parameter buffer holds it
};

struct LaunchOperation {
    std::uint32_t kernel = 0; // into Program::kernels
    LaunchGeometry geometry;
    std::vector<LaunchArgument> args;
};
struct CopyOperation {
    BufferPlace from, to;
    std::uint64_t elements = 0;
};
struct FillOperation {
    BufferPlace to;
    std::uint64_t elements = 0;
    std::vector<std::byte> value; // one element's bytes
};
struct SymbolOperation {
    std::uint32_t symbol = 0;        // into Program::symbols
    std::optional<BufferPlace> from; // a buffer's elements, or:
    std::vector<std::byte> values;   // the step's numbers, as the symbol's element type
    std::uint64_t bytes = 0;         // how many bytes are written
};

struct Operation {
    std::uint32_t step = 0; // into Program::steps
    std::uint64_t pass = 0; // the pass of the innermost loop around it (0-based), 0 outside loops
    std::variant<LaunchOperation, CopyOperation, FillOperation, SymbolOperation> what;
};

// A step of the file, for the step list and the timeline: where it is, what it does, how often it ran.
struct ProgramStep {
    std::string path; // "steps[2].steps[0]"
    std::string kind; // "launch", "copy", ...
    std::string
        label;       // the step's title, else what it does: "reduce<<<divup(m, 512), 256>>>(in, partial, m)"
    int depth = 0;   // 0 for a top-level step, 1 inside one loop, ...
    int parent = -1; // the loop it is in, as an index into Program::steps; -1 at the top
    std::uint64_t calls = 0; // times it ran in one run of the program (a loop: its passes)
};

// A __constant__ or __device__ variable that a step writes.
struct ProgramSymbol {
    std::string name;
    std::optional<model::DType> dtype; // its element type, where the declaration names a plain one
    int line = 0;
};

struct Program {
    std::vector<ProgramBuffer> buffers; // the arguments' arrays first, in argument order, then scratch
    std::vector<KernelInstance> kernels;
    std::vector<ProgramSymbol> symbols;
    std::vector<ProgramStep> steps; // the file's steps, depth first
    std::vector<Operation> operations;
    // Per argument of RunSetup::args: its buffer (-1 for scalars), and where its name points after the last
    // step (swaps move names): where an output is read back from.
    std::vector<int> argumentBuffer;
    std::vector<BufferPlace> finalPlace;
    bool single = false; // a single-launch playground's one launch (no "steps" in the file)

    std::uint64_t launchCount() const;
    // Every distinct kernel and geometry the program launches: what a backend checks against its limits
    // before the first operation.
    std::vector<std::pair<std::uint32_t, LaunchGeometry>> distinctLaunches() const;
    // Whether some array argument ends elsewhere than in its own buffer (a swap moved its name).
    bool argumentsMoved() const;
};

// "steps[2].steps[0] (reduce<<<...>>>(...), pass 3 of its loop)": where an operation comes from, for
// messages; a single launch's kernel alone.
std::string whereIs(const Program& program, const Operation& operation);

// The JSON path of the first launch of `kernel` with `geometry` ("steps[1].launch"; "launch" for a single
// launch), where messages about that launch point.
std::string launchPath(const Program& program, std::uint32_t kernel, const LaunchGeometry& geometry);

// A kernel's own limits on its launches, where the backend knows them (zeros where it does not).
struct KernelLimits {
    std::uint64_t staticSharedBytes = 0;
    std::uint32_t maxThreadsPerBlock = 0;
    int registersPerThread = 0;
};
// Every problem of every distinct launch with `limits` (validate()), each starting with the launch's path
// ("steps[2].launch.block: ..."), before anything runs; `kernel` gives kernel k's own limits.
std::vector<std::string> checkLaunches(const Program& program, const LaunchLimits& limits,
                                       const std::function<KernelLimits(std::uint32_t kernel)>& kernel = {});

// Throws SetupError for the first write into a symbol that does not fit it, naming its step; `bytes` gives
// symbol s's size as the backend found it. Nothing runs before every write is known to fit.
void checkSymbolWrites(const Program& program,
                       const std::function<std::uint64_t(std::uint32_t symbol)>& bytes);

// One StepTiming per step of the program, with no times yet.
std::vector<StepTiming> stepTimings(const Program& program);
// Adds `ms` to step `step` and to each loop around it, in `perStep` (one entry per step).
void chargeStep(const Program& program, std::uint32_t step, double ms, std::vector<double>& perStep);

} // namespace kp::launch
