#include "WarpOperations.h"

#include "BlockState.h"

#include <bit>
#include <cstdio>

namespace kp::cpu {

std::string placeOf(const Meeting& m) {
    return std::string(m.file ? m.file : "?") + ":" + std::to_string(m.line);
}

std::string hexMask(unsigned mask) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", mask);
    return text;
}

std::string describeThread(std::size_t t) {
    const auto& dim = kernelpad_block_state.blockDimension;
    const unsigned thread[3] = {static_cast<unsigned>(t % dim[0]), static_cast<unsigned>(t / dim[0] % dim[1]),
                                static_cast<unsigned>(t / (std::size_t{dim[0]} * dim[1]))};
    return threadOfBlock(thread, kernelpad_block_state.blockIndex);
}

std::string leavesOutOwnLane(const Meeting& m, std::size_t t) {
    return "at " + placeOf(m) + ", " + describeThread(t) + " calls " + m.function + " with the mask " +
           hexMask(m.mask) + ", which leaves out its own lane (" + std::to_string(t % kWarpLanes) +
           "); CUDA does not define what that does";
}

std::string waitsFor(const Meeting& waiting, std::size_t waiter, std::size_t other,
                     const std::string& otherDoes) {
    return "at " + placeOf(waiting) + ", " + describeThread(waiter) + " waits in " + waiting.function +
           " for lane " + std::to_string(other % kWarpLanes) + " of its warp (" + describeThread(other) +
           "), which " + otherDoes + ". Every lane that a warp operation's mask " + hexMask(waiting.mask) +
           " names must call the same operation with the same mask, or have returned";
}

std::string callsWith(const Meeting& m) {
    // __activemask takes no mask: what a record of it holds there says nothing.
    if (m.what == Meet::Active) return std::string("calls ") + m.function + " at " + placeOf(m);
    return std::string("calls ") + m.function + " with the mask " + hexMask(m.mask) + " at " + placeOf(m);
}

namespace {

// __match_any_sync over `count` lanes, lane(k) the k-th, where every value is under 64 (a histogram's bins, a
// key's low bits): each value is its own slot in a table of 64, cleared first by the lanes that set it.
// False, with nothing written, where a value is 64 or more.
template <typename Lane>
bool matchSmallValues(unsigned count, const Lane& lane, const std::uint64_t* values, std::uint64_t* results) {
    constexpr unsigned kSlots = 64;
    std::uint64_t any = 0;
    for (unsigned k = 0; k < count; ++k)
        any |= values[lane(k)];
    if (any >= kSlots) return false;
    std::uint32_t lanesOf[kSlots];
    for (unsigned k = 0; k < count; ++k)
        lanesOf[values[lane(k)]] = 0;
    for (unsigned k = 0; k < count; ++k)
        lanesOf[values[lane(k)]] |= 1u << lane(k);
    for (unsigned k = 0; k < count; ++k)
        results[lane(k)] = lanesOf[values[lane(k)]];
    return true;
}

} // namespace

