// kernelpad-cli: Kernelpad's core without a window (run, compile, devices). Exceptions stop here and
// become a message and an exit code (ExitCode.h).
#include "CompileCommand.h"
#include "DevicesCommand.h"
#include "ExitCode.h"
#include "RunCommand.h"
#include "core/Error.h"

#include <CLI/CLI.hpp>
#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"Kernelpad: run, compile and inspect CUDA kernels from the command line", "kernelpad-cli"};
    app.set_version_flag("--version", std::string("kernelpad-cli ") + KP_VERSION);
    app.require_subcommand(1);

    kp::cli::DevicesCommandOptions devices;
    auto* devicesCmd = kp::cli::addDevicesCommand(app, devices);
    kp::cli::RunCommandOptions run;
    auto* runCmd = kp::cli::addRunCommand(app, run);
    kp::cli::CompileCommandOptions compile;
    auto* compileCmd = kp::cli::addCompileCommand(app, compile);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kp::cli::ExitCode::Ok : kp::cli::ExitCode::BadInput;
    }
    try {
        if (devicesCmd->parsed()) return kp::cli::runDevicesCommand(devices);
        if (runCmd->parsed()) return kp::cli::runRunCommand(run);
        if (compileCmd->parsed()) return kp::cli::runCompileCommand(compile);
    } catch (const kp::InputError& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return kp::cli::ExitCode::BadInput;
    } catch (const std::exception& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return kp::cli::ExitCode::KernelFault;
    }
    return kp::cli::ExitCode::BadInput;
}
