#include "WarpExchange.h"

#include "BlockState.h"
#include "ThreadFibers.h"
#include "WarpOperations.h"
#include "core/launch/KernelFault.h"

#include <bit>
#include <cstdint>
#include <memory>
#include <string>

namespace kp::cpu {

namespace {

constexpr unsigned kMaxThreads = 1024;

// ::kernelpad::WarpSlots in resources/cpu/kernelpad_cuda_host.h, field for field. An occasion's records
// are in one of two sets (its parity): a statement's takes run in the region after its records, where
// the next warp operation's records may already begin.
struct WarpSlots {
    std::uint64_t value[2][kMaxThreads];
    std::uint64_t occasion[2][kMaxThreads];
    std::uint64_t result[2][kMaxThreads];
    std::uint64_t operand[2][kMaxThreads];
    const char* function[2][kMaxThreads];
    const char* file[2][kMaxThreads];
    unsigned line[2][kMaxThreads];
    int source[2][kMaxThreads];
    unsigned mask[2][kMaxThreads];
    Meet what[2][kMaxThreads];
    std::uint64_t warpDone[2][kMaxThreads / kWarpLanes];
    std::uint64_t last[kMaxThreads];
    std::uint64_t missedAt[kMaxThreads];
    void (*complete)(unsigned warp, unsigned long long occasion);
    void (*refuse)(unsigned thread);
    void (*barrier)(unsigned thread, const char* function, const char* file, unsigned line);
    std::uint64_t fullAt[2];
    bool (*recorded)(unsigned long long occasion);
    std::uint64_t reduced[2][kMaxThreads / kWarpLanes]; // the header's: a tile reduce's results, worked out
};

// What the worker's messages need of a lane a warp operation named and did not find: who waited, where.
struct Missed {
    unsigned waiter = 0;
    unsigned parity = 0;
};

struct Exchange {
    WarpSlots slots;
    Missed missed[kMaxThreads];
};

thread_local std::unique_ptr<Exchange> owned;

Exchange& exchange() {
    return *owned;
}

Meeting meetingOf(const WarpSlots& x, unsigned parity, unsigned t) {
    return {x.what[parity][t], x.mask[parity][t],     x.value[parity][t], x.source[parity][t],
            x.line[parity][t], x.function[parity][t], x.file[parity][t],  0};
}

// Thread t's record just made cannot be: its mask leaves it out, or an earlier warp operation named it
// and did not find it (it would have waited for it).
[[noreturn]] void refuse(unsigned t) {
    const Exchange& x = exchange();
    const unsigned parity = x.slots.last[t] & 1;
    const Meeting m = meetingOf(x.slots, parity, t);
    if (m.what != Meet::Active && !(m.mask >> (t % kWarpLanes) & 1u))
        throw launch::KernelFault(leavesOutOwnLane(m, t));
    const Missed& missed = x.missed[t];
    throw launch::KernelFault(
        waitsFor(meetingOf(x.slots, missed.parity, missed.waiter), missed.waiter, t, callsWith(m)));
}

// Thread t, which a warp operation named and did not find, is at a __syncthreads() or an __activemask()
// (found without a record: WarpSlots in the header) instead.
[[noreturn]] void atBarrier(unsigned t, const char* function, const char* file, unsigned line) {
    const Exchange& x = exchange();
    const Missed& missed = x.missed[t];
    const std::string where = std::string(file ? file : "?") + ":" + std::to_string(line);
    const std::string name = function ? function : "?";
    throw launch::KernelFault(waitsFor(meetingOf(x.slots, missed.parity, missed.waiter), missed.waiter, t,
                                       name == "__syncthreads" ? "waits at __syncthreads at " + where
                                                               : "calls " + name + " at " + where));
}

// Every result of warp `w` at `occasion`, from the lanes that recorded then.
void complete(unsigned w, unsigned long long occasion) {
    Exchange& x = exchange();
    WarpSlots& slots = x.slots;
    const unsigned parity = occasion & 1, first = w * kWarpLanes;
    const unsigned threads = kernelpad_block_state.blockThreads;
    const unsigned lanes = threads - first < kWarpLanes ? threads - first : kWarpLanes;
    const std::uint32_t present = lanes == kWarpLanes ? ~0u : (1u << lanes) - 1u;
    std::uint64_t* results = slots.result[parity] + first;
    // The usual case first: a whole warp recorded one operation with the full mask (a shuffle reduction's
    // every step). One pass that compares, without branches, and the operation over the recorded values
    // in place.
    if (lanes == kWarpLanes) {
        const std::uint64_t* occasions = slots.occasion[parity] + first;
        const Meet* whats = slots.what[parity] + first;
        const unsigned* masks = slots.mask[parity] + first;
        const Meet what = whats[0];
        bool same = what != Meet::Active && masks[0] == ~0u;
        for (unsigned j = 0; j < kWarpLanes; ++j)
            same &= (occasions[j] == occasion) & (whats[j] == what) & (masks[j] == ~0u);
        if (same) {
            completeWarpOperation(what, ~0u, slots.value[parity] + first, slots.source[parity] + first,
                                  results);
            slots.warpDone[parity][w] = occasion;
            return;
        }
    }
    std::uint32_t arrived = 0, active = 0;
    std::uint64_t values[kWarpLanes];
    int sources[kWarpLanes];
    for (unsigned j = 0; j < lanes; ++j) {
        if (slots.occasion[parity][first + j] != occasion) continue;
        arrived |= 1u << j;
        active |= slots.what[parity][first + j] == Meet::Active ? 1u << j : 0u;
        values[j] = slots.value[parity][first + j];
        sources[j] = slots.source[parity][first + j];
    }
    // __activemask(): the lanes that reached it together.
    for (std::uint32_t left = active; left != 0; left &= left - 1)
        results[std::countr_zero(left)] = active;
    std::uint64_t groupResults[kWarpLanes];
    for (std::uint32_t left = arrived & ~active; left != 0;) {
        const auto j = static_cast<unsigned>(std::countr_zero(left));
        const Meet what = slots.what[parity][first + j];
        const unsigned mask = slots.mask[parity][first + j];
        std::uint32_t group = 0;
        for (std::uint32_t named = mask & present; named != 0; named &= named - 1) {
            const auto k = static_cast<unsigned>(std::countr_zero(named));
            if (!(arrived >> k & 1u)) {
                // Returned, or elsewhere: the second is found if it records again in this block.
                if (slots.missedAt[first + k] < kernelpad_block_state.warpBlockStart) {
                    slots.missedAt[first + k] = occasion;
                    x.missed[first + k] = {first + j, parity};
                }
                continue;
            }
            if (slots.what[parity][first + k] != what || slots.mask[parity][first + k] != mask)
                throw launch::KernelFault(waitsFor(meetingOf(slots, parity, first + j), first + j, first + k,
                                                   callsWith(meetingOf(slots, parity, first + k))));
            group |= 1u << k;
        }
        completeWarpOperation(what, group, values, sources, groupResults);
        for (std::uint32_t g = group; g != 0; g &= g - 1) {
            const auto k = static_cast<unsigned>(std::countr_zero(g));
            results[k] = groupResults[k];
        }
        left &= ~group;
    }
    slots.warpDone[parity][w] = occasion;
}

// After a loop of light records (the header's exchangeWarp, warpPhase 3) at `occasion`: each warp that
// recorded, completed at once, when all its 32 lanes did, with the full mask (a lighter record stores no
// more than that needs); false, with nothing else changed, when a warp did not or a lane recorded in full,
// and the loop records again in full. A warp completed here keeps its results: it is done at this occasion.
bool completeRecorded(unsigned long long occasion) {
    WarpSlots& slots = exchange().slots;
    const unsigned parity = occasion & 1;
    if (slots.fullAt[parity] == occasion) return false;
    const unsigned threads = kernelpad_block_state.blockThreads;
    for (unsigned first = 0; first < threads; first += kWarpLanes) {
        const std::uint64_t* lasts = slots.last + first;
        if (threads - first < kWarpLanes) { // a last warp of fewer lanes: its records complete in the takes
            for (unsigned j = 0; j < threads - first; ++j)
                if (lasts[j] == occasion) return false;
            continue;
        }
        // Whether all 32 lanes came with one operation, and whether none came, in one pass of OR- and
        // AND-reductions: GCC vectorises these at -O2 (SSE2), where it left a count of equal lanes scalar (a
        // third of warp_shuffle_reduction's warp bookkeeping). (d | -d) >> 63 is 1 where d is not zero.
        const Meet* whats = slots.what[parity] + first;
        std::uint64_t otherOccasion = 0, noneCame = 1;
        std::uint32_t otherWhat = 0;
        for (unsigned j = 0; j < kWarpLanes; ++j) {
            const std::uint64_t d = lasts[j] ^ occasion;
            otherOccasion |= d;
            noneCame &= (d | (0 - d)) >> 63;
            otherWhat |= static_cast<std::uint32_t>(whats[j]) ^ static_cast<std::uint32_t>(whats[0]);
        }
        if (noneCame != 0) continue;                            // not in the region
        if (otherOccasion != 0 || otherWhat != 0) return false; // not every lane, or not one operation
        completeWarpOperation(whats[0], ~0u, slots.value[parity] + first, slots.source[parity] + first,
                              slots.result[parity] + first);
        slots.warpDone[parity][first / kWarpLanes] = occasion;
    }
    return true;
}

} // namespace

std::size_t warpSlotsBytes() {
    return sizeof(WarpSlots);
}

void* warpSlotsOfThisThread() {
    if (!owned) {
        owned = std::make_unique<Exchange>();
        owned->slots.complete = &complete;
        owned->slots.refuse = &refuse;
        owned->slots.barrier = &atBarrier;
        owned->slots.recorded = &completeRecorded;
    }
    return &owned->slots;
}

} // namespace kp::cpu
