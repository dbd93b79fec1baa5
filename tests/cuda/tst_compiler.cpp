// Compiler against the real NVRTC (no GPU needed): code comes out, errors come back as diagnostics with
// their place, and every option reaches NVRTC. Runs without a compile cache, so nothing here is a hit.
#include "core/cuda/Compiler.h"
#include "core/cuda/Nvrtc.h"
#include "core/cuda/Toolkit.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fstream>

using kp::cuda::CompileOptions;
using kp::cuda::Compiler;
using kp::cuda::CompileResult;

namespace {

constexpr const char* kAddOne = "extern \"C\" __global__ void add_one(float* x, int n) {\n"
                                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "    if (i < n) x[i] += 1.0f;\n"
                                "}\n";

std::string errorsOf(const CompileResult& result) {
    std::string text;
    for (const auto& d : result.diagnostics)
        text += kp::model::toString(d) + "\n";
    return text;
}

void writeFile(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

} // namespace

class TestCompiler : public QObject {
    Q_OBJECT

    Compiler compiler_{nullptr};

    CompileResult compile(const std::string& source, CompileOptions options = {},
                          const std::string& name = "k.cu") {
        if (options.arch.empty()) options.arch = "compute_75";
        return compiler_.compile(source, name, options);
    }

private slots:
    void initTestCase() {
        if (!kp::cuda::Nvrtc::available()) QSKIP(kp::cuda::Nvrtc::unavailableReason().c_str());
    }

    void compilesKernelToPtxWithItsEntry() {
        const auto result = compile(kAddOne);
        QVERIFY2(result.ok, errorsOf(result).c_str());
        QVERIFY(result.diagnostics.empty());
        QVERIFY(result.ptx.find(".entry add_one(") != std::string::npos);
        QVERIFY(result.ptx.find(".target sm_75") != std::string::npos);
        QVERIFY(result.cubin.empty());
        QCOMPARE(result.arch, std::string("compute_75"));
        QVERIFY(result.milliseconds > 0);
        QCOMPARE(result.fromCache, CompileResult::CacheHit::None);
    }

    void assertWorksInKernels() {
        // NVRTC has no host headers: Kernelpad's <cassert> and <assert.h> stand in, and NDEBUG turns them
        // off.
        const auto result =
            compile("#include <cassert>\n__global__ void k(const float* x) { assert(x[0] > 5.0f); }\n");
        QVERIFY2(result.ok, errorsOf(result).c_str());
        QVERIFY(result.ptx.find("__assertfail") != std::string::npos);
        const auto off = compile("#define NDEBUG\n#include <assert.h>\n__global__ void k(const float* x) { "
                                 "assert(x[0] > 5.0f); }\n");
        QVERIFY2(off.ok, errorsOf(off).c_str());
        QVERIFY(off.ptx.find("__assertfail") == std::string::npos);
    }

    void realArchitectureAlsoGivesCubin() {
        CompileOptions options;
        options.arch = "sm_90";
        const auto result = compile(kAddOne, options);
        QVERIFY2(result.ok, errorsOf(result).c_str());
        QVERIFY(result.ptx.find(".entry add_one(") != std::string::npos);
        QVERIFY(result.cubin.size() > 4);
        QCOMPARE(static_cast<char>(result.cubin[1]), 'E'); // an ELF image
        QCOMPARE(static_cast<char>(result.cubin[2]), 'L');
    }

    void defaultArchIsOneNvrtcSupports() {
        const auto arch = Compiler::defaultArch();
        const auto underscore = arch.find('_');
        QVERIFY2(underscore != std::string::npos, arch.c_str());
        const int number = std::stoi(arch.substr(underscore + 1));
        const auto& supported = Compiler::supportedArchs();
        QVERIFY(std::find(supported.begin(), supported.end(), number) != supported.end());
        QVERIFY(std::is_sorted(supported.begin(), supported.end()));
        const auto result = compiler_.compile(kAddOne, "k.cu");
        QVERIFY2(result.ok, errorsOf(result).c_str());
        QCOMPARE(result.arch, arch);
    }

    void architectureInRawOptionsWins() {
        CompileOptions options;
        options.extraOptions = {"-arch=sm_80"};
        const auto result = compiler_.compile(kAddOne, "k.cu", options);
        QVERIFY2(result.ok, errorsOf(result).c_str());
        QCOMPARE(result.arch, std::string("sm_80"));
        QVERIFY(!result.cubin.empty());
        QVERIFY2(result.diagnostics.empty(), errorsOf(result).c_str()); // no "followed by" warning
    }

