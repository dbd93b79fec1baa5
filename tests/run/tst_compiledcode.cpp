// The compiled code of a playground, through the real NVRTC (no GPU needed): PTX with each line's
// source line when -lineinfo is on (and none when it is off), every kernel's registers, shared memory
// and spills from ptxas, the architecture chosen over the playground's own, errors in words. SASS comes
// from nvdisasm: the toolkit's where it has one (the GPU machine), a stand-in script printing nvdisasm's
// recorded output elsewhere; without any, the result says where nvdisasm was looked for.
#include "../TestSupport.h"
#include "core/Error.h"
#include "core/cuda/CompileCache.h"
#include "core/cuda/CudaError.h"
#include "core/cuda/Disassembler.h"
#include "core/cuda/Driver.h"
#include "core/cuda/Nvrtc.h"
#include "core/io/PlaygroundFile.h"
#include "core/launch/CompileError.h"
#include "core/launch/RunSetup.h"
#include "core/run/CompiledCode.h"
#include "core/run/Inspect.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

using kp::run::compileCode;
using kp::run::CompiledCode;

namespace {

const std::string kData = KP_SOURCE_DIR "/tests/cuda/data/";

// Sets an environment variable for one test and puts back what was there.
class ScopedEnvironment {
public:
    ScopedEnvironment(const char* name, const QByteArray& value)
        : name_(name), had_(qEnvironmentVariableIsSet(name)), old_(qgetenv(name)) {
        qputenv(name, value);
    }
    ~ScopedEnvironment() { had_ ? (void)qputenv(name_, old_) : (void)qunsetenv(name_); }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    const char* name_;
    bool had_;
    QByteArray old_;
};

// The 1-based number of the source line that contains `text`.
int lineOf(const std::string& source, const std::string& text) {
    const auto at = source.find(text);
    if (at == std::string::npos) return 0;
    return 1 + static_cast<int>(
                   std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

bool anyContains(const kp::cuda::CodeListing& listing, const std::vector<std::size_t>& lines,
                 const std::string& text) {
    return std::any_of(lines.begin(), lines.end(), [&](std::size_t i) {
        return listing.lines()[i].text.find(text) != std::string::npos;
    });
}

} // namespace

class TestCompiledCode : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string source_;

    // The recorded kernels (data/nvdisasm-source.cu) as kernel.cu beside a playground that runs scale_add.
    kp::model::Playground playground(const std::string& kernel = "scale_add",
                                     const nlohmann::json& options = nlohmann::json::array()) {
        nlohmann::json json = {{"format", "kernelpad/1"},
                               {"source", "kernel.cu"},
                               {"kernel", kernel},
                               {"launch", {{"grid", {1}}, {"block", {128}}}}};
        if (!options.empty()) json["compile"] = {{"options", options}};
        return kp::io::parsePlayground(json.dump(), dir_.filePath("code.kpad.json").toStdString());
    }

    static kp::model::Playground inlinePlayground(const std::string& code, const std::string& kernel) {
        const nlohmann::json json = {{"format", "kernelpad/1"},
                                     {"code", code},
                                     {"kernel", kernel},
                                     {"launch", {{"grid", {1}}, {"block", {32}}}}};
        return kp::io::parsePlayground(json.dump(), "/tmp/inline.kpad.json");
    }

    // A stand-in for nvdisasm: checks that it is given -c -gi and a CUBIN file, then prints `output` (or
    // fails with `failure`).
    QByteArray fakeNvdisasm(const QString& name, const std::string& output, const std::string& failure = {}) {
        const auto path = dir_.filePath(name).toStdString();
        std::string script =
            "#!/bin/sh\n"
            "[ \"$1\" = -c ] && [ \"$2\" = -gi ] && [ \"$(head -c 4 \"$3\" | tail -c 3)\" = ELF ] || "
            "{ echo \"unexpected: $*\"; exit 2; }\n";
        script += failure.empty() ? "cat '" + output + "'\n" : "echo '" + failure + "' >&2\nexit 1\n";
        kp::test::writeText(path, script);
        std::filesystem::permissions(path, std::filesystem::perms::owner_all);
        return QByteArray::fromStdString(path);
    }

private slots:
    void initTestCase() {
        if (!kp::cuda::Nvrtc::available()) QSKIP(kp::cuda::Nvrtc::unavailableReason().c_str());
        QVERIFY(dir_.isValid());
        source_ = kp::test::readText(kData + "nvdisasm-source.cu");
        kp::test::writeText(dir_.filePath("kernel.cu").toStdString(), source_);
    }

    void ptxHasSourceLinesAndEveryKernelItsResources() {
        const auto code = compileCode(playground(), "sm_90", true, nullptr);
        QCOMPARE(code.arch, std::string("sm_90"));
        QVERIFY(code.lineInfo);
        QCOMPARE(code.sourceName, std::string("kernel.cu"));
        QCOMPARE(code.kernel, std::string("_Z9scale_addPKfPffi"));
        QVERIFY(code.ptx.hasSourceLines());
        QVERIFY(anyContains(code.ptx, code.ptx.linesFrom(lineOf(source_, "__syncthreads")), "bar.sync"));
        QVERIFY(
            anyContains(code.ptx, code.ptx.linesFrom(lineOf(source_, "y[i] = a * square")), "st.global.f32"));
        QVERIFY(code.ptx.function(code.kernel) && code.ptx.function(code.kernel)->kernel);
        // Both kernels of the source, in its order, with what ptxas reports; no ptxas chatter as diagnostics.
        QCOMPARE(code.kernels.size(), std::size_t{2});
        QCOMPARE(code.kernels[0].displayName, std::string("scale_add(float const*, float*, float, int)"));
        QCOMPARE(code.kernels[1].displayName, std::string("tile_sum(float const*, float*)"));
        for (const auto& k : code.kernels)
            QVERIFY2(k.registers >= 4 && k.registers <= 255, k.name.c_str());
        QCOMPARE(code.kernels[1].sharedBytes, 512);
        QCOMPARE(code.kernels[1].barriers, 1);
        QCOMPARE(code.kernels[0].sharedBytes, 0);
        QCOMPARE(code.resources(code.kernel), &code.kernels[0]);
        QVERIFY(code.diagnostics.empty());
        QVERIFY(std::find(code.supportedArchs.begin(), code.supportedArchs.end(), 90) !=
                code.supportedArchs.end());
        if (!kp::cuda::Driver::available()) QVERIFY(code.deviceArch.empty());
    }

    void withoutLineInfoTheCodeHasNoSourceLines() {
        const auto code = compileCode(playground(), "sm_90", false, nullptr);
        QVERIFY(!code.lineInfo);
        QVERIFY(!code.ptx.empty());
        QVERIFY(!code.ptx.hasSourceLines());
        QVERIFY(code.ptx.linesFrom(lineOf(source_, "__syncthreads")).empty());
        QCOMPARE(code.kernels.size(), std::size_t{2}); // the resources do not need line info
        // -lineinfo in the playground's own options counts as asking for it.
        const auto asked = compileCode(playground("scale_add", {"-lineinfo"}), "sm_90", false, nullptr);
        QVERIFY(asked.lineInfo && asked.ptx.hasSourceLines());
    }

    void theChosenArchitectureWinsOverThePlaygrounds() {
        const auto code = compileCode(playground("scale_add", {"-arch=sm_75"}), "sm_86", true, nullptr);
        QCOMPARE(code.arch, std::string("sm_86"));
        QVERIFY(std::any_of(code.ptx.lines().begin(), code.ptx.lines().end(),
                            [](const auto& l) { return l.text == ".target sm_86"; }));
    }

    void withoutAnArchitectureTheGpusOrARealOne() {
        const auto arch = CompiledCode::defaultArch();
        QVERIFY2(arch.starts_with("sm_"), arch.c_str());
        if (!kp::cuda::Driver::available()) QCOMPARE(arch, std::string("sm_90"));
        const auto code = compileCode(playground(), "", true, nullptr);
        QCOMPARE(code.arch, arch);
        QVERIFY(!code.kernels.empty()); // a real architecture: ptxas ran
    }

    void templateKernelsAreInstantiatedAndFound() {
        const auto code =
            compileCode(inlinePlayground("template <typename T>\n__global__ void scale(T* x, int n) {\n"
                                         "    if (threadIdx.x < n) x[threadIdx.x] *= T(2);\n}\n",
                                         "scale<float>"),
                        "sm_90", true, nullptr);
        QCOMPARE(code.kernel, std::string("_Z5scaleIfEvPT_i"));
        QCOMPARE(code.sourceName, std::string("<code>"));
        QVERIFY(code.ptx.function(code.kernel));
        QVERIFY(code.resources(code.kernel));
        QCOMPARE(code.resources(code.kernel)->displayName, std::string("void scale<float>(float*, int)"));
        QVERIFY(!code.ptx.linesFrom(3).empty()); // inline code maps too
    }

    void refusesArchitecturesWithoutSass_data() {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QString>("message");
        QTest::newRow("virtual") << "compute_90"
                                 << "is not a real GPU architecture";
        QTest::newRow("unknown") << "sm_10"
                                 << "cannot compile for sm_10; it knows sm_";
        QTest::newRow("garbage") << "sm_9x0"
                                 << "is not a real GPU architecture";
    }
    void refusesArchitecturesWithoutSass() {
        QFETCH(QString, arch);
        QFETCH(QString, message);
        const auto error =
            kp::test::inputErrorOf([&] { compileCode(playground(), arch.toStdString(), true, nullptr); });
        QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
        QVERIFY(error.starts_with("arch: "));
    }

    // The CPU backend compiles a kernel that throws, or calls a host-only function; a GPU's compiler does
    // not. Only the Compiled Code view said so: the CPU backend's inspection (what the editor shows as
    // you type) now carries the GPU compiler's errors, on their lines.
    void theCpuInspectionSaysWhatAGpuWouldRefuse_data() {
        QTest::addColumn<QString>("code");
        QTest::addColumn<int>("line");
        QTest::newRow("throw") << "__global__ void k(float* x) {\n    if (x[0] < 0) throw 1;\n}\n" << 2;
        QTest::newRow("host function")
            << "#include <cstdlib>\n__global__ void k(float* x) {\n    x[0] = float(std::rand());\n}\n"
            << 3;
    }
    void theCpuInspectionSaysWhatAGpuWouldRefuse() {
        QFETCH(QString, code);
        QFETCH(int, line);
        const auto inspection =
            kp::run::inspect(inlinePlayground(code.toStdString(), "k"), kp::run::Backend::cpu());
        const auto gpu =
            std::find_if(inspection.diagnostics.begin(), inspection.diagnostics.end(), [](const auto& d) {
                return d.severity == kp::model::Diagnostic::Severity::Error &&
                       d.message.starts_with("a GPU would not compile this: ");
            });
        QVERIFY2(gpu != inspection.diagnostics.end(),
                 qPrintable(QString::number(inspection.diagnostics.size())));
        QCOMPARE(gpu->line, line);
        // A kernel a GPU compiles has no such error.
        const auto fine = kp::run::inspect(
            inlinePlayground("__global__ void k(float* x) { x[0] = 1; }\n", "k"), kp::run::Backend::cpu());
        QVERIFY(std::none_of(fine.diagnostics.begin(), fine.diagnostics.end(), [](const auto& d) {
            return d.severity == kp::model::Diagnostic::Severity::Error;
        }));
    }

    // The CPU backend's inspection asks NVRTC at every check; a kernel it compiled is kept, so that a
    // text checked before (an undo) costs no compile. What it refuses is asked again.
    void theGpuCheckKeepsWhatItCompiled() {
        QTemporaryDir folder;
        kp::cuda::CompileCache cache(folder.path().toStdString());
        const auto fine =
            kp::launch::prepareKernel(inlinePlayground("__global__ void k(float* x) { x[0] = 2; }\n", "k"));
        QVERIFY(kp::run::gpuCompilerErrors(fine, &cache).empty());
        const std::size_t kept = cache.memoryBytes();
        QVERIFY(kept > 0);
        QVERIFY(kp::run::gpuCompilerErrors(fine, &cache).empty());
        QCOMPARE(cache.memoryBytes(), kept); // found, not stored again
        const auto refused = kp::launch::prepareKernel(
            inlinePlayground("__global__ void k(float* x) {\n    throw 1;\n}\n", "k"));
        const auto errors = kp::run::gpuCompilerErrors(refused, &cache);
        QVERIFY(!errors.empty());
        QCOMPARE(errors.front().line, 2);
        QCOMPARE(cache.memoryBytes(), kept);
        QVERIFY(kp::run::gpuCompilerErrors(fine, nullptr).empty()); // no cache: compiled, still fine
    }

    void aSourceThatDoesNotCompileGivesItsDiagnostics() {
        try {
            compileCode(
                inlinePlayground("__global__ void k(float* x) {\n    x[0] = undefined_name;\n}\n", "k"),
                "sm_90", true, nullptr);
            QFAIL("no CompileError");
        } catch (const kp::launch::CompileError& e) {
            QVERIFY(!e.diagnostics().empty());
            QCOMPARE(e.diagnostics().front().line, 2);
        }
    }

    void withoutNvdisasmTheResultSaysWhereItLooked() {
        {
            const ScopedEnvironment none("KERNELPAD_NVDISASM", "/nowhere/nvdisasm");
            const auto code = compileCode(playground(), "sm_90", true, nullptr);
            QVERIFY(code.sass.empty());
            QVERIFY2(code.sassUnavailable.find("SASS needs nvdisasm") != std::string::npos,
                     code.sassUnavailable.c_str());
            QVERIFY(code.sassUnavailable.find("KERNELPAD_NVDISASM names /nowhere/nvdisasm") !=
                    std::string::npos);
            QVERIFY(code.ptx.hasSourceLines() && !code.kernels.empty()); // the rest is all there
        }
        if (kp::cuda::Disassembler::find()) return; // this toolkit has one: sassFromTheToolkitsNvdisasm
        const auto code = compileCode(playground(), "sm_90", true, nullptr);
        QVERIFY(code.sass.empty());
        QVERIFY2(code.sassUnavailable.find("which this CUDA toolkit does not have (looked in ") !=
                     std::string::npos,
                 code.sassUnavailable.c_str());
        QVERIFY(code.sassUnavailable.find("/usr/local/cuda/bin") != std::string::npos);
    }

    // Where the toolkit has nvdisasm (the GPU machine), its SASS, tied to the source; where it has none,
    // the reason instead.
    void sassFromTheToolkitsNvdisasm() {
        const auto code = compileCode(playground(), "sm_90", true, nullptr);
        if (!kp::cuda::Disassembler::find()) {
            QVERIFY(code.sass.empty());
            QVERIFY(!code.sassUnavailable.empty());
            return;
        }
        QVERIFY2(code.sassUnavailable.empty(), code.sassUnavailable.c_str());
        QCOMPARE(code.sass.functions().size(), code.ptx.functions().size());
        for (const auto& k : code.kernels)
            QVERIFY2(code.sass.function(k.name) && code.sass.function(k.name)->kernel, k.name.c_str());
        QVERIFY(code.sass.hasSourceLines());
        QVERIFY(anyContains(code.sass, code.sass.linesFrom(lineOf(source_, "__syncthreads")), "BAR.SYNC"));
        QVERIFY(anyContains(code.sass, code.sass.linesFrom(lineOf(source_, "y[i] = a * square")), "STG.E"));
        const int sourceLines = static_cast<int>(std::count(source_.begin(), source_.end(), '\n'));
        for (const auto& line : code.sass.lines()) {
            QVERIFY2(line.sourceLine <= sourceLines, line.text.c_str());
            if (line.sourceLine > 0) QVERIFY2(line.address >= 0, line.text.c_str());
        }
        const auto plain = compileCode(playground(), "sm_90", false, nullptr);
        QVERIFY(!plain.sass.empty() && !plain.sass.hasSourceLines());
    }

    void sassThroughNvdisasmsOutput() {
        const ScopedEnvironment fake("KERNELPAD_NVDISASM",
                                     fakeNvdisasm("nvdisasm", kData + "nvdisasm-gi-sm90.txt"));
        const auto code = compileCode(playground(), "sm_90", true, nullptr);
        QVERIFY2(code.sassUnavailable.empty(), code.sassUnavailable.c_str());
        QVERIFY(code.disassembleMs > 0);
        const auto barrier = code.sass.linesFrom(lineOf(source_, "__syncthreads"));
        QCOMPARE(barrier.size(), std::size_t{1});
        QCOMPARE(code.sass.lines()[barrier[0]].address, std::int64_t{0xe0});
        QVERIFY(code.sass.function("_Z9scale_addPKfPffi"));
        QCOMPARE(CompiledCode::fromJson(code.toJson()), code);
    }

    // nvdisasm runs once for a CUBIN: a refresh or a compile-cache hit is given the text kept.
    void theSameCubinIsDisassembledOnce() {
        const auto counter = dir_.filePath(QStringLiteral("runs")).toStdString();
        const auto path = dir_.filePath(QStringLiteral("counting-nvdisasm")).toStdString();
        kp::test::writeText(path,
                            "#!/bin/sh\necho run >> '" + counter + "'\necho \"$(wc -c < \"$3\") bytes\"\n");
        std::filesystem::permissions(path, std::filesystem::perms::owner_all);
        const kp::cuda::Disassembler nvdisasm(path);
        const auto runs = [&] {
            std::ifstream in(counter);
            return std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
        };
        const std::vector<std::byte> first(100, std::byte{1}), second(200, std::byte{2});
        QCOMPARE(nvdisasm.disassemble(first), std::string("100 bytes\n"));
        QCOMPARE(nvdisasm.disassemble(first), std::string("100 bytes\n"));
        QCOMPARE(runs(), 1);
        QCOMPARE(nvdisasm.disassemble(second), std::string("200 bytes\n"));
        QCOMPARE(runs(), 2);
    }

    void aFailingNvdisasmLeavesThePtx() {
        const ScopedEnvironment fake(
            "KERNELPAD_NVDISASM",
            fakeNvdisasm("broken-nvdisasm", {}, "nvdisasm fatal : Object file appears truncated"));
        const auto code = compileCode(playground(), "sm_90", true, nullptr);
        QVERIFY(code.sass.empty());
        QVERIFY2(code.sassUnavailable.find("failed (exit status 1) disassembling the CUBIN: nvdisasm fatal : "
                                           "Object file appears truncated") != std::string::npos,
                 code.sassUnavailable.c_str());
        QVERIFY(code.ptx.hasSourceLines());
    }

    // A compile found in the cache keeps ptxas's report: the registers are there the second time too.
    void aCachedCompileKeepsItsResources() {
        kp::cuda::CompileCache cache(dir_.filePath(QStringLiteral("cache")).toStdString());
        const auto first = compileCode(playground(), "sm_90", true, &cache);
        const auto second = compileCode(playground(), "sm_90", true, &cache);
        QVERIFY(!first.fromCache);
        QVERIFY(second.fromCache);
        QCOMPARE(second.kernels, first.kernels);
        QCOMPARE(second.ptx, first.ptx);
    }

    void roundTripsThroughJson() {
        const auto code = compileCode(playground(), "sm_90", true, nullptr);
        QCOMPARE(CompiledCode::fromJson(code.toJson()), code);
        auto broken = code.toJson();
        broken.erase("kernels");
        QVERIFY(
            kp::test::inputErrorOf([&] { CompiledCode::fromJson(broken); }).starts_with("compiled code: "));
        broken = code.toJson();
        broken["ptx"]["lines"][0] = 42;
        QVERIFY(!kp::test::inputErrorOf([&] { CompiledCode::fromJson(broken); }).empty());
    }
};

QTEST_GUILESS_MAIN(TestCompiledCode)
#include "tst_compiledcode.moc"
