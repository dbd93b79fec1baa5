#include "Launch.h"

#include "Driver.h"

namespace kp::cuda {

std::ostream& operator<<(std::ostream& out, const Dim3& d) {
    return out << "(" << d.x << ", " << d.y << ", " << d.z << ")";
}

std::ostream& operator<<(std::ostream& out, const LaunchConfig& c) {
    return out << "grid " << c.grid << " block " << c.block << " shared " << c.sharedBytes << " B";
}

void KernelArguments::addBytes(const void* value, std::size_t bytes, std::size_t alignment) {
    std::size_t offset = (storage_.size() + alignment - 1) / alignment * alignment;
    storage_.resize(offset + bytes);
    std::memcpy(storage_.data() + offset, value, bytes);
    offsets_.push_back(offset);
}

void** KernelArguments::pointers() {
    pointers_.resize(offsets_.size());
    for (std::size_t i = 0; i < offsets_.size(); ++i)
        pointers_[i] = storage_.data() + offsets_[i];
    return pointers_.data();
}

void launch(const Kernel& kernel, const LaunchConfig& c, const Stream& stream, void** arguments) {
    if (c.cooperative) {
        KP_CU(cuLaunchCooperativeKernel, kernel.handle(), c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y,
              c.block.z, c.sharedBytes, stream.handle(), arguments);
        return;
    }
    KP_CU(cuLaunchKernel, kernel.handle(), c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z,
          c.sharedBytes, stream.handle(), arguments, nullptr);
}

} // namespace kp::cuda