    // Columns counted by hand in each source: 1-based, in bytes, a tab counting one; where NVRTC puts its
    // caret, which for an assignment is the '=' and for a missing header just past the line's end.
    void reportsErrorLineAndColumn_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("undefined identifier")
            << "__global__ void k(float* p) {\n    p[0] = missing + 1.0f;\n}\n"
            << 2 << 12 << "\"missing\" is undefined";
        QTest::newRow("tab-indented") << "__global__ void k(float* p) {\n\t\tp[0] = nope;\n}\n"
                                      << 2 << 10 << "\"nope\" is undefined";
        QTest::newRow("first column") << "__global__ void k() {\nbogus();\n}\n"
                                      << 2 << 1 << "\"bogus\" is undefined";
        QTest::newRow("bad conversion") << "__global__ void k(int* p) { p[0] = \"s\"; }\n"
                                        << 1 << 34 << "cannot be assigned"; // at the '='

        QTest::newRow("missing include") << "#include \"no_such_header.cuh\"\n"
                                         << 1 << 30 << "cannot open source file"; // past the end
    }

    void reportsErrorLineAndColumn() {
        QFETCH(QString, source);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const auto result = compile(source.toStdString());
        QVERIFY(!result.ok);
        QVERIFY(result.ptx.empty());
        QVERIFY(!result.diagnostics.empty());
        const auto& first = result.diagnostics.front();
        QCOMPARE(first.file, std::string("k.cu"));
        QCOMPARE(kp::model::toString(first.severity), "error");
        QCOMPARE(first.line, line);
        QCOMPARE(first.column, column);
        QVERIFY2(QString::fromStdString(first.message).contains(message), first.message.c_str());
    }

    void keepsWarningsOfASuccessfulCompile() {
        const auto result = compile("__global__ void k() {\n    int unused = 3;\n}\n");
        QVERIFY(result.ok);
        QCOMPARE(result.diagnostics.size(), std::size_t{1});
        const auto& warning = result.diagnostics.front();
        QCOMPARE(kp::model::toString(warning.severity), "warning");
        QCOMPARE(warning.line, 2);
        QCOMPARE(warning.column, 9);
        QCOMPARE(warning.message, std::string("variable \"unused\" was declared but never referenced"));
        QVERIFY(result.log.find("#177-D") != std::string::npos);
    }

