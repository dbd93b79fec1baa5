// Small helpers the core's test suites share: whole-file text I/O, every dtype, the message of an
// expected InputError, and a run setup from inline code.
#pragma once

#include "core/Error.h"
#include "core/cuda/Device.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/RunSetup.h"
#include "core/model/DType.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace kp::test {

// An NVIDIA H100's properties as the driver reports them: occupancy and launch checks without a GPU.
inline cuda::DeviceProperties h100() {
    cuda::DeviceProperties p;
    p.name = "NVIDIA H100 80GB HBM3";
    p.ccMajor = 9;
    p.ccMinor = 0;
    p.multiprocessors = 132;
    p.maxThreadsPerBlock = 1024;
    p.maxBlockDim = {1024, 1024, 64};
    p.maxGridDim = {2147483647, 65535, 65535};
    p.sharedPerBlock = 48 * 1024;
    p.sharedPerBlockOptin = 227 * 1024;
    p.sharedPerMultiprocessor = 228 * 1024;
    p.registersPerBlock = 65536;
    p.registersPerMultiprocessor = 65536;
    p.warpSize = 32;
    p.maxThreadsPerMultiprocessor = 2048;
    p.maxBlocksPerMultiprocessor = 32;
    return p;
}

inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

#ifdef KP_SOURCE_DIR
// The samples of this source tree: the folders of samples/ that hold a playground named after them.
inline int samplesInSourceTree() {
    int samples = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(KP_SOURCE_DIR) / "samples"))
        if (entry.is_directory() && std::filesystem::is_regular_file(
                                        entry.path() / (entry.path().filename().string() + ".kpad.json")))
            ++samples;
    return samples;
}
#endif

inline void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// A playground with inline code, parsed as a file at `path` would be, and prepared for a run.
inline launch::RunSetup setupOf(const std::string& code, const std::string& kernel,
                                const std::vector<nlohmann::json>& args, const nlohmann::json& launch,
                                const std::filesystem::path& path) {
    nlohmann::json playground = {
        {"format", "kernelpad/1"}, {"code", code}, {"kernel", kernel}, {"launch", launch}};
    playground["args"] = args;
    return launch::prepare(io::parsePlayground(playground.dump(), path));
}

// Cooperative groups as a course uses them: tiles of the block and of a tile, cg::reduce and a scan, a
// tile's shuffle and votes. groups(in, blockSums, quarterMax, scans, votes) for blocks of 128 threads.
inline constexpr const char* kCooperativeGroupsKernel =
    "#include <cooperative_groups.h>\n"
    "#include <cooperative_groups/reduce.h>\n"
    "#include <cooperative_groups/scan.h>\n"
    "namespace cg = cooperative_groups;\n"
    "__global__ void groups(const int* in, int* blockSums, int* quarterMax, int* scans, unsigned* "
    "votes) {\n"
    "    cg::thread_block block = cg::this_thread_block();\n"
    "    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);\n"
    "    auto quarter = cg::tiled_partition<8>(warp);\n"
    "    const unsigned id = block.group_index().x * block.num_threads() + block.thread_rank();\n"
    "    const int v = in[id];\n"
    "    const int warpSum = cg::reduce(warp, v, cg::plus<int>());\n"
    "    quarterMax[id] = cg::reduce(quarter, v, cg::greater<int>());\n"
    "    scans[id] = cg::exclusive_scan(quarter, v) + 1000 * warp.shfl_down(v, 1);\n"
    "    votes[id] = quarter.ballot(v % 3 == 0) + (warp.any(v == 7) ? 1000u : 0u);\n"
    "    __shared__ int perWarp[32];\n"
    "    if (warp.thread_rank() == 0) perWarp[warp.meta_group_rank()] = warpSum;\n"
    "    block.sync();\n"
    "    if (block.thread_rank() == 0) {\n"
    "        int total = 0;\n"
    "        for (unsigned w = 0; w < warp.meta_group_size(); ++w) total += perWarp[w];\n"
    "        blockSums[block.group_index().x] = total;\n"
    "    }\n"
    "}\n";

// Half precision as cuda_fp16.h offers it: halves(out, a, b, pair), one thread an element. Written with
// __hmul_rn, which NVRTC never fuses into a half FMA, so the CPU backend gives the GPU's bits.
// A grid group: each block sums its share of `in` (a grid-stride loop over grid.thread_rank()), writes
// its partial, the whole grid syncs, and the grid's first thread adds the partials. Blocks of at most 64.
inline constexpr const char* kGridSyncKernel =
    "#include <cooperative_groups.h>\n"
    "namespace cg = cooperative_groups;\n"
    "__global__ void twoPhase(const int* in, int* partial, int* total, int n) {\n"
    "    cg::grid_group grid = cg::this_grid();\n"
    "    cg::thread_block block = cg::this_thread_block();\n"
    "    __shared__ int s[64];\n"
    "    int sum = 0;\n"
    "    for (int i = (int)grid.thread_rank(); i < n; i += (int)grid.size()) sum += in[i];\n"
    "    s[threadIdx.x] = sum;\n"
    "    block.sync();\n"
    "    if (threadIdx.x == 0) {\n"
    "        int b = 0;\n"
    "        for (unsigned k = 0; k < blockDim.x; ++k) b += s[k];\n"
    "        partial[blockIdx.x] = b;\n"
    "    }\n"
    "    grid.sync();\n"
    "    if (grid.thread_rank() == 0) {\n"
    "        int t = 0;\n"
    "        for (unsigned b = 0; b < grid.num_blocks(); ++b) t += partial[b];\n"
    "        *total = t;\n"
    "    }\n"
    "}\n";

inline constexpr const char* kHalfPrecisionKernel =
    "#include <cuda_fp16.h>\n"
    "__global__ void halves(__half* out, const __half* a, const __half* b, __half2* pair) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    __half s = __hfma(a[i], b[i], __float2half(0.5f));\n"
    "    out[i] = __hsub(__hmul_rn(s, a[i]), b[i]);\n"
    "    pair[i] = __hadd2(__floats2half2_rn(__half2float(a[i]), 1.0f), __halves2half2(b[i], s));\n"
    "}\n";

// Every dtype a playground can name: scalars, bool, bfloat16 and CUDA's 48 vector types.
inline const std::span<const model::DType> kAllTypes = model::allDTypes();

// The message of the InputError `action` throws; empty when it throws none.
inline std::string inputErrorOf(const std::function<void()>& action) {
    try {
        action();
    } catch (const InputError& error) {
        return error.what();
    }
    return {};
}

} // namespace kp::test
