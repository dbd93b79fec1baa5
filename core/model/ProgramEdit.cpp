#include "ProgramEdit.h"

#include <regex>

namespace kp::model {

namespace {

std::vector<Step>* stepsHolding(std::vector<Step>& steps, const StepPath& path) {
    if (path.empty()) return nullptr;
    std::vector<Step>* level = &steps;
    for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        if (path[i] >= level->size()) return nullptr;
        auto* loop = std::get_if<RepeatStep>(&(*level)[path[i]].action);
        if (!loop) return nullptr;
        level = &loop->steps;
    }
    return path.back() < level->size() ? level : nullptr;
}

RepeatStep* loopAt(std::vector<Step>& steps, const StepPath& path) {
    Step* step = stepAt(steps, path);
    return step ? std::get_if<RepeatStep>(&step->action) : nullptr;
}

std::string number(double value) {
    std::string text = std::to_string(value);
    text.erase(text.find_last_not_of('0') + 1);
    if (text.ends_with('.')) text.pop_back();
    return text;
}

std::vector<std::string> dimensions(const std::array<std::uint32_t, 3>& d) {
    std::vector<std::string> out{std::to_string(d[0])};
    if (d[1] != 1 || d[2] != 1) out.push_back(std::to_string(d[1]));
    if (d[2] != 1) out.push_back(std::to_string(d[2]));
    return out;
}

} // namespace

std::string jsonPath(const StepPath& path) {
    std::string text;
    for (const std::size_t index : path)
        text += (text.empty() ? "steps[" : ".steps[") + std::to_string(index) + "]";
    return text;
}

std::optional<StepPath> stepPathIn(const std::string& text) {
    static const std::regex step(R"(^\.?steps\[(\d+)\])");
    const auto at = text.find("steps[");
    if (at == std::string::npos) return std::nullopt;
    StepPath path;
    std::smatch match;
    std::string rest = text.substr(at);
    while (std::regex_search(rest, match, step)) {
        path.push_back(std::stoul(match[1].str()));
        rest = match.suffix().str();
    }
    return path;
}

Step* stepAt(std::vector<Step>& steps, const StepPath& path) {
    auto* level = stepsHolding(steps, path);
    return level ? &(*level)[path.back()] : nullptr;
}

const Step* stepAt(const std::vector<Step>& steps, const StepPath& path) {
    return stepAt(const_cast<std::vector<Step>&>(steps), path);
}

StepPath insertStep(std::vector<Step>& steps, const StepPath& after, Step step) {
    if (auto* loop = loopAt(steps, after)) {
        loop->steps.push_back(std::move(step));
        StepPath path = after;
        path.push_back(loop->steps.size() - 1);
        return path;
    }
    auto* level = stepsHolding(steps, after);
    if (!level) {
        steps.push_back(std::move(step));
        return {steps.size() - 1};
    }
    StepPath path = after;
    ++path.back();
    level->insert(level->begin() + static_cast<std::ptrdiff_t>(path.back()), std::move(step));
    return path;
}

StepPath duplicateStep(std::vector<Step>& steps, const StepPath& path) {
    auto* level = stepsHolding(steps, path);
    if (!level) return path;
    const Step copy = (*level)[path.back()];
    level->insert(level->begin() + static_cast<std::ptrdiff_t>(path.back() + 1), copy);
    StepPath next = path;
    ++next.back();
    return next;
}

StepPath removeStep(std::vector<Step>& steps, const StepPath& path) {
    auto* level = stepsHolding(steps, path);
    if (!level) return path;
    level->erase(level->begin() + static_cast<std::ptrdiff_t>(path.back()));
    if (!level->empty()) {
        StepPath next = path;
        next.back() = std::min(path.back(), level->size() - 1);
        return next;
    }
    StepPath parent(path.begin(), path.end() - 1);
    return parent;
}