    void definesTakeEffect_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("compiles");
        QTest::newRow("right value") << "WIDTH"
                                     << "7" << true;
        QTest::newRow("wrong value") << "WIDTH"
                                     << "8" << false;
        QTest::newRow("missing") << "OTHER"
                                 << "7" << false;
        QTest::newRow("defined without value") << "FLAG_ONLY"
                                               << "" << true;
    }

    void definesTakeEffect() {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(bool, compiles);
        CompileOptions options;
        options.defines[name.toStdString()] = value.toStdString();
        const auto result =
            compile("#if !defined(FLAG_ONLY) && (!defined(WIDTH) || WIDTH != 7)\n#error WIDTH\n#endif\n"
                    "__global__ void k() {}\n",
                    options);
        QCOMPARE(result.ok, compiles);
    }

    void includeDirsTakeEffect() {
        QTemporaryDir dir;
        writeFile(dir.filePath("kp_twice.cuh"), "__device__ inline float twice(float v) { return 2 * v; }\n");
        const std::string source =
            "#include <kp_twice.cuh>\n__global__ void k(float* p) { p[0] = twice(p[0]); }\n";
        QVERIFY(!compile(source).ok);
        CompileOptions options;
        options.includeDirs = {dir.path().toStdString()};
        QVERIFY(compile(source, options).ok);
        options.includeDirs.clear();
        options.extraOptions = {"-I" + dir.path().toStdString()};
        QVERIFY(compile(source, options).ok);
    }

    void findsQuotedIncludeBesideTheSource() {
        QTemporaryDir dir;
        writeFile(dir.filePath("beside.cuh"), "#define BESIDE 1\n");
        const auto result = compile("#include \"beside.cuh\"\n__global__ void k(int* p) { p[0] = BESIDE; }\n",
                                    {}, dir.filePath("k.cu").toStdString());
        QVERIFY2(result.ok, errorsOf(result).c_str());
    }

    // What CUDA code includes from the toolkit rather than from NVRTC: cooperative groups, and CUDA 13's
    // libcu++ under include/cccl. NVRTC gets the toolkit's include folders after the user's.
    void toolkitHeadersAreFound() {
        const auto& toolkit = kp::cuda::toolkitHeaders();
        if (!toolkit.found()) QSKIP(toolkit.unavailableReason().c_str());
        const std::string source =
            "#include <cooperative_groups.h>\n"
            "#include <cooperative_groups/reduce.h>\n"
            "#include <cuda/std/limits>\n"
            "namespace cg = cooperative_groups;\n"
            "__global__ void k(int* p) {\n"
            "    cg::thread_block block = cg::this_thread_block();\n"
            "    auto warp = cg::tiled_partition<32>(block);\n"
            "    int v = cg::reduce(warp, p[block.thread_rank()], cg::plus<int>());\n"
            "    if (warp.thread_rank() == 0) p[0] = v + cuda::std::numeric_limits<int>::max();\n"
            "}\n";
        const auto result = compile(source);
        QVERIFY2(result.ok, errorsOf(result).c_str());
    }

    // The host headers pasted CUDA includes as nvcc allows (printf's <stdio.h>, <math.h>, the fixed-width
    // types, limits), which NVRTC alone does not have; with the toolkit's, a Visual Studio template's
    // includes compile too.
    void hostHeadersOfPastedCodeCompile() {
        const std::string source =
            "#include <stdio.h>\n#include <stdint.h>\n#include <cstdint>\n"
            "#include <climits>\n#include <cfloat>\n#include <math.h>\n#include <cstdlib>\n"
            "__global__ void k(int64_t* p, std::uint32_t* q, float* f) {\n"
            "    p[0] = INT64_MAX; q[0] = UINT_MAX; f[0] = FLT_MAX + sqrtf(f[1]);\n"
            "    if (threadIdx.x == 0) printf(\"%ld\\n\", (long)p[0]);\n"
            "}\n";
        const auto result = compile(source);
        QVERIFY2(result.ok, errorsOf(result).c_str());
        if (!kp::cuda::toolkitHeaders().found()) return;
        const auto template_ =
            compile("#include \"cuda_runtime.h\"\n#include \"device_launch_parameters.h\"\n"
                    "#include <stdio.h>\n"
                    "__global__ void addKernel(int* c, const int* a, const int* b) {\n"
                    "    int i = threadIdx.x;\n    c[i] = a[i] + b[i];\n}\n");
        QVERIFY2(template_.ok, errorsOf(template_).c_str());
    }

    // KERNELPAD_CUDA_INCLUDE replaces the search; CUDA_HOME is tried first; a miss names every place.
    void toolkitHeaderSearchSaysWhereItLooked() {
        QTemporaryDir dir;
        const QByteArray savedInclude = qgetenv("KERNELPAD_CUDA_INCLUDE");
        const QByteArray savedHome = qgetenv("CUDA_HOME");
        qputenv("KERNELPAD_CUDA_INCLUDE", (dir.path() + "/nowhere").toUtf8());
        auto missing = kp::cuda::findToolkitHeaders();
        QVERIFY(!missing.found());
        const std::string reason = missing.unavailableReason();
        QVERIFY2(reason.find((dir.path() + "/nowhere").toStdString()) != std::string::npos, reason.c_str());
        QVERIFY2(reason.find("CUDA_HOME") != std::string::npos, reason.c_str());

        qunsetenv("KERNELPAD_CUDA_INCLUDE");
        QVERIFY(QDir(dir.path()).mkpath("toolkit/include/cccl"));
        writeFile(dir.filePath("toolkit/include/cooperative_groups.h"), "\n");
        qputenv("CUDA_HOME", dir.filePath("toolkit").toUtf8());
        const auto found = kp::cuda::findToolkitHeaders();
        QCOMPARE(found.folders.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(found.folders[0].string()), dir.filePath("toolkit/include"));
        QCOMPARE(QString::fromStdString(found.folders[1].string()), dir.filePath("toolkit/include/cccl"));
        QCOMPARE(QString::fromStdString(kp::cuda::toolkitRoots().front().string()), dir.filePath("toolkit"));

        if (savedInclude.isNull())
            qunsetenv("KERNELPAD_CUDA_INCLUDE");
        else
            qputenv("KERNELPAD_CUDA_INCLUDE", savedInclude);
        if (savedHome.isNull())
            qunsetenv("CUDA_HOME");
        else
            qputenv("CUDA_HOME", savedHome);
    }

    void namesTemplateKernelsByTheirMangledNames() {
        CompileOptions options;
        options.nameExpressions = {"scale<float>", "scale<double>", "ns::plain"};
        const auto result =
            compile("template <typename T> __global__ void scale(T* p, T by) { p[0] *= by; }\n"
                    "namespace ns { __global__ void plain() {} }\n",
                    options);
        QVERIFY2(result.ok, errorsOf(result).c_str());
        QCOMPARE(result.loweredNames.size(), std::size_t{3});
        for (const auto& [expression, lowered] : result.loweredNames) {
            QVERIFY2(lowered.starts_with("_Z"), lowered.c_str());
            QVERIFY2(result.ptx.find(".entry " + lowered + "(") != std::string::npos, lowered.c_str());
        }
        QVERIFY(result.loweredNames.at("scale<float>") != result.loweredNames.at("scale<double>"));
    }

    void lineInfoAndFastMathChangeThePtx() {
        const std::string source = "extern \"C\" __global__ void k(float* p) { p[0] = p[0] / p[1]; }\n";
        const auto plain = compile(source);
        CompileOptions options;
        options.lineInfo = true;
        const auto withLines = compile(source, options);
        QVERIFY(plain.ptx.find(".loc") == std::string::npos);
        QVERIFY(withLines.ptx.find(".loc") != std::string::npos);
        options = {};
        options.fastMath = true;
        const auto fast = compile(source, options);
        QVERIFY(plain.ptx.find("div.rn.f32") != std::string::npos);
        QVERIFY(fast.ptx.find("div.approx") != std::string::npos ||
                fast.ptx.find("div.full") != std::string::npos);
    }

    void standardOptionReachesNvrtc() {
        const std::string source = "#if __cplusplus < 202002L\n#error old\n#endif\n__global__ void k() {}\n";
        QVERIFY(!compile(source).ok);
        CompileOptions options;
        options.standard = "c++20";
        QVERIFY(compile(source, options).ok);
        options.standard = "c++17";
        options.extraOptions = {"-std=c++20"};
        QVERIFY(compile(source, options).ok);
    }

    void rejectsUnknownOptionNamingIt() {
        CompileOptions options;
        options.extraOptions = {"--no-such-option"};
        try {
            compile(kAddOne, options);
            QFAIL("no exception");
        } catch (const kp::InputError& e) {
            QVERIFY2(std::string(e.what()).find("unrecognized option --no-such-option") != std::string::npos,
                     e.what());
        }
    }

    void rejectsUnknownArchitecture() {
        CompileOptions options;
        options.arch = "sm_1";
        QVERIFY_THROWS_EXCEPTION(kp::InputError, compile(kAddOne, options));
    }

    // The include scan reads tokens: an #include in a comment or a raw string is none, and one continued
    // over two lines is one. The scan used to read lines, following the first two and missing the third
    // (which NVRTC would then read without end).
    void followsOnlyTheIncludesNvrtcSees_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("refusedAtLine"); // 0: compiles
        const QString kernel = "extern \"C\" __global__ void k(int* p) { p[0] = 1; }\n";
        QTest::newRow("in a block comment") << "/*\n#include </dev/zero>\n*/\n" + kernel << 0;
        QTest::newRow("in a raw string")
            << "__device__ const char* s = R\"(\n#include </dev/zero>\n)\";\n" + kernel << 0;
        QTest::newRow("a real one") << "// first\n#include </dev/zero>\n" + kernel << 2;
        QTest::newRow("continued") << "#include \\\n</dev/zero>\n" + kernel << 1;
        QTest::newRow("after a comment") << "/* c */ # /* d */ include \"/dev/zero\"\n" + kernel << 1;
    }
    void followsOnlyTheIncludesNvrtcSees() {
        QFETCH(QString, source);
        QFETCH(int, refusedAtLine);
        const auto result = compile(source.toStdString());
        if (refusedAtLine == 0) {
            QVERIFY2(result.ok, errorsOf(result).c_str());
            return;
        }
        QVERIFY(!result.ok);
        QCOMPARE(result.diagnostics.size(), std::size_t{1});
        QVERIFY2(result.diagnostics[0].message.find("not a regular file") != std::string::npos,
                 errorsOf(result).c_str());
        QCOMPARE(result.diagnostics[0].line, refusedAtLine);
        QCOMPARE(result.diagnostics[0].column, 1);
    }
};

QTEST_APPLESS_MAIN(TestCompiler)
#include "tst_compiler.moc"
