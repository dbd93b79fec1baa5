// kernelpad-cli: Kernelpad's core without a window (run, compile, devices, samples, sweep). Exceptions stop
// here and become a message and an exit code (ExitCode.h).
#include "CompileCommand.h"
#include "DevicesCommand.h"
#include "ExitCode.h"
#include "OutputError.h"
#include "RunCommand.h"
#include "SamplesCommand.h"
#include "SweepCommand.h"
#include "core/Error.h"
#include "core/sandbox/Confinement.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
#include <unistd.h>

namespace {

// Kernels and references on the CPU run in a child process (core/sandbox/Contained), which reports
// their crashes itself; a crash here is Kernelpad's own. Say so, and exit with the code for a faulted
// run rather than the shell's 128 + signal. Only async-signal-safe calls here.
void kernelCrashed(int signal) {
    const char* name = signal == SIGABRT   ? "SIGABRT"
                       : signal == SIGSEGV ? "SIGSEGV"
                       : signal == SIGBUS  ? "SIGBUS"
                                           : "SIGFPE";
    const char* lines[] = {
        "kernelpad-cli: the run crashed the process (", name,
        "). A kernel on a GPU that faults badly can do this; please report it if it was not that.\n"};
    for (const char* line : lines)
        if (::write(STDERR_FILENO, line, std::strlen(line)) < 0) break;
    ::_exit(kp::cli::ExitCode::KernelFault);
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"Kernelpad: run, compile and inspect CUDA kernels from the command line", "kernelpad-cli"};
    app.set_version_flag("--version", std::string("kernelpad-cli ") + KP_VERSION);
    app.require_subcommand(1);
    app.footer(kp::cli::kExitCodesHelp);

    kp::cli::DevicesCommandOptions devices;
    auto* devicesCmd = kp::cli::addDevicesCommand(app, devices);
    kp::cli::RunCommandOptions run;
    auto* runCmd = kp::cli::addRunCommand(app, run);
    kp::cli::CompileCommandOptions compile;
    auto* compileCmd = kp::cli::addCompileCommand(app, compile);
    kp::cli::SamplesCommandOptions samples;
    auto* samplesCmd = kp::cli::addSamplesCommand(app, samples);
    kp::cli::SweepCommandOptions sweep;
    auto* sweepCmd = kp::cli::addSweepCommand(app, sweep);

    // Code from a playground on the CPU (kernels, references) runs in the sandbox; this is for people who
    // trust the file on a machine that has none.
    bool noSandbox = false;
    for (auto* cmd : {runCmd, sweepCmd})
        cmd->add_flag("--no-sandbox", noSandbox,
                      "Run the playground's CPU code (kernels, reference) without the sandbox: only for a "
                      "file you trust, where this machine cannot set the sandbox up");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kp::cli::ExitCode::Ok : kp::cli::ExitCode::BadInput;
    }
    if (noSandbox) kp::sandbox::setMode(kp::sandbox::Mode::Trusted);
    for (const int signal : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE})
        std::signal(signal, kernelCrashed);
    try {
        if (devicesCmd->parsed()) return kp::cli::runDevicesCommand(devices);
        if (runCmd->parsed()) return kp::cli::runRunCommand(run);
        if (compileCmd->parsed()) return kp::cli::runCompileCommand(compile);
        if (samplesCmd->parsed()) return kp::cli::runSamplesCommand(samples);
        if (sweepCmd->parsed()) return kp::cli::runSweepCommand(sweep);
    } catch (const kp::InputError& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return kp::cli::ExitCode::BadInput;
    } catch (const kp::cli::OutputError& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return kp::cli::ExitCode::IoError;
    } catch (const kp::SystemError& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return kp::cli::ExitCode::IoError;
    } catch (const std::filesystem::filesystem_error& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return kp::cli::ExitCode::IoError;
    } catch (const std::bad_alloc&) {
        // What the memory check before a run could not foresee: the playground asks for more than this
        // machine has, which is the input's to change, not the kernel's fault.
        std::cerr
            << "kernelpad-cli: out of host memory: the playground's arrays do not fit in this machine's "
               "memory; make them smaller\n";
        return kp::cli::ExitCode::BadInput;
    } catch (const std::exception& e) {
        std::cerr << "kernelpad-cli: " << e.what() << "\n";
        return kp::cli::ExitCode::KernelFault;
    }
    return kp::cli::ExitCode::BadInput;
}