void completeWarpOperation(Meet what, std::uint32_t group, const std::uint64_t* values, const int* sources,
                           std::uint64_t* results) {
    // A whole warp's shuffle or vote (a reduction's every step): over the lanes in order, without the list
    // of members.
    if (group == ~0u) {
        switch (what) {
        case Meet::ShuffleIndex:
        case Meet::ShuffleUp:
        case Meet::ShuffleDown:
        case Meet::ShuffleXor:
            for (unsigned j = 0; j < kWarpLanes; ++j) {
                const auto source = static_cast<unsigned>(sources[j]);
                results[j] = values[source < kWarpLanes ? source : j];
            }
            return;
        case Meet::Ballot:
        case Meet::Any:
        case Meet::All: {
            std::uint32_t votes = 0;
            for (unsigned j = 0; j < kWarpLanes; ++j)
                votes |= static_cast<std::uint32_t>(values[j] != 0) << j;
            const std::uint64_t result = what == Meet::Ballot ? votes
                                         : what == Meet::Any  ? votes != 0
                                                              : votes == ~0u;
            for (unsigned j = 0; j < kWarpLanes; ++j)
                results[j] = result;
            return;
        }
        case Meet::MatchAny:
            if (matchSmallValues(
                    kWarpLanes, [](unsigned k) { return k; }, values, results))
                return;
            break;
        default:
            break;
        }
    }
    unsigned members[kWarpLanes];
    unsigned count = 0;
    if (group == ~0u)
        for (; count < kWarpLanes; ++count)
            members[count] = count;
    else
        for (std::uint32_t left = group; left != 0; left &= left - 1)
            members[count++] = static_cast<unsigned>(std::countr_zero(left));
    const auto everyone = [&](std::uint64_t result) {
        for (unsigned k = 0; k < count; ++k)
            results[members[k]] = result;
    };
    switch (what) {
    case Meet::SyncWarp: // no result
        everyone(0);
        break;
    case Meet::ShuffleIndex:
    case Meet::ShuffleUp:
    case Meet::ShuffleDown:
    case Meet::ShuffleXor:
        for (unsigned k = 0; k < count; ++k) {
            const unsigned j = members[k];
            const auto source = static_cast<unsigned>(sources[j]);
            results[j] = source < kWarpLanes && (group >> source & 1u) ? values[source] : values[j];
        }
        break;
    case Meet::Ballot:
    case Meet::Any:
    case Meet::All: {
        std::uint32_t votes = 0;
        for (unsigned k = 0; k < count; ++k)
            votes |= values[members[k]] != 0 ? 1u << members[k] : 0u;
        everyone(what == Meet::Ballot ? votes : what == Meet::Any ? votes != 0 : votes == group);
        break;
    }
    case Meet::MatchAny: {
        // Lanes with one value form one group. Values under 64 are their own slot (matchSmallValues); others
        // find their value's slot in an open-addressed table (at most 32 values in 64 slots). One pass
        // either way, rather than one pass per group.
        constexpr unsigned kSlots = 64;
        if (matchSmallValues(
                count, [&](unsigned k) { return members[k]; }, values, results))
            break;
        std::uint64_t slotValue[kSlots];
        std::uint32_t slotLanes[kSlots] = {};
        unsigned slotOf[kWarpLanes];
        for (unsigned k = 0; k < count; ++k) {
            const unsigned j = members[k];
            const std::uint64_t v = values[j];
            auto h = static_cast<unsigned>((v * 0x9E3779B97F4A7C15ull) >> 58);
            while (slotLanes[h] != 0 && slotValue[h] != v)
                h = (h + 1) % kSlots;
            slotValue[h] = v;
            slotLanes[h] |= 1u << j;
            slotOf[j] = h;
        }
        for (unsigned k = 0; k < count; ++k)
            results[members[k]] = slotLanes[slotOf[members[k]]];
        break;
    }
    case Meet::MatchAll: {
        bool equal = true;
        const std::uint64_t firstValue = values[members[0]];
        for (unsigned k = 0; k < count; ++k)
            equal = equal && values[members[k]] == firstValue;
        everyone(equal ? group : 0u);
        break;
    }
    default: { // the __reduce_*_sync operations, on 32 bits, from the group's first lane on
        auto common = static_cast<std::uint32_t>(values[members[0]]);
        for (unsigned k = 1; k < count; ++k) {
            const auto v = static_cast<std::uint32_t>(values[members[k]]);
            const auto sv = static_cast<std::int32_t>(v), sc = static_cast<std::int32_t>(common);
            switch (what) {
            case Meet::ReduceAdd:
                common += v;
                break;
            case Meet::ReduceMinSigned:
                common = static_cast<std::uint32_t>(sv < sc ? sv : sc);
                break;
            case Meet::ReduceMaxSigned:
                common = static_cast<std::uint32_t>(sv > sc ? sv : sc);
                break;
            case Meet::ReduceMinUnsigned:
                common = v < common ? v : common;
                break;
            case Meet::ReduceMaxUnsigned:
                common = v > common ? v : common;
                break;
            case Meet::ReduceAnd:
                common &= v;
                break;
            case Meet::ReduceOr:
                common |= v;
                break;
            case Meet::ReduceXor:
                common ^= v;
                break;
            default:
                break;
            }
        }
        everyone(common);
        break;
    }
    }
}

} // namespace kp::cpu
