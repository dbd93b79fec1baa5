#include "Protocol.h"

#include "core/Overloaded.h"

#include <utility>

namespace kp::worker {

namespace {

using json = nlohmann::json;

json header(MessageType type) {
    return {{"type", std::string(name(type))}};
}

json playgroundHeader(MessageType type, const std::string& playground, const std::string& path,
                      bool trusted) {
    auto out = header(type);
    out["playground"] = playground;
    out["path"] = path;
    out["trusted"] = trusted;
    return out;
}

// The arrays join the frame; the header lists them by name and index.
json listArrays(launch::NamedArrays&& arrays, std::vector<model::Array>& carried) {
    json listed = json::array();
    for (auto& [name, array] : arrays) {
        listed.push_back({{"name", name}, {"array", carried.size()}});
        carried.push_back(std::move(array));
    }
    return listed;
}

launch::NamedArrays takeArrays(const json& listed, std::vector<model::Array>& carried) {
    launch::NamedArrays arrays;
    for (const auto& entry : listed) {
        const auto index = entry.at("array").get<std::size_t>();
        if (index >= carried.size())
            throw ProtocolError("the worker listed the array " + entry.at("name").dump() +
                                " but did not send it");
        arrays.emplace_back(entry.at("name").get<std::string>(), std::move(carried[index]));
    }
    return arrays;
}

Frame encodeReply(RunReply&& reply) {
    Frame frame{header(MessageType::Result), {}};
    frame.header["report"] = std::move(reply.report);
    frame.header["execution"] = std::move(reply.execution);
    frame.header["outputs"] = listArrays(std::move(reply.outputs), frame.arrays);
    frame.header["reference_outputs"] = listArrays(std::move(reply.referenceOutputs), frame.arrays);
    return frame;
}

json encodeFailure(const Failure& failure) {
    auto out = header(MessageType::Error);
    out["kind"] = std::string(name(failure.kind));
    out["message"] = failure.message;
    out["fatal"] = failure.fatal;
    out["diagnostics"] = json::array();
    for (const auto& d : failure.diagnostics)
        out["diagnostics"].push_back(model::toJson(d));
    return out;
}

struct Playground {
    std::string text, path;
    bool trusted = false;
};

Playground playgroundOf(const json& h) {
    return {h.at("playground").get<std::string>(), h.at("path").get<std::string>(),
            h.value("trusted", false)};
}

run::Backend backendOf(const json& h) {
    try {
        return run::parseBackend(h.value("backend", std::string("cpu")));
    } catch (const InputError& e) {
        throw ProtocolError(e.what());
    }
}

Failure decodeFailure(const json& h) {
    Failure failure;
    const auto kind = h.value("kind", std::string());
    const auto known = failureKindFromName(kind);
    if (!known)
        throw ProtocolError("the worker failed in a way this Kernelpad does not know: \"" + kind + "\"");
    failure.kind = *known;
    failure.message = h.value("message", std::string());
    failure.fatal = h.value("fatal", false);
    for (const auto& d : h.value("diagnostics", json::array()))
        failure.diagnostics.push_back(model::diagnosticFromJson(d));
    return failure;
}

Message decodeType(MessageType type, Frame& frame) {
    const json& h = frame.header;
    switch (type) {
    case MessageType::Hello:
        return Hello{h.value("protocol", -1), h.value("version", std::string("unknown")), h.value("pid", 0)};
    case MessageType::Run: {
        auto p = playgroundOf(h);
        return RunRequest{std::move(p.text),
                          std::move(p.path),
                          backendOf(h),
                          h.value("repeat", 1),
                          h.value("warmup", 0),
                          h.value("check_bounds", false),
                          p.trusted};
    }
    case MessageType::Inspect: {
        auto p = playgroundOf(h);
        return InspectRequest{std::move(p.text), std::move(p.path), backendOf(h), p.trusted};
    }
    case MessageType::Sweep: {
        auto p = playgroundOf(h);
        return SweepRequest{std::move(p.text), std::move(p.path), run::SweepSpec::fromJson(h.at("sweep")),
                            p.trusted};
    }
    case MessageType::Disassemble: {
        auto p = playgroundOf(h);
        return DisassembleRequest{std::move(p.text), std::move(p.path), h.value("arch", std::string()),
                                  h.value("line_info", true), p.trusted};
    }
    case MessageType::Result: {
        RunReply reply;
        reply.report = h.value("report", json::object());
        reply.timings = run::RunTimings::fromReport(reply.report);
        reply.execution = h.value("execution", std::string());
        reply.outputs = takeArrays(h.at("outputs"), frame.arrays);
        reply.referenceOutputs = takeArrays(h.at("reference_outputs"), frame.arrays);
        return reply;
    }
    case MessageType::Inspection:
        return run::Inspection::fromJson(h.at("inspection"));
    case MessageType::SweepRow:
        return SweepProgress{run::sweepRowFromJson(h.at("row")), h.at("done").get<std::size_t>(),
                             h.at("total").get<std::size_t>()};
    case MessageType::SweepResult: {
        auto result = run::SweepResult::fromJson(h.at("result"));
        // The settings travel beside the rows (a playground keeps them so too): without them a block-size
        // sweep came back as a size sweep and was drawn against the array's size.
        result.spec = run::SweepSpec::fromJson(h.at("spec"), "spec");
        result.gpuFaulted = h.value("fatal", false);
        return result;
    }
    case MessageType::CompiledCode:
        return run::CompiledCode::fromJson(h.at("compiled_code"));
    case MessageType::Error:
        return decodeFailure(h);
    }
    throw ProtocolError("a worker message of no known type");
}

} // namespace

Frame encode(Message message) {
    return std::visit(Overloaded{
                          [](Hello& m) -> Frame {
                              auto h = header(MessageType::Hello);
                              h["protocol"] = m.protocol;
                              h["version"] = m.version;
                              h["pid"] = m.pid;
                              return {std::move(h), {}};
                          },
                          [](RunRequest& m) -> Frame {
                              auto h = playgroundHeader(MessageType::Run, m.playground, m.path, m.trusted);
                              h["backend"] = m.backend.id();
                              h["repeat"] = m.repeat;
                              h["warmup"] = m.warmup;
                              h["check_bounds"] = m.checkBounds;
                              return {std::move(h), {}};
                          },
                          [](InspectRequest& m) -> Frame {
                              auto h =
                                  playgroundHeader(MessageType::Inspect, m.playground, m.path, m.trusted);
                              h["backend"] = m.backend.id();
                              return {std::move(h), {}};
                          },
                          [](SweepRequest& m) -> Frame {
                              auto h = playgroundHeader(MessageType::Sweep, m.playground, m.path, m.trusted);
                              h["sweep"] = m.spec.toJson();
                              return {std::move(h), {}};
                          },
                          [](DisassembleRequest& m) -> Frame {
                              auto h =
                                  playgroundHeader(MessageType::Disassemble, m.playground, m.path, m.trusted);
                              h["arch"] = m.arch;
                              h["line_info"] = m.lineInfo;
                              return {std::move(h), {}};
                          },
                          [](RunReply& m) -> Frame { return encodeReply(std::move(m)); },
                          [](run::Inspection& m) -> Frame {
                              auto h = header(MessageType::Inspection);
                              h["inspection"] = m.toJson();
                              return {std::move(h), {}};
                          },
                          [](SweepProgress& m) -> Frame {
                              auto h = header(MessageType::SweepRow);
                              h["row"] = run::toJson(m.row);
                              h["done"] = m.done;
                              h["total"] = m.total;
                              return {std::move(h), {}};
                          },
                          [](run::SweepResult& m) -> Frame {
                              auto h = header(MessageType::SweepResult);
                              h["result"] = m.toJson();
                              h["spec"] = m.spec.toJson();
                              h["fatal"] = m.gpuFaulted;
                              return {std::move(h), {}};
                          },
                          [](run::CompiledCode& m) -> Frame {
                              auto h = header(MessageType::CompiledCode);
                              h["compiled_code"] = m.toJson();
                              return {std::move(h), {}};
                          },
                          [](Failure& m) -> Frame {
                              return {encodeFailure(m), {}};
                          },
                      },
                      message);
}

Message decode(Frame frame) {
    if (!frame.header.is_object()) throw ProtocolError("a worker message whose header is not a JSON object");
    const auto typeName = frame.header.value("type", std::string());
    const auto type = messageTypeFromName(typeName);
    if (!type) throw ProtocolError("a worker message of unknown type \"" + typeName + "\"");
    const bool request = *type == MessageType::Run || *type == MessageType::Inspect ||
                         *type == MessageType::Sweep || *type == MessageType::Disassemble;
    try {
        return decodeType(*type, frame);
    } catch (const ProtocolError&) {
        throw;
    } catch (const InputError& e) {
        if (request) throw; // a value the user chose (a sweep's range) that is refused: theirs to fix
        throw ProtocolError("the worker's \"" + typeName + "\" message is malformed: " + e.what());
    } catch (const std::exception& e) {
        throw ProtocolError("the worker's \"" + typeName + "\" message is malformed: " + e.what());
    }
}

} // namespace kp::worker
