#include "UnixChannel.h"

#include "core/Error.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <poll.h>
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

// Each array as a descriptor of shared memory holding it: its own, if it came from a
// SharedMemoryAllocator; else a copy made once.
nlohmann::json shareArrays(const std::vector<model::Array>& arrays, std::vector<UniqueFd>& fds) {
    static const auto copies = std::make_shared<SharedMemoryAllocator>();
    nlohmann::json listed = nlohmann::json::array();
    for (const auto& array : arrays) {
        UniqueFd fd;
        if (array.bytes() == 0) {
            fd.reset(::memfd_create("kernelpad-array", MFD_CLOEXEC));
            if (!fd) throw SystemError("memfd_create", errno, "shared memory for an empty array");
        } else {
            const auto* shared = dynamic_cast<const SharedMemoryAllocator*>(array.allocator().get());
            std::optional<model::Array> copy;
            if (!shared || shared->descriptorOf(array.data()) < 0) copy = array.copyTo(copies);
            const model::Array& source = copy ? *copy : array;
            const auto* owner = static_cast<const SharedMemoryAllocator*>(source.allocator().get());
            // A duplicate: the array (or its copy) may be freed before the frame is sent.
            fd.reset(::fcntl(owner->descriptorOf(source.data()), F_DUPFD_CLOEXEC, 0));
            if (!fd)
                throw SystemError("fcntl", errno,
                                  "sharing an array of " + std::to_string(array.bytes()) + " bytes");
        }
        fds.push_back(std::move(fd));
        listed.push_back({{"dtype", std::string(model::name(array.dtype()))}, {"shape", array.shape()}});
    }
    return listed;
}

std::vector<model::Array> adoptArrays(const nlohmann::json& listed, const std::vector<UniqueFd>& fds) {
    if (!listed.is_array() || listed.size() != fds.size())
        throw Error("a worker message's arrays do not match the shared memory that came with it");
    std::vector<model::Array> arrays;
    for (std::size_t i = 0; i < listed.size(); ++i) {
        const auto& entry = listed[i];
        const auto dtype = model::dtypeFromName(entry.at("dtype").get<std::string>());
        if (!dtype) throw Error("the worker sent an array of unknown dtype " + entry.at("dtype").dump());
        const auto shape = entry.at("shape").get<model::Shape>();
        const std::size_t bytes = model::elementCount(shape) * model::byteSize(*dtype);
        struct stat info {};
        if (::fstat(fds[i].get(), &info) != 0 || static_cast<std::size_t>(info.st_size) != bytes)
            throw Error("the worker's shared memory for array " + std::to_string(i) +
                        " does not have the size of its array");
        if (bytes == 0) {
            arrays.emplace_back(*dtype, shape);
            continue;
        }
        void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fds[i].get(), 0);
        if (p == MAP_FAILED) throw SystemError("mmap", errno, "the worker's array " + std::to_string(i));
        auto allocator = std::make_shared<MappedAllocator>(static_cast<std::byte*>(p), bytes);
        arrays.emplace_back(*dtype, shape, allocator, model::Array::Uninitialized{});
    }
    return arrays;
}

} // namespace

void UnixChannel::send(const Frame& frame) {
    if (frame.arrays.size() > kMaxFds) throw Error("a worker message carries at most 64 arrays");
    std::vector<UniqueFd> fds;
    std::string header;
    if (frame.arrays.empty()) {
        header = frame.header.dump();
    } else {
        auto listed = frame.header;
        listed["arrays"] = shareArrays(frame.arrays, fds);
        header = listed.dump();
    }
    std::string bytes = "KPW1";
    const auto length = static_cast<std::uint32_t>(header.size());
    for (int i = 0; i < 4; ++i)
        bytes.push_back(static_cast<char>((length >> (8 * i)) & 0xffu));
    bytes += header;

    iovec io{bytes.data(), bytes.size()};
    msghdr message{};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    std::vector<char> control;
    if (!fds.empty()) {
        control.assign(CMSG_SPACE(sizeof(int) * fds.size()), 0);
        message.msg_control = control.data();
        message.msg_controllen = control.size();
        cmsghdr* c = CMSG_FIRSTHDR(&message);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
        std::vector<int> sent;
        sent.reserve(fds.size());
        for (const auto& fd : fds)
            sent.push_back(fd.get());
        std::memcpy(CMSG_DATA(c), sent.data(), sizeof(int) * sent.size());
    }
    ssize_t n;
    do
        n = ::sendmsg(socket_.get(), &message, MSG_NOSIGNAL);
    while (n < 0 && errno == EINTR);
    if (n < 0) throw SystemError("sendmsg", errno, "the worker's socket");
    writeAll(socket_.get(), bytes.data() + n, bytes.size() - static_cast<std::size_t>(n));
}