StepPath moveStep(std::vector<Step>& steps, const StepPath& path, bool up) {
    auto* level = stepsHolding(steps, path);
    if (!level) return path;
    const std::size_t at = path.back();
    const StepPath parent(path.begin(), path.end() - 1);
    // At a loop's edge: out of the loop, before or after it.
    if ((up && at == 0) || (!up && at + 1 == level->size())) {
        if (parent.empty()) return path;
        Step step = std::move((*level)[at]);
        level->erase(level->begin() + static_cast<std::ptrdiff_t>(at));
        auto* outer = stepsHolding(steps, parent);
        const std::size_t to = up ? parent.back() : parent.back() + 1;
        outer->insert(outer->begin() + static_cast<std::ptrdiff_t>(to), std::move(step));
        StepPath moved = parent;
        moved.back() = to;
        return moved;
    }
    const std::size_t neighbour = up ? at - 1 : at + 1;
    // Next to a loop: into it, at the end going up, at the start going down.
    if (auto* loop = std::get_if<RepeatStep>(&(*level)[neighbour].action)) {
        Step step = std::move((*level)[at]);
        auto& inner = loop->steps;
        const std::size_t to = up ? inner.size() : 0;
        inner.insert(inner.begin() + static_cast<std::ptrdiff_t>(to), std::move(step));
        level->erase(level->begin() + static_cast<std::ptrdiff_t>(at));
        StepPath moved = parent;
        moved.push_back(up ? neighbour : at);
        moved.push_back(to);
        return moved;
    }
    std::swap((*level)[at], (*level)[neighbour]);
    StepPath moved = parent;
    moved.push_back(neighbour);
    return moved;
}

Step newStep(StepKind kind, const Playground& playground, const std::vector<KernelSignature>& kernels) {
    std::vector<std::string> arrays;
    for (const auto& arg : playground.args)
        if (arg.isArray()) arrays.push_back(arg.name);
    for (const auto& buffer : playground.buffers)
        arrays.push_back(buffer.name);
    const std::string first = arrays.empty() ? "a" : arrays.front();
    const std::string second = arrays.size() > 1 ? arrays[1] : first;
    Step step;
    switch (kind) {
    case StepKind::Launch: {
        LaunchStep launch;
        launch.grid.clear(); // "auto"
        if (!kernels.empty()) {
            launch.kernel = kernels.front().name;
            for (const auto& parameter : kernels.front().parameters) {
                const auto* arg = playground.find(parameter.name);
                launch.args.push_back(arg ? arg->name : parameter.pointer ? first : "1");
            }
        }
        step.action = launch;
        break;
    }
    case StepKind::Copy:
        step.action = CopyStep{first, second, "", nlohmann::json::object()};
        break;
    case StepKind::Fill:
        step.action = FillStep{first, "0", "", nlohmann::json::object()};
        break;
    case StepKind::Swap:
        step.action = SwapStep{first, second, nlohmann::json::object()};
        break;
    case StepKind::Symbol:
        step.action = SymbolStep{"", first, {}, nlohmann::json::object()};
        break;
    case StepKind::Set:
        step.action = SetStep{{{"i", "0"}}, nlohmann::json::object()};
        break;
    case StepKind::Repeat: {
        RepeatStep loop;
        loop.times = "10";
        step.action = loop;
        break;
    }
    }
    return step;
}

Playground asProgram(const Playground& playground, const KernelSignature& kernel) {
    Playground program = playground;
    // A program has no one kernel to read its arrays' directions from: each gets the one it had.
    for (std::size_t i = 0; i < program.args.size(); ++i) {
        auto& arg = program.args[i];
        if (arg.isArray() && !arg.direction)
            arg.direction = inferDirection(i < kernel.parameters.size() && kernel.parameters[i].isConst);
    }
    LaunchStep launch;
    launch.kernel = playground.kernel;
    if (!playground.launch.autoGrid) launch.grid = dimensions(playground.launch.grid);
    launch.block = dimensions(playground.launch.block);
    launch.sharedBytes = number(playground.launch.sharedBytes);
    for (const auto& arg : playground.args)
        launch.args.push_back(arg.name);
    program.steps = {Step{launch, "", nlohmann::json::object()}};
    program.kernel.clear();
    program.launch = LaunchSpec{};
    return program;
}

} // namespace kp::model
