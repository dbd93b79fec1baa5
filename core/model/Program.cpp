#include "Program.h"

#include "core/Lines.h"
#include "core/Overloaded.h"

namespace kp::model {

namespace {

// A dimension list as a launch writes it: "256" for one, "(16, 16)" for more.
std::string dimensions(const std::vector<std::string>& items) {
    if (items.size() == 1) return items.front();
    return "(" + join(items, ", ") + ")";
}

std::string describeLaunch(const LaunchStep& s) {
    std::string text = s.kernel;
    if (!s.templateArgs.empty()) text += "<" + join(s.templateArgs, ", ") + ">";
    text += "<<<" + (s.grid.empty() ? std::string("auto") : dimensions(s.grid)) + ", " + dimensions(s.block);
    if (!s.sharedBytes.empty() && s.sharedBytes != "0") text += ", " + s.sharedBytes;
    return text + ">>>(" + join(s.args, ", ") + ")";
}

std::string describeRepeat(const RepeatStep& s) {
    std::string text = "repeat";
    if (!s.times.empty()) text += " " + s.times + " times";
    if (!s.counter.empty()) {
        text += " for " + s.counter + " from " + s.from;
        if (!s.next.empty()) text += ", then " + s.next;
    }
    if (!s.condition.empty()) text += " while " + s.condition;
    return text;
}

} // namespace

std::vector<std::string> splitTopLevel(std::string_view list) {
    std::vector<std::string> pieces;
    std::string piece;
    int depth = 0;
    for (const char c : list) {
        depth += (c == '<' || c == '(' || c == '[') ? 1 : (c == '>' || c == ')' || c == ']') ? -1 : 0;
        if (c == ',' && depth == 0) {
            pieces.push_back(piece);
            piece.clear();
        } else {
            piece += c;
        }
    }
    pieces.push_back(piece);
    for (auto& p : pieces) {
        p.erase(0, p.find_first_not_of(" \t\n"));
        p.erase(p.find_last_not_of(" \t\n") + 1);
    }
    return pieces;
}

std::string_view kindName(const Step& step) {
    return std::visit(Overloaded{
                          [](const LaunchStep&) { return std::string_view("launch"); },
                          [](const CopyStep&) { return std::string_view("copy"); },
                          [](const FillStep&) { return std::string_view("fill"); },
                          [](const SwapStep&) { return std::string_view("swap"); },
                          [](const SymbolStep&) { return std::string_view("symbol"); },
                          [](const SetStep&) { return std::string_view("set"); },
                          [](const RepeatStep&) { return std::string_view("repeat"); },
                      },
                      step.action);
}

std::string describe(const Step& step) {
    return std::visit(Overloaded{
                          [](const LaunchStep& s) { return describeLaunch(s); },
                          [](const CopyStep& s) {
                              return "copy " + (s.count.empty() ? std::string() : s.count + " of ") + s.from +
                                     " to " + s.to;
                          },
                          [](const FillStep& s) {
                              return "fill " + (s.count.empty() ? std::string() : s.count + " of ") +
                                     s.buffer + " with " + s.value;
                          },
                          [](const SwapStep& s) { return "swap " + s.first + " and " + s.second; },
                          [](const SymbolStep& s) {
                              return "set " + s.symbol + " from " +
                                     (s.from.empty() ? "{" + join(s.values, ", ") + "}" : s.from);
                          },
                          [](const SetStep& s) {
                              std::string text;
                              for (const auto& [name, value] : s.variables)
                                  text += (text.empty() ? "" : ", ") + name + " = " + value;
                              return text;
                          },
                          [](const RepeatStep& s) { return describeRepeat(s); },
                      },
                      step.action);
}

} // namespace kp::model