bool UnixChannel::receive(Frame& frame) {
    frame = {};
    std::vector<UniqueFd> fds; // closed on every way out: the arrays keep mappings, not descriptors
    std::array<char, 8> head{};
    iovec io{head.data(), head.size()};
    msghdr message{};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    std::vector<char> control(CMSG_SPACE(sizeof(int) * kMaxFds));
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    ssize_t n;
    do
        n = ::recvmsg(socket_.get(), &message, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    if (n < 0) throw SystemError("recvmsg", errno, "the worker's socket");
    if (n == 0) return false;
    for (cmsghdr* c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            std::vector<int> received(count);
            std::memcpy(received.data(), CMSG_DATA(c), count * sizeof(int));
            for (int fd : received)
                fds.emplace_back(fd);
        }
    try {
        if (message.msg_flags & MSG_CTRUNC) throw Error("a worker message carried more arrays than allowed");
        readAll(socket_.get(), head.data() + n, head.size() - static_cast<std::size_t>(n), false);
        if (std::memcmp(head.data(), "KPW1", 4) != 0)
            throw Error("the worker sent something that is not a Kernelpad worker message");
        std::uint32_t length = 0;
        for (int i = 0; i < 4; ++i)
            length |=
                static_cast<std::uint32_t>(static_cast<unsigned char>(head[4 + static_cast<std::size_t>(i)]))
                << (8 * i);
        if (length > kMaxHeaderBytes)
            throw Error("a worker message of " + std::to_string(length) + " bytes is larger than allowed");
        std::string header(length, '\0');
        readAll(socket_.get(), header.data(), length, false);
        frame.header = nlohmann::json::parse(header);
        if (const auto listed = frame.header.find("arrays"); listed != frame.header.end()) {
            frame.arrays = adoptArrays(*listed, fds);
            frame.header.erase(listed);
        } else if (!fds.empty()) {
            throw Error("a worker message came with shared memory it does not list");
        }
    } catch (const nlohmann::json::exception& e) {
        throw Error(std::string("a worker message is not valid JSON: ") + e.what());
    }
    return true;
}

bool UnixChannel::wait(std::chrono::milliseconds timeout) {
    pollfd p{socket_.get(), POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(timeout.count()));
    if (ready < 0 && errno != EINTR) throw SystemError("poll", errno, "the worker's socket");
    return ready > 0;
}

std::shared_ptr<model::HostAllocator> UnixChannel::arrayAllocator() {
    static const auto shared = std::make_shared<SharedMemoryAllocator>();
    return shared;
}

std::byte* SharedMemoryAllocator::allocate(std::size_t bytes) {
    UniqueFd fd(::memfd_create("kernelpad-array", MFD_CLOEXEC));
    if (!fd) throw SystemError("memfd_create", errno, "shared memory of " + std::to_string(bytes) + " bytes");
    if (::ftruncate(fd.get(), static_cast<off_t>(bytes)) != 0)
        throw SystemError("ftruncate", errno, "shared memory of " + std::to_string(bytes) + " bytes");
    // Populated at once: faulting 64 Ki shared pages one by one as the kernel writes costs far more.
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd.get(), 0);
    if (p == MAP_FAILED)
        throw SystemError("mmap", errno, "shared memory of " + std::to_string(bytes) + " bytes");
    const std::lock_guard lock(mutex_);
    descriptors_[static_cast<std::byte*>(p)] = std::move(fd);
    return static_cast<std::byte*>(p); // a new memfd reads as zeros
}

void SharedMemoryAllocator::deallocate(std::byte* data, std::size_t bytes) noexcept {
    ::munmap(data, bytes);
    const std::lock_guard lock(mutex_);
    descriptors_.erase(data);
}

int SharedMemoryAllocator::descriptorOf(const std::byte* data) const {
    const std::lock_guard lock(mutex_);
    const auto found = descriptors_.find(data);
    return found == descriptors_.end() ? -1 : found->second.get();
}

} // namespace kp::worker
