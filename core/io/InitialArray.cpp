#include "InitialArray.h"

#include "core/Error.h"
#include "core/io/CsvFile.h"
#include "core/io/NpyFile.h"
#include "core/model/ArrayGenerator.h"

#include <algorithm>
#include <cctype>

namespace kp::io {

namespace {

using model::Array;

std::string lowercaseExtension(const std::filesystem::path& path) {
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    return extension;
}

Array readFile(const model::ArraySpec& spec, const model::InitSpec& init,
               const std::filesystem::path& baseDir, const std::string& where) {
    const std::filesystem::path path = model::resolveInside(baseDir, init.file, where + ".file");
    const std::string extension = lowercaseExtension(path);
    Array loaded;
    if (extension == ".npy")
        loaded = asVectorType(readNpy(path), spec.dtype, where + ".file (" + path.string() + ")");
    else if (extension == ".csv")
        loaded = readCsv(path, spec.dtype, spec.shape);
    else
        throw InputError(where + ".file: \"" + init.file + "\" is neither a .npy nor a .csv file");
    requireMatches(loaded, spec.dtype, spec.shape, where + ".file (" + path.string() + ")");
    return loaded;
}

} // namespace

Array initialArray(const model::ArraySpec& spec, const model::InitSpec& init,
                   const std::filesystem::path& baseDir, const std::string& where,
                   const std::shared_ptr<model::HostAllocator>& allocator) {
    if (init.kind != model::InitSpec::Kind::File) return model::generate(spec, init, where, allocator);
    Array loaded = readFile(spec, init, baseDir, where);
    return loaded.allocator() == allocator ? loaded : loaded.copyTo(allocator);
}

} // namespace kp::io
