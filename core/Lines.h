// Text as lines, for the readers of what compilers print (NVRTC's log, ptxas's report, PTX, SASS):
// one way to split, so that a CRLF or a missing last newline means the same to all of them.
#pragma once

#include <string_view>
#include <vector>

namespace kp {

// The lines of `text` without their '\n' (nor a '\r' before it); views into `text`. A last line without a
// newline is a line; an empty text has none.
std::vector<std::string_view> splitLines(std::string_view text);

} // namespace kp
