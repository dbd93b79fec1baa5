#include "Backend.h"

#include "core/Error.h"

#include <charconv>

namespace kp::run {

namespace {

template <typename Number> bool number(std::string_view text, Number& value) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size();
}

} // namespace

std::string Backend::id() const {
    switch (kind) {
    case Kind::Cuda:
        return "cuda:" + std::to_string(ordinal);
    case Kind::Cpu:
        return threads == 0 ? std::string("cpu") : "cpu:" + std::to_string(threads);
    case Kind::Reference:
        return "reference";
    }
    return "?";
}

Backend parseBackend(std::string_view id) {
    Backend backend;
    if (id == "reference") return Backend::reference();
    if (id == "cpu") return Backend::cpu();
    if (id == "cuda") return Backend::cuda(0);
    if (id.starts_with("cuda:") && number(id.substr(5), backend.ordinal) && backend.ordinal >= 0)
        return Backend::cuda(backend.ordinal);
    if (id.starts_with("cpu:") && number(id.substr(4), backend.threads) && backend.threads >= 1 &&
        backend.threads <= 4096)
        return Backend::cpu(backend.threads);
    throw InputError("\"" + std::string(id) +
                     "\" is not a backend; use cuda:N (a CUDA device), cpu (all cores), cpu:N (N "
                     "threads, cpu:1 for one "
                     "core) or reference (the playground's C++ reference)");
}

Backend parseRunBackend(std::string_view id) {
    if (id == "cpu") return Backend::cpu();
    if (id == "cuda") return Backend::cuda(0);
    int ordinal = -1;
    if (id.starts_with("cuda:") && number(id.substr(5), ordinal) && ordinal >= 0)
        return Backend::cuda(ordinal);
    throw InputError("backend: \"" + std::string(id) + "\" is not a backend; use cuda, cuda:N or cpu");
}

} // namespace kp::run
