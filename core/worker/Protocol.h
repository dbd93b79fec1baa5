// The app <-> worker protocol (version kProtocol): each message (Messages.h) as a frame (Channel.h) and
// back, in this one place. The header is a JSON object whose "type" names the message; arrays travel
// beside it, referred to by index; the playground travels as its JSON text (the file format).
//   hello        {protocol, version, pid}
//   run          {playground, path, backend, repeat, warmup, check_bounds, trusted}
//   inspect      {playground, path, backend, trusted}
//   sweep        {playground, path, sweep, trusted}
//   disassemble  {playground, path, arch, line_info, trusted}
//   result       {report, execution, outputs: [{name, array}], reference_outputs: [{name, array}]}
//   inspection   {inspection}
//   sweep_row    {row, done, total}
//   sweep_result {result, spec, fatal}
//   compiled_code {compiled_code}
//   error        {kind, message, diagnostics, fatal}
#pragma once

#include "Channel.h"
#include "Messages.h"
#include "core/Error.h"

namespace kp::worker {

inline constexpr int kProtocol = 3;

// A frame that is not a message of this protocol: an unknown type or failure kind, a member missing or
// of the wrong type. The message says which.
struct ProtocolError : Error {
    using Error::Error;
};

// The message's arrays move into the frame.
Frame encode(Message message);
// Throws ProtocolError, or InputError for a request with a value the user chose that is refused (a
// sweep's range). A hello decodes whatever its protocol, so that another version can be named.
Message decode(Frame frame);

} // namespace kp::worker
