// A file the CLI writes for the user (--out, --csv, --json) could not be written: a full disk, a file
// size limit, a folder that cannot be created. main() and exitCodeOf() turn it into exit code 6.
#pragma once

#include "core/Error.h"

namespace kp::cli {

class OutputError : public Error {
public:
    using Error::Error;
};

} // namespace kp::cli
