// A playground made ready to run: its source read, its kernel found and matched parameter by parameter,
// its input arrays generated, its scalars evaluated and its grid worked out. Every backend runs a
// RunSetup, so a mismatch between the file and the kernel is found once, before any backend is touched.
#pragma once

#include "LaunchGeometry.h"
#include "Program.h"
#include "core/Error.h"
#include "core/model/Array.h"
#include "core/model/KernelSignature.h"
#include "core/model/Playground.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kp::launch {

// Everything wrong with a playground for its kernel, one line each, starting with the JSON path of the
// field to fix ("args[1]", "launch.grid", "kernel").
class SetupError : public InputError {
public:
    explicit SetupError(std::vector<std::string> problems);
    const std::vector<std::string>& problems() const noexcept { return problems_; }

private:
    std::vector<std::string> problems_;
};

struct RunArgument {
    std::string name;
    model::Parameter parameter; // the kernel's, as parsed
    bool isArray = false;
    model::Direction direction = model::Direction::In; // arrays
    model::Array array;                                // arrays: inputs filled, outputs zero
    model::DType scalarType = model::DType::Int32;     // scalars
    double scalarValue = 0;
    std::vector<std::byte> scalarBytes; // the value as the kernel's parameter buffer holds it

    bool copiedIn() const { return isArray && direction != model::Direction::Out; }
    bool copiedOut() const { return isArray && direction != model::Direction::In; }
};

struct RunSetup {
    std::string source;     // the kernel's source text
    std::string sourceName; // what diagnostics call it: the file as the playground names it, or "<code>"
    std::string kernelName; // as the playground names it; may be a template instance ("scale<float>")
    model::KernelSignature signature;
    std::vector<RunArgument> args;
    LaunchGeometry launch;
    model::CompileSpec compile;
    std::optional<model::ReferenceSpec> reference;
    model::CheckSpec check;
    std::filesystem::path folder; // the playground's
    // A program's buffers, kernels and operations as planned; for a single launch, `single` and its kernel
    // only: what runs is launch::programOf(), built from the launch and arguments as they are then. A
    // program's `signature` is its arguments' (model::programSignature), its `kernelName` and `launch`
    // those of its first launch.
    Program program;

    const RunArgument* find(std::string_view name) const;
    // The names of the arrays that come back (out and inout), in parameter order.
    std::vector<std::string> outputs() const;
    // The outputs `check` compares: check.outputs, or every output when it names none.
    std::vector<std::string> checkedOutputs() const;
};

// Throws SetupError listing every problem found (wrong argument count, a pointer given a scalar, a
// dtype that differs from the parameter's, an out direction on a const pointer, ...), InputError
// when the source cannot be read or an init fails (a bad .npy, a formula error). Arrays are allocated
// with `allocator` (the CUDA runner passes pinned memory).
// `made`, when given, is asked first for each array argument: an array it returns is that argument's,
// instead of one generated, read or zeroed (a sweep's arrays, made once at the largest size). An out
// array's must be zeros.
using MadeArrays = std::function<std::optional<model::Array>(std::size_t argument,
                                                             const std::shared_ptr<model::HostAllocator>&)>;
RunSetup prepare(const model::Playground& playground,
                 const std::shared_ptr<model::HostAllocator>& allocator = model::heapAllocator(),
                 const MadeArrays& made = {});

// Refuses a run that would not fit in `availableBytes` of host memory (0: unknown, no check), before
// anything is allocated: a run holds about 2x its arrays plus its outputs once more, and twice more
// without a reference (RunSetup.cpp says where each copy is). Throws SetupError naming the largest
// array, what the run needs and what is available. prepare() calls it with the memory available now.
void checkHostMemory(const model::Playground& playground, const std::vector<model::Parameter>& parameters,
                     std::uint64_t availableBytes);

// The source alone, its compile options, reference and check: no kernel is looked for. What compiling a
// program's source for its diagnostics needs while its steps cannot be planned. Throws InputError when the
// source cannot be read.
RunSetup prepareSource(const model::Playground& playground);

// The kernel alone: source, signature and compile options, no arguments and no launch (a program: its
// steps planned, from the arguments' shapes and values, without making an array). What compiling
// for diagnostics and attributes needs (run::inspect), without allocating a run's arrays. Throws
// SetupError when the kernel is missing, InputError when the source cannot be read.
RunSetup prepareKernel(const model::Playground& playground);

// Gives a template kernel's type parameters the dtypes its name's arguments say ("scale<float>"): a
// parameter `T* data` is then matched as a float32 array. A type parameter left to its default
// (`typename T = float`) takes the default's.
void bindTemplateArguments(model::KernelSignature& signature, const std::string& kernelName);

// "auto": enough blocks of `block` to cover `shape` (x over the last dimension, y over the one before,
// z over the first of three).
std::array<std::uint32_t, 3> autoGrid(const model::Shape& shape, const std::array<std::uint32_t, 3>& block);

} // namespace kp::launch
