#include "CudaError.h"

#include "Driver.h"

#include <cuda.h>

namespace kp::cuda {

namespace {
bool isSticky(int code) {
    switch (static_cast<CUresult>(code)) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
        return true;
    default:
        return false;
    }
}

std::string describe(const std::string& call, int code, const std::string& name, const std::string& message) {
    std::string text = call + " failed: " + name + " (" + message + ")";
    if (isSticky(code)) text += "; CUDA cannot be used again in this process";
    return text;
}

std::string errorName(CUresult result) {
    const char* text = nullptr;
    if (Driver::loaded() && Driver::api().cuGetErrorName(result, &text) == CUDA_SUCCESS && text) return text;
    return "CUresult " + std::to_string(static_cast<int>(result));
}

std::string errorMessage(CUresult result) {
    const char* text = nullptr;
    if (Driver::loaded() && Driver::api().cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
        return text;
    return "no description available";
}
} // namespace

CudaError::CudaError(std::string call, int code, std::string name, const std::string& message)
    : Error(describe(call, code, name, message)), call_(std::move(call)), code_(code),
      name_(std::move(name)) {}

bool CudaError::sticky() const noexcept {
    return isSticky(code_);
}

bool CudaError::outOfMemory() const noexcept {
    return static_cast<CUresult>(code_) == CUDA_ERROR_OUT_OF_MEMORY;
}

NvrtcError::NvrtcError(std::string call, int code, const std::string& name)
    : Error(call + " failed: " + name), call_(std::move(call)), code_(code) {}

void check(int result, const char* call) {
    if (result == CUDA_SUCCESS) return;
    const auto r = static_cast<CUresult>(result);
    throw CudaError(call, result, errorName(r), errorMessage(r));
}

} // namespace kp::cuda
