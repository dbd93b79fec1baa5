// `cmake --install` as a packager runs it: the tree holds the programs, the worker in libexec, every
// sample with its lesson, the desktop entry, the icon and the MIME type, and the installed programs run
// from it alone (no source tree, no build folder, no environment pointing at either).
#include "../TestSupport.h"
#include "core/sandbox/Subprocess.h"

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace kp;
namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

class TestInstall : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    fs::path prefix_;

    // The installed program, run from a folder outside the source and build trees with none of the
    // variables the tests otherwise set.
    sandbox::SubprocessResult installed(const std::string& program, std::vector<std::string> arguments) {
        arguments.insert(arguments.begin(),
                         {"env", "-u", "KERNELPAD_SAMPLES_DIR", "-u", "KERNELPAD_WORKER",
                          "QT_QPA_PLATFORM=offscreen", (prefix_ / "bin" / program).string()});
        return sandbox::runProcess(arguments, dir_.path().toStdString());
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        prefix_ = fs::path(dir_.path().toStdString()) / "prefix";
        // A build copied to another machine (the GPU machine gets the binaries alone) cannot be installed.
        if (!fs::is_regular_file(KP_CMAKE_COMMAND) ||
            !fs::is_regular_file(fs::path(KP_BINARY_DIR) / "cmake_install.cmake"))
            QSKIP("no CMake or no cmake_install.cmake here: this build tree was copied without what "
                  "installing needs");
        const auto r =
            sandbox::runProcess({KP_CMAKE_COMMAND, "--install", KP_BINARY_DIR, "--prefix", prefix_.string()});
        QVERIFY2(r.exitCode == 0, r.output.c_str());
    }

    void theTreeHoldsWhatTheAppNeeds() {
        for (const char* file :
             {"bin/kernelpad-cli", "libexec/kernelpad/kernelpad-worker", "share/kernelpad/samples/index.json",
              "share/applications/kernelpad.desktop", "share/icons/hicolor/scalable/apps/kernelpad.svg",
              "share/mime/packages/kernelpad.xml", "share/doc/kernelpad/LICENSE"})
            QVERIFY2(fs::is_regular_file(prefix_ / file), file);
#ifdef KP_WITH_GUI
        QVERIFY(fs::is_regular_file(prefix_ / "bin/kernelpad"));
#endif
        // Every sample the index lists, with its kernel, playground, reference and lesson.
        const auto index = nlohmann::json::parse(readText(prefix_ / "share/kernelpad/samples/index.json"));
        int samples = 0;
        for (const auto& group : index.at("groups"))
            for (const auto& name : group.at("samples")) {
                const auto folder = prefix_ / "share/kernelpad/samples" / name.get<std::string>();
                QVERIFY2(fs::is_regular_file(folder / "README.md"), folder.c_str());
                QVERIFY2(fs::is_regular_file(folder / (name.get<std::string>() + ".kpad.json")),
                         folder.c_str());
                ++samples;
            }
        QCOMPARE(samples, test::samplesInSourceTree());
        // The desktop entry opens playgrounds, which the MIME type recognises by their double extension.
        const auto desktop = readText(prefix_ / "share/applications/kernelpad.desktop");
        for (const char* line :
             {"Exec=kernelpad %f", "Icon=kernelpad", "MimeType=application/x-kernelpad-playground;"})
            QVERIFY2(desktop.find(line) != std::string::npos, line);
        const auto mime = readText(prefix_ / "share/mime/packages/kernelpad.xml");
        QVERIFY(mime.find("type=\"application/x-kernelpad-playground\"") != std::string::npos);
        QVERIFY(mime.find("pattern=\"*.kpad.json\"") != std::string::npos);
        QVERIFY(readText(prefix_ / "share/icons/hicolor/scalable/apps/kernelpad.svg").starts_with("<svg"));
    }

    void theInstalledCliFindsItsSamplesAndRuns() {
        auto r = installed("kernelpad-cli", {"samples", "multiply_them"});
        QVERIFY2(r.exitCode == 0, r.output.c_str());
        const auto playground = (prefix_ / "share/kernelpad/samples/multiply_them/multiply_them.kpad.json")
                                    .lexically_normal()
                                    .string();
        QVERIFY2(r.output.find(playground) != std::string::npos,
                 r.output.c_str()); // the installed one, not the source's
        r = installed("kernelpad-cli", {"run", "doublify", "--backend", "cpu"});
        QVERIFY2(r.exitCode == 0, r.output.c_str());
        QVERIFY2(r.output.find("matches the reference") != std::string::npos, r.output.c_str());
    }

#ifdef KP_WITH_GUI
    // The app runs kernels through the worker, found in libexec: the screenshot tour opens a sample, runs
    // it, sweeps it and compiles an error, all through the installed worker.
    void theInstalledAppFindsItsWorker() {
        const auto shots = fs::path(dir_.path().toStdString()) / "shots";
        const auto r = installed("kernelpad", {"--screenshots", shots.string()});
        QVERIFY2(r.exitCode == 0, r.output.c_str());
        for (const char* picture :
             {"kernelpad-results.png", "kernelpad-sweep.png", "kernelpad-diagnostics.png"})
            QVERIFY2(fs::file_size(shots / picture) > 10000, picture);
    }
#endif
};

QTEST_GUILESS_MAIN(TestInstall)
#include "tst_install.moc"
