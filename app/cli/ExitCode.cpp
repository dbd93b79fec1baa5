#include "ExitCode.h"

#include "OutputError.h"
#include "core/Error.h"
#include "core/cuda/CudaError.h"
#include "core/launch/CompileError.h"
#include "core/launch/KernelFault.h"

#include <filesystem>
#include <iostream>

namespace kp::cli {

int exitCodeOf(const std::function<int()>& command,
               const std::function<std::string(const std::string&)>& describe) {
    try {
        return command();
    } catch (const launch::CompileError& e) {
        std::cerr << e.what() << "\n";
        return ExitCode::CompileError;
    } catch (const InputError& e) {
        std::cerr << "kernelpad-cli: " << (describe ? describe(e.what()) : std::string(e.what())) << "\n";
        return ExitCode::BadInput;
    } catch (const launch::KernelFault& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return ExitCode::KernelFault;
    } catch (const cuda::Unavailable& e) {
        std::cerr << "kernelpad-cli: no CUDA backend here: " << e.what() << "\n";
        return ExitCode::NoBackend;
    } catch (const OutputError& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return ExitCode::IoError;
    } catch (const SystemError& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return ExitCode::IoError;
    } catch (const std::filesystem::filesystem_error& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return ExitCode::IoError;
    }
}

} // namespace kp::cli
