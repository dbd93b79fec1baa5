#include "ContainedRun.h"

#include "core/Parallel.h"
#include "core/launch/KernelFault.h"
#include "core/launch/RunSetup.h"
#include "core/sandbox/Contained.h"

#include <csignal>
#include <cstring>
#include <new>
#include <optional>
#include <xxhash.h>

namespace kp::cpu {

namespace {

using nlohmann::json;

json failure(const char* kind, const std::string& message, const std::vector<std::string>& problems = {}) {
    return {{"error", {{"kind", kind}, {"message", message}, {"problems", problems}}}};
}

// In the child: the body's exceptions become an answer, so that the parent throws the same kind.
std::string answer(const std::function<json(const std::atomic<bool>&)>& body,
                   const std::atomic<bool>& cancel) {
    try {
        return body(cancel).dump();
    } catch (const launch::SetupError& e) {
        return failure("setup", e.what(), e.problems()).dump();
    } catch (const launch::KernelFault& e) {
        return failure("fault", e.what()).dump();
    } catch (const InputError& e) {
        return failure("input", e.what()).dump();
    } catch (const std::bad_alloc&) {
        return failure("memory", "").dump();
    } catch (const std::exception& e) {
        return failure("error", e.what()).dump();
    } catch (...) {
        return failure("thrown", "").dump();
    }
}

std::string mebibytes(std::uint64_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

[[noreturn]] void rethrow(const json& error, const ContainedCode& code) {
    const std::string kind = error.value("kind", std::string());
    const std::string message = error.value("message", std::string());
    if (kind == "setup") throw launch::SetupError(error.value("problems", std::vector<std::string>{}));
    if (kind == "fault") throw launch::KernelFault(message);
    if (kind == "input") throw InputError(message);
    if (kind == "thrown")
        throw launch::KernelFault(
            code.what + " threw a C++ exception that is not a std::exception: CUDA code cannot throw (a GPU "
                        "has no exceptions), so a kernel that does is not valid CUDA.");
    if (kind == "memory")
        throw launch::KernelFault(
            code.what + " ran out of memory: the CPU backend gives a run " + mebibytes(code.memoryBytes) +
            " beyond its arrays' needs. A kernel that allocates (malloc, new) in every thread does this.");
    throw Error(code.what + ": " + message);
}

// How a child that did not answer ended, in words: what happened and what to do.
std::string crashText(const sandbox::ChildEnd& end, const ContainedCode& given) {
    // "the program, at steps[2] (heat<<<...>>>(...), pass 3 of its loop), crashed with SIGSEGV"
    ContainedCode code = given;
    if (given.whereNow)
        if (const std::string where = given.whereNow(); !where.empty()) code.what += ", " + where + ",";
    if (end.how == sandbox::ChildEnd::How::Exited)
        return code.what + " ended its process with exit status " + std::to_string(end.exitCode) +
               " before finishing: code on the CPU backend must not call exit(), _exit() or quick_exit(); "
               "on a GPU they do not exist. Nothing it computed is used.";
    if (end.stackOverflow)
        return code.what +
               " overflowed its stack: endless or very deep recursion, or local arrays (or alloca) "
               "larger than a CPU thread's stack. On a GPU such a kernel fails too; make the "
               "recursion shallower or the arrays global.";
    if (!end.limit.empty()) return code.what + " was stopped: it hit " + end.limit + ".";
    const std::string how = code.what + " crashed with " + sandbox::signalName(end.signal);
    switch (end.signal) {
    case SIGSEGV:
    case SIGBUS:
        return how +
               ": it read or wrote memory outside its arrays (an index past the end, a wrong pointer). Run "
               "again with bounds checking on to see the array, the index, the thread and the line.";
    case SIGFPE:
        return how + ": an integer division (or remainder) by zero.";
    case SIGABRT:
        return how + ": it called abort(), or an assert() failed (its message is in the output above), or it "
                     "wrote past an array's end and damaged the heap (bounds checking finds that).";
    case SIGKILL:
        return how + ": it was killed from outside, most likely because the machine ran out of memory.";
    default:
        return how + ".";
    }
}

} // namespace

ChildInputs::ChildInputs(const launch::RunSetup& setup, bool readInPlace)
    : setup_(setup), copies_(setup.args.size()), inPlace_(setup.args.size(), false) {
    for (std::size_t i = 0; i < setup.args.size(); ++i) {
        const auto& arg = setup.args[i];
        if (!arg.isArray || !arg.copiedIn()) continue;
        if (!arg.array.allocator()->inheritedByChildren())
            copies_[i] = arg.array.copyTo(model::heapAllocator());
        inPlace_[i] = readInPlace && !arg.copiedOut() && arg.array.bytes() > 0;
    }
}

const model::Array& ChildInputs::operator[](std::size_t argument) const {
    return copies_[argument].bytes() ? copies_[argument] : setup_.args[argument].array;
}

std::byte* ChildInputs::inPlace(std::size_t argument) const {
    // The child's own (copy-on-write) pages: writing them never reaches the parent's array.
    return inPlace_[argument] ? const_cast<std::byte*>((*this)[argument].data()) : nullptr;
}

void ChildInputs::refill(const std::vector<std::byte*>& working) const {
    for (std::size_t i = 0; i < setup_.args.size(); ++i) {
        const auto& arg = setup_.args[i];
        if (!arg.isArray || inPlace_[i]) continue;
        if (arg.copiedIn())
            copyBytes(working[i], (*this)[i].data(), arg.array.bytes());
        else
            zeroBytes(working[i], arg.array.bytes());
    }
}

std::uint64_t ChildInputs::fingerprint() const {
    // Each array's 4 MiB pieces hashed on every core, then the list of their hashes.
    constexpr std::size_t kPiece = std::size_t{4} << 20;
    std::vector<XXH64_hash_t> hashes;
    for (std::size_t i = 0; i < setup_.args.size(); ++i) {
        if (!inPlace_[i]) continue;
        const std::byte* data = (*this)[i].data();
        const std::size_t bytes = (*this)[i].bytes();
        const std::size_t first = hashes.size();
        hashes.resize(first + (bytes + kPiece - 1) / kPiece);
        inParts(hashes.size() - first, 2, [&](std::size_t from, std::size_t to) {
            for (std::size_t p = from; p < to; ++p)
                hashes[first + p] = XXH3_64bits(data + p * kPiece, std::min(kPiece, bytes - p * kPiece));
        });
    }
    return hashes.empty() ? 0 : XXH3_64bits(hashes.data(), hashes.size() * sizeof(XXH64_hash_t));
}

json runContainedCode(const ContainedCode& code, const std::function<json(const std::atomic<bool>&)>& body) {
    sandbox::requireSupport(code.what);
    const sandbox::ScratchFolder scratch(code.cache / "scratch");
    std::optional<sandbox::Confinement> confinement;
    if (sandbox::mode() == sandbox::Mode::Contained) {
        sandbox::Policy policy;
        policy.readable = {code.library.parent_path(), "/usr/lib", "/lib", "/lib64"};
        policy.writable = {scratch.path()};
        // Time is the caller's to limit (the app's time limit, --timeout); CPU time is a backstop for a
        // run left behind, files written are the scratch folder's.
        policy.limits = {code.memoryBytes, 24 * 3600, std::uint64_t{1} << 30};
        confinement.emplace(policy);
    }
    const auto end =
        sandbox::runContained([&](const std::atomic<bool>& cancel) { return answer(body, cancel); },
                              {confinement ? &*confinement : nullptr, scratch.path(), code.cancel});
    if (end.how == sandbox::ChildEnd::How::Cancelled) return {{"cancelled", true}};
    if (end.how != sandbox::ChildEnd::How::Answered) throw launch::KernelFault(crashText(end, code));
    json reply = json::parse(end.answer, nullptr, false);
    if (reply.is_discarded() || !reply.is_object())
        throw launch::KernelFault(code.what +
                                  " wrote into Kernelpad's answer channel: its results are not used.");
    if (reply.contains("error")) rethrow(reply.at("error"), code);
    return reply;
}

void faultNow(const std::string& message) noexcept {
    try {
        sandbox::answerNow(failure("fault", message).dump());
    } catch (...) { // the answer's text could not be made: the run goes on, to the caller's time limit
    }
}

json runContainedOnInputs(const ContainedCode& code, const launch::RunSetup& setup, bool readInPlace,
                          const std::function<json(const ChildInputs&, const std::atomic<bool>&)>& body) {
    constexpr const char* kInputsWritten = "inputs_written";
    if (readInPlace) {
        const ChildInputs inPlace(setup, true);
        json answer = runContainedCode(code, [&](const std::atomic<bool>& cancel) {
            const std::uint64_t before = inPlace.fingerprint();
            json reply = body(inPlace, cancel);
            return inPlace.fingerprint() == before ? reply : json{{kInputsWritten, true}};
        });
        if (!answer.value(kInputsWritten, false)) return answer;
    }
    const ChildInputs copies(setup, false);
    return runContainedCode(code, [&](const std::atomic<bool>& cancel) { return body(copies, cancel); });
}

} // namespace kp::cpu
