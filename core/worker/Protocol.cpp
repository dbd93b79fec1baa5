#include "Protocol.h"

#include "core/Error.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kp::worker {

namespace {

constexpr std::size_t kMaxFds = 64;

void writeAll(int socket, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::send(socket, data, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw SystemError("send", errno, "the worker's socket");
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

// Reads exactly `size` bytes; false when the stream ends first (only allowed before the first byte).
bool readAll(int socket, char* data, std::size_t size, bool atStart) {
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::recv(socket, data + done, size - done, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw SystemError("recv", errno, "the worker's socket");
        if (n == 0) {
            if (atStart && done == 0) return false;
            throw Error("the other side of the worker's socket closed in the middle of a message");
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// Memory mapped from a memfd the other side filled: handed to one Array (then unmapped when it is
// freed); anything else it is asked for comes from the heap.
class MappedAllocator final : public model::HostAllocator {
public:
    MappedAllocator(std::byte* mapping, std::size_t bytes) : mapping_(mapping), bytes_(bytes) {}
    ~MappedAllocator() override {
        if (mapping_ && !handedOut_) ::munmap(mapping_, bytes_);
    }
    std::byte* allocate(std::size_t bytes) override { return model::heapAllocator()->allocate(bytes); }
    std::byte* allocateUninitialized(std::size_t bytes) override {
        if (!handedOut_ && bytes == bytes_) {
            handedOut_ = true;
            return mapping_;
        }
        return allocate(bytes);
    }
    void deallocate(std::byte* data, std::size_t bytes) noexcept override {
        if (data == mapping_) {
            ::munmap(mapping_, bytes_);
            mapping_ = nullptr;
        } else {
            model::heapAllocator()->deallocate(data, bytes);
        }
    }

private:
    std::byte* mapping_;
    std::size_t bytes_;
    bool handedOut_ = false;
};

} // namespace

void closeAll(std::vector<int>& fds) noexcept {
    for (int fd : fds)
        if (fd >= 0) ::close(fd);
    fds.clear();
}

void send(int socket, const Frame& frame) {
    const std::string header = frame.header.dump();
    if (frame.fds.size() > kMaxFds) throw Error("a worker message carries at most 64 arrays");
    std::string bytes = "KPW1";
    const auto length = static_cast<std::uint32_t>(header.size());
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<char>((length >> (8 * i)) & 0xffu));
    bytes += header;

    iovec io{bytes.data(), bytes.size()};
    msghdr message{};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    std::vector<char> control;
    if (!frame.fds.empty()) {
        control.assign(CMSG_SPACE(sizeof(int) * frame.fds.size()), 0);
        message.msg_control = control.data();
        message.msg_controllen = control.size();
        cmsghdr* c = CMSG_FIRSTHDR(&message);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * frame.fds.size());
        std::memcpy(CMSG_DATA(c), frame.fds.data(), sizeof(int) * frame.fds.size());
    }
    ssize_t n;
    do n = ::sendmsg(socket, &message, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n < 0) throw SystemError("sendmsg", errno, "the worker's socket");
    writeAll(socket, bytes.data() + n, bytes.size() - static_cast<std::size_t>(n));
}

bool receive(int socket, Frame& frame) {
    frame = {};
    std::array<char, 8> head{};
    iovec io{head.data(), head.size()};
    msghdr message{};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    std::vector<char> control(CMSG_SPACE(sizeof(int) * kMaxFds));
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    ssize_t n;
    do n = ::recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n < 0) throw SystemError("recvmsg", errno, "the worker's socket");
    if (n == 0) return false;
    for (cmsghdr* c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            frame.fds.resize(count);
            std::memcpy(frame.fds.data(), CMSG_DATA(c), count * sizeof(int));
        }
    try {
        if (message.msg_flags & MSG_CTRUNC) throw Error("a worker message carried more arrays than allowed");
        readAll(socket, head.data() + n, head.size() - static_cast<std::size_t>(n), false);
        if (std::memcmp(head.data(), "KPW1", 4) != 0) throw Error("the worker sent something that is not a Kernelpad worker message");
        std::uint32_t length = 0;
        for (int i = 0; i < 4; ++i) length |= static_cast<std::uint32_t>(static_cast<unsigned char>(head[4 + static_cast<std::size_t>(i)])) << (8 * i);
        if (length > kMaxHeaderBytes) throw Error("a worker message of " + std::to_string(length) + " bytes is larger than allowed");
        std::string header(length, '\0');
        readAll(socket, header.data(), length, false);
        frame.header = nlohmann::json::parse(header);
    } catch (const nlohmann::json::exception& e) {
        closeAll(frame.fds);
        throw Error(std::string("a worker message is not valid JSON: ") + e.what());
    } catch (...) {
        closeAll(frame.fds);
        throw;
    }
    return true;
}

std::byte* SharedMemoryAllocator::allocate(std::size_t bytes) {
    const int fd = ::memfd_create("kernelpad-array", MFD_CLOEXEC);
    if (fd < 0) throw SystemError("memfd_create", errno, "shared memory of " + std::to_string(bytes) + " bytes");
    if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
        const int e = errno;
        ::close(fd);
        throw SystemError("ftruncate", e, "shared memory of " + std::to_string(bytes) + " bytes");
    }
    // Populated at once: faulting 64 Ki shared pages one by one as the kernel writes costs far more.
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) {
        const int e = errno;
        ::close(fd);
        throw SystemError("mmap", e, "shared memory of " + std::to_string(bytes) + " bytes");
    }
    const std::lock_guard lock(mutex_);
    descriptors_[static_cast<std::byte*>(p)] = fd;
    return static_cast<std::byte*>(p); // a new memfd reads as zeros
}

