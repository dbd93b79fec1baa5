// How frames travel between the app and its worker, apart from what they say (Protocol.h): a frame is a
// JSON header and the arrays it carries, and a Channel moves whole frames. UnixChannel.h is the one on
// this machine (a Unix socket, arrays in shared memory); a worker on another machine needs only another
// Channel, not another protocol.
#pragma once

#include "core/model/Array.h"

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

namespace kp::worker {

struct Frame {
    nlohmann::json header;
    std::vector<model::Array> arrays; // the header refers to them by index
};

class Channel {
public:
    virtual ~Channel() = default;

    // Throws SystemError when the connection fails, Error for a frame it cannot carry.
    virtual void send(const Frame& frame) = 0;
    // Throws as send() does, and Error for a malformed frame; false at a clean end of the stream (the
    // other side closed) before a frame began.
    virtual bool receive(Frame& frame) = 0;
    // True once a frame (or the end of the stream) can be received, false after `timeout` without one.
    virtual bool wait(std::chrono::milliseconds timeout) = 0;
    // Memory for arrays that will be sent: what this channel carries cheapest (the heap where nothing
    // is cheaper).
    virtual std::shared_ptr<model::HostAllocator> arrayAllocator() = 0;
};

} // namespace kp::worker
