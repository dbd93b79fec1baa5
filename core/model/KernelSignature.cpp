#include "KernelSignature.h"

namespace kp::model {

namespace {
std::string join(const std::vector<std::string>& parts) {
    std::string text;
    for (const auto& part : parts) {
        if (!text.empty()) text += ", ";
        text += part;
    }
    return text;
}

std::string toString(const Parameter& parameter) {
    std::string text = parameter.typeText + " " + parameter.name;
    if (!parameter.defaultValue.empty()) text += " = " + parameter.defaultValue;
    return text;
}
} // namespace

std::string toString(const KernelSignature& kernel) {
    std::string text;
    if (kernel.isTemplate) text += "template <" + join(kernel.templateParameters) + "> ";
    if (kernel.externC) text += "extern \"C\" ";
    text += "__global__ void " + kernel.name + "(";
    std::vector<std::string> parameters;
    parameters.reserve(kernel.parameters.size());
    for (const auto& parameter : kernel.parameters)
        parameters.push_back(toString(parameter));
    return text + join(parameters) + ")";
}

std::ostream& operator<<(std::ostream& out, const KernelSignature& kernel) {
    return out << toString(kernel);
}

} // namespace kp::model
