// CodeListing reads PTX (from the real NVRTC, compiled here with and without -lineinfo) and nvdisasm's
// SASS into lines tied to their source lines, and finds each function's lines. The SASS is nvdisasm's
// real output (data/nvdisasm-gi-sm90.txt: `nvdisasm -c -gi` of data/nvdisasm-source.cu compiled by NVRTC
// as "kernel.cu" for sm_90 with -lineinfo, on the GPU machine), so the parser is tested on machines
// without nvdisasm too.
#include "../TestSupport.h"
#include "core/Error.h"
#include "core/cuda/CodeListing.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/Nvrtc.h"

#include <QtTest>
#include <algorithm>

using kp::cuda::CodeListing;

namespace {

const std::string kData = KP_SOURCE_DIR "/tests/cuda/data/";

std::string sourceText() {
    return kp::test::readText(kData + "nvdisasm-source.cu");
}

// The 1-based number of the source line that contains `text`.
int lineOf(const std::string& source, const std::string& text) {
    const auto at = source.find(text);
    if (at == std::string::npos) return 0;
    return 1 + static_cast<int>(
                   std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::string ptxOf(const std::string& source, bool lineInfo, const std::string& name = "kernel.cu",
                  std::vector<std::string> extra = {}) {
    kp::cuda::CompileOptions options;
    options.arch = "sm_90";
    options.lineInfo = lineInfo;
    options.extraOptions = std::move(extra);
    const auto result = kp::cuda::Compiler(nullptr).compile(source, name, options);
    if (!result.ok) throw std::runtime_error("the test kernel did not compile:\n" + result.log);
    return result.ptx;
}

// The texts of the lines at `indexes`, trimmed, one a line.
QStringList textsAt(const CodeListing& listing, const std::vector<std::size_t>& indexes) {
    QStringList texts;
    for (const auto i : indexes)
        texts << QString::fromStdString(listing.lines()[i].text).trimmed();
    return texts;
}

// An instruction or directive: not a label, a brace, a comment or a blank line.
bool isCodeLine(const std::string& line) {
    const auto text = QString::fromStdString(line).trimmed();
    const QStringList notCode{QStringLiteral("//"), QStringLiteral("{"), QStringLiteral("}"),
                              QStringLiteral("$L__")};
    return !text.isEmpty() &&
           std::none_of(notCode.begin(), notCode.end(), [&](const QString& p) { return text.startsWith(p); });
}

bool anyStartsWith(const QStringList& texts, const QString& prefix) {
    return std::any_of(texts.begin(), texts.end(), [&](const QString& t) { return t.startsWith(prefix); });
}

} // namespace

class TestCodeListing : public QObject {
    Q_OBJECT

private slots:
    void ptxLinesMapToTheirSourceLinesWithLineInfo() {
        if (!kp::cuda::Nvrtc::available()) QSKIP(kp::cuda::Nvrtc::unavailableReason().c_str());
        const auto source = sourceText();
        const auto listing = CodeListing::fromPtx(ptxOf(source, true), "kernel.cu");
        QVERIFY(listing.hasSourceLines());
        // The shared-memory store, the barrier and the sum's loads come from their own lines.
        const auto barrier = textsAt(listing, listing.linesFrom(lineOf(source, "__syncthreads")));
        QVERIFY2(anyStartsWith(barrier, "bar.sync"), qPrintable(barrier.join(QStringLiteral(" / "))));
        const auto store = textsAt(listing, listing.linesFrom(lineOf(source, "tile[threadIdx.x] = x[")));
        const auto sum = textsAt(listing, listing.linesFrom(lineOf(source, "s += tile[k]")));
        const auto out = textsAt(listing, listing.linesFrom(lineOf(source, "out[blockIdx.x] = s")));
        QVERIFY(anyStartsWith(store, "st.shared.f32"));
        QVERIFY(anyStartsWith(sum, "ld.shared"));
        QVERIFY(anyStartsWith(out, "st.global.f32"));
        const int sourceLines = static_cast<int>(std::count(source.begin(), source.end(), '\n'));
        for (std::size_t i = 0; i < listing.lines().size(); ++i) {
            const auto& line = listing.lines()[i];
            QVERIFY(line.sourceLine >= 0 && line.sourceLine <= sourceLines);
            QCOMPARE(line.address, std::int64_t{-1});
            if (line.sourceLine == 0) continue;
            // Only code inside a function has a source line: no label, brace, comment or blank line.
            QVERIFY2(listing.functionAt(i), line.text.c_str());
            QVERIFY2(isCodeLine(line.text), line.text.c_str());
        }
    }

    void ptxFunctionsSpanTheirEntries() {
        if (!kp::cuda::Nvrtc::available()) QSKIP(kp::cuda::Nvrtc::unavailableReason().c_str());
        const auto listing = CodeListing::fromPtx(ptxOf(sourceText(), true), "kernel.cu");
        QCOMPARE(listing.functions().size(), std::size_t{2});
        for (const char* name : {"_Z9scale_addPKfPffi", "_Z8tile_sumPKfPf"}) {
            const auto* f = listing.function(name);
            QVERIFY2(f, name);
            QVERIFY(f->kernel);
            QVERIFY(f->first < f->end && f->end <= listing.lines().size());
            QVERIFY2(listing.lines()[f->first].text.find(std::string(".entry ") + name + "(") !=
                         std::string::npos,
                     listing.lines()[f->first].text.c_str());
            QCOMPARE(QString::fromStdString(listing.lines()[f->end - 1].text).trimmed(), QStringLiteral("}"));
        }
        // The PTX header (.version, .target) and the .file table are outside every function.
        QVERIFY(!listing.functionAt(0));
        QVERIFY(!listing.functionAt(listing.lines().size() - 1));
    }

    void ptxWithoutLineInfoHasNoSourceLines() {
        if (!kp::cuda::Nvrtc::available()) QSKIP(kp::cuda::Nvrtc::unavailableReason().c_str());
        const auto listing = CodeListing::fromPtx(ptxOf(sourceText(), false), "kernel.cu");
        QVERIFY(!listing.hasSourceLines());
        QVERIFY(listing.linesFrom(14).empty());
        QCOMPARE(listing.functions().size(), std::size_t{2}); // the functions are still found
    }

    void deviceFunctionsAreNotKernelsAndDeclarationsAreNoFunctions() {
        if (!kp::cuda::Nvrtc::available()) QSKIP(kp::cuda::Nvrtc::unavailableReason().c_str());
        // printf declares vprintf (.extern .func, no body); the __noinline__ helper is a .func with a body.
        const std::string source = "__device__ __noinline__ float helper(float v) { return v * 3.0f; }\n"
                                   "__global__ void k(float* x) {\n"
                                   "    x[threadIdx.x] = helper(x[threadIdx.x]);\n"
                                   "    printf(\"%f\\n\", x[0]);\n"
                                   "}\n";
        const auto listing = CodeListing::fromPtx(ptxOf(source, true), "kernel.cu");
        QCOMPARE(listing.functions().size(), std::size_t{2});
        QVERIFY(listing.function("_Z6helperf") && !listing.function("_Z6helperf")->kernel);
        QVERIFY(listing.function("_Z1kPf") && listing.function("_Z1kPf")->kernel);
        QVERIFY(!listing.function("vprintf"));
        QVERIFY(!listing.linesFrom(1).empty()); // the helper's body
    }

    void headerLinesAreNotTakenForTheSourcesLines() {
        if (!kp::cuda::Nvrtc::available()) QSKIP(kp::cuda::Nvrtc::unavailableReason().c_str());
        QTemporaryDir dir;
        // The header's code sits on its line 12; the source has 4 lines.
        kp::test::writeText(dir.filePath("helper.cuh").toStdString(),
                            std::string(11, '\n') +
                                "__device__ __noinline__ float twice(float v) { return v * 2.0f; }\n");
        const std::string source = "#include \"helper.cuh\"\n__global__ void k(float* x) {\n"
                                   "    x[threadIdx.x] = twice(x[threadIdx.x]);\n}\n";
        const auto listing = CodeListing::fromPtx(
            ptxOf(source, true, "kernel.cu", {"-I" + dir.path().toStdString()}), "kernel.cu");
        QVERIFY(!listing.linesFrom(3).empty());
        QVERIFY(listing.linesFrom(12).empty());
        for (const auto& line : listing.lines())
            QVERIFY2(line.sourceLine <= 4, line.text.c_str());
    }

    void ptxLocationsFollowTheFileTableAndInlining_data() {
        QTest::addColumn<QString>("loc");
        QTest::addColumn<int>("expected");
        QTest::newRow("in the source") << ".loc\t1 7 5" << 7;
        QTest::newRow("in a header") << ".loc\t2 40 3" << 0;
        QTest::newRow("header inlined into the source")
            << ".loc\t2 40 3, function_name $L__info_string0, inlined_at 1 9 12" << 9;
        QTest::newRow("source inlined into the source")
            << ".loc\t1 3 1, function_name $L__info_string1, inlined_at 1 9 12" << 3;
        QTest::newRow("no line") << ".loc\t1 0 0" << 0;
    }
    void ptxLocationsFollowTheFileTableAndInlining() {
        QFETCH(QString, loc);
        QFETCH(int, expected);
        const std::string ptx =
            ".version 9.0\n.target sm_90\n\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n\t" +
            loc.toStdString() +
            "\n\tret;\n\n}\n\t.file\t1 \"/work/folder/kernel.cu\", 1700000000, 321\n"
            "\t.file\t2 \"/usr/local/cuda/include/cuda_fp16.hpp\"\n";
        const auto listing = CodeListing::fromPtx(ptx, "kernel.cu");
        QCOMPARE(listing.lines().size(), std::size_t{13});
        QCOMPARE(listing.lines()[7].sourceLine, expected); // the .loc line itself
        QCOMPARE(listing.lines()[8].sourceLine, expected); // ret
        QCOMPARE(listing.lines()[9].sourceLine, 0);        // blank
        QCOMPARE(listing.functions().size(), std::size_t{1});
        QCOMPARE(listing.functions()[0].first, std::size_t{3});
        QCOMPARE(listing.functions()[0].end, std::size_t{11});
        // Another name: no location is the source's.
        QVERIFY(!CodeListing::fromPtx(ptx, "other.cu").hasSourceLines());
    }

    void sassFromNvdisasmMapsInstructionsToSourceLines() {
        const auto source = sourceText();
        const auto listing =
            CodeListing::fromSass(kp::test::readText(kData + "nvdisasm-gi-sm90.txt"), "kernel.cu");
        QCOMPARE(listing.functions().size(), std::size_t{2});
        const auto* sum = listing.function("_Z8tile_sumPKfPf");
        const auto* scale = listing.function("_Z9scale_addPKfPffi");
        QVERIFY(sum && scale && sum->kernel && scale->kernel);
        QCOMPARE(listing.lines()[sum->first].text, std::string("_Z8tile_sumPKfPf:"));
        QCOMPARE(listing.lines()[scale->first].text, std::string("_Z9scale_addPKfPffi:"));
        QVERIFY(sum->end <= scale->first); // a blank line between them
        // Exactly the barrier comes from __syncthreads()'s line.
        QCOMPARE(textsAt(listing, listing.linesFrom(lineOf(source, "__syncthreads"))),
                 QStringList{QStringLiteral("/*00e0*/        BAR.SYNC.DEFER_BLOCKING 0x0 ;")});
        // The multiply of square(), inlined into line 8, is square's line; the fused add is line 8's.
        const int squareLine = lineOf(source, "return v * v");
        const int storeLine = lineOf(source, "y[i] = a * square");
        QVERIFY(anyStartsWith(textsAt(listing, listing.linesFrom(squareLine)),
                              "/*0100*/        FMUL R0, R2, R2 ;"));
        QVERIFY(anyStartsWith(textsAt(listing, listing.linesFrom(storeLine)), "/*0110*/        FFMA"));
        QVERIFY(anyStartsWith(textsAt(listing, listing.linesFrom(storeLine)), "/*0120*/        STG.E"));
        // A predicate gets a column of its own.
        const auto exit = std::find_if(listing.lines().begin(), listing.lines().end(),
                                       [](const auto& l) { return l.address == 0xf0; });
        QCOMPARE(exit->text, std::string("/*00f0*/  @P0   EXIT ;"));
        // Instructions carry their address, in order within each function; labels and headers carry none.
        for (const auto* f : {sum, scale}) {
            std::int64_t next = 0;
            for (std::size_t i = f->first + 1; i < f->end; ++i) {
                const auto& line = listing.lines()[i];
                if (line.text.starts_with(".L_x_")) {
                    QCOMPARE(line.address, std::int64_t{-1});
                    QCOMPARE(line.sourceLine, 0);
                    continue;
                }
                QVERIFY2(line.address == next, line.text.c_str());
                next += 16;
            }
            QCOMPARE(listing.lines()[f->first + 1].sourceLine,
                     lineOf(source, f == sum ? "void tile_sum" : "void scale_add"));
        }
        // nvdisasm's directives, section headers and "//## File" comments are not shown.
        for (const auto& line : listing.lines())
            QVERIFY2(!line.text.starts_with(".section") && !line.text.starts_with("//") &&
                         !line.text.starts_with(".align"),
                     line.text.c_str());
        QVERIFY(!CodeListing::fromSass(kp::test::readText(kData + "nvdisasm-gi-sm90.txt"), "other.cu")
                     .hasSourceLines());
    }

    void roundTripsThroughJson() {
        const auto listing =
            CodeListing::fromSass(kp::test::readText(kData + "nvdisasm-gi-sm90.txt"), "kernel.cu");
        QVERIFY(!listing.empty());
        QCOMPARE(CodeListing::fromJson(listing.toJson()), listing);
        auto broken = listing.toJson();
        broken["functions"][0]["end"] = listing.lines().size() + 5;
        QVERIFY(kp::test::inputErrorOf([&] { CodeListing::fromJson(broken); }).find("outside its lines") !=
                std::string::npos);
        broken = listing.toJson();
        broken.erase("lines");
        QVERIFY(!kp::test::inputErrorOf([&] { CodeListing::fromJson(broken); }).empty());
    }
};

QTEST_GUILESS_MAIN(TestCodeListing)
#include "tst_codelisting.moc"
