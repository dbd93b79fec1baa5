// Text as lines, for the readers of what compilers print (NVRTC's log, ptxas's report, PTX, SASS):
// one way to split and to trim, so that a CRLF, a missing last newline or a tab means the same to all;
// and one way to join a list into a message.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kp {

// The lines of `text` without their '\n' (nor a '\r' before it); views into `text`. A last line without a
// newline is a line; an empty text has none.
std::vector<std::string_view> splitLines(std::string_view text);

// `items` one after the other with `separator` between them ("a, b, c").
std::string join(const std::vector<std::string>& items, std::string_view separator);

// `text` without the spaces and tabs at its start, its end, or both.
std::string_view trimLeft(std::string_view text);
std::string_view trimRight(std::string_view text);
std::string_view trim(std::string_view text);

} // namespace kp
