#include "Messages.h"

#include <array>
#include <utility>

namespace kp::worker {

namespace {

constexpr std::array<std::pair<MessageType, std::string_view>, 11> kTypes{{
    {MessageType::Hello, "hello"},
    {MessageType::Run, "run"},
    {MessageType::Inspect, "inspect"},
    {MessageType::Sweep, "sweep"},
    {MessageType::Disassemble, "disassemble"},
    {MessageType::Result, "result"},
    {MessageType::Inspection, "inspection"},
    {MessageType::SweepRow, "sweep_row"},
    {MessageType::SweepResult, "sweep_result"},
    {MessageType::CompiledCode, "compiled_code"},
    {MessageType::Error, "error"},
}};

constexpr std::array<std::pair<FailureKind, std::string_view>, 8> kKinds{{
    {FailureKind::Input, "input"},
    {FailureKind::Setup, "setup"},
    {FailureKind::Compile, "compile"},
    {FailureKind::Sandbox, "sandbox"},
    {FailureKind::Fault, "fault"},
    {FailureKind::OutOfMemory, "out_of_memory"},
    {FailureKind::Cuda, "cuda"},
    {FailureKind::Internal, "internal"},
}};

template <typename Enum, std::size_t N>
std::string_view nameIn(const std::array<std::pair<Enum, std::string_view>, N>& table, Enum value) {
    for (const auto& [v, n] : table)
        if (v == value) return n;
    return "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueIn(const std::array<std::pair<Enum, std::string_view>, N>& table,
                            std::string_view name) {
    for (const auto& [v, n] : table)
        if (n == name) return v;
    return std::nullopt;
}

} // namespace

std::string_view name(MessageType type) {
    return nameIn(kTypes, type);
}

std::optional<MessageType> messageTypeFromName(std::string_view name) {
    return valueIn(kTypes, name);
}

std::string_view name(FailureKind kind) {
    return nameIn(kKinds, kind);
}

std::optional<FailureKind> failureKindFromName(std::string_view name) {
    return valueIn(kKinds, name);
}

MessageType typeOf(const Message& message) {
    // The alternatives in Message's order.
    static constexpr std::array<MessageType, std::variant_size_v<Message>> kOrder{
        MessageType::Hello,       MessageType::Run,          MessageType::Inspect,    MessageType::Sweep,
        MessageType::Disassemble, MessageType::Result,       MessageType::Inspection, MessageType::SweepRow,
        MessageType::SweepResult, MessageType::CompiledCode, MessageType::Error};
    return kOrder[message.index()];
}

Message asMessage(Request request) {
    return std::visit([](auto& r) -> Message { return std::move(r); }, request);
}

} // namespace kp::worker