void SharedMemoryAllocator::deallocate(std::byte* data, std::size_t bytes) noexcept {
    ::munmap(data, bytes);
    const std::lock_guard lock(mutex_);
    if (const auto found = descriptors_.find(data); found != descriptors_.end()) {
        ::close(found->second);
        descriptors_.erase(found);
    }
}

int SharedMemoryAllocator::descriptorOf(const std::byte* data) const {
    const std::lock_guard lock(mutex_);
    const auto found = descriptors_.find(data);
    return found == descriptors_.end() ? -1 : found->second;
}

nlohmann::json shareArrays(const launch::NamedArrays& arrays, std::vector<int>& fds) {
    // Arrays not yet in shared memory are copied into it once; what travels is always a descriptor.
    static const auto copies = std::make_shared<SharedMemoryAllocator>();
    nlohmann::json listed = nlohmann::json::array();
    for (const auto& [name, array] : arrays) {
        int fd;
        if (array.bytes() == 0) {
            fd = ::memfd_create(("kernelpad-" + name).c_str(), MFD_CLOEXEC);
            if (fd < 0) throw SystemError("memfd_create", errno, "shared memory for the array " + name);
        } else {
            const auto* shared = dynamic_cast<const SharedMemoryAllocator*>(array.allocator().get());
            std::optional<model::Array> copy;
            if (!shared || shared->descriptorOf(array.data()) < 0) copy = array.copyTo(copies);
            const model::Array& source = copy ? *copy : array;
            const auto* owner = static_cast<const SharedMemoryAllocator*>(source.allocator().get());
            // A duplicate: the array (or its copy) may be freed before the message is sent.
            fd = ::fcntl(owner->descriptorOf(source.data()), F_DUPFD_CLOEXEC, 0);
            if (fd < 0) throw SystemError("fcntl", errno, "sharing the array " + name);
        }
        fds.push_back(fd);
        nlohmann::json shape = array.shape();
        listed.push_back({{"name", name}, {"dtype", std::string(model::name(array.dtype()))}, {"shape", shape}, {"fd", fds.size() - 1}});
    }
    return listed;
}

launch::NamedArrays adoptArrays(const nlohmann::json& listed, const std::vector<int>& fds) {
    launch::NamedArrays arrays;
    for (const auto& entry : listed) {
        const auto name = entry.at("name").get<std::string>();
        const auto dtype = model::dtypeFromName(entry.at("dtype").get<std::string>());
        if (!dtype) throw Error("the worker sent an array of unknown dtype " + entry.at("dtype").dump());
        const auto shape = entry.at("shape").get<model::Shape>();
        const auto index = entry.at("fd").get<std::size_t>();
        if (index >= fds.size()) throw Error("the worker sent an array without its shared memory");
        const std::size_t bytes = model::elementCount(shape) * model::byteSize(*dtype);
        struct stat info {};
        if (::fstat(fds[index], &info) != 0 || static_cast<std::size_t>(info.st_size) != bytes)
            throw Error("the worker's shared memory for " + name + " does not have the size of its array");
        if (bytes == 0) {
            arrays.emplace_back(name, model::Array(*dtype, shape));
            continue;
        }
        void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fds[index], 0);
        if (p == MAP_FAILED) throw SystemError("mmap", errno, "the worker's result " + name);
        auto allocator = std::make_shared<MappedAllocator>(static_cast<std::byte*>(p), bytes);
        arrays.emplace_back(name, model::Array(*dtype, shape, allocator, model::Array::Uninitialized{}));
    }
    return arrays;
}

} // namespace kp::worker
