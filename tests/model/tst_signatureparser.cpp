// SignatureParser: every __global__ found however it is written (linkage, templates, attributes, macros,
// preprocessor groups, prototypes), each parameter's kind, constness, dtype and position, and hostile
// input that must give problems with clear messages, never an exception or a crash.
#include "core/model/SignatureParser.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTest>
#include <algorithm>
#include <random>
#include <string>

using namespace kp::model;

namespace {

bool mentions(const ParseResult& result, const std::string& words) {
    return std::any_of(result.problems.begin(), result.problems.end(),
                       [&](const Diagnostic& d) { return d.message.find(words) != std::string::npos; });
}

std::string allProblems(const ParseResult& result) {
    std::string text;
    for (const Diagnostic& d : result.problems)
        text += toString(d) + "\n";
    return text;
}

std::vector<std::string> names(const ParseResult& result) {
    std::vector<std::string> list;
    for (const KernelSignature& kernel : result.kernels)
        list.push_back(kernel.name);
    return list;
}

// The one parameter of `__global__ void k(DECLARATION) {}`.
Parameter onlyParameter(const std::string& declaration) {
    const ParseResult result = parseKernels("__global__ void k(" + declaration + ") {}");
    if (result.kernels.size() != 1 || result.kernels[0].parameters.size() != 1) return {};
    return result.kernels[0].parameters[0];
}

} // namespace

Q_DECLARE_METATYPE(std::optional<DType>)

class TestSignatureParser : public QObject {
    Q_OBJECT

private slots:
    void findsAPlainKernel() {
        const ParseResult r = parseKernels("__global__ void scale(float* x, int n) { x[0] *= n; }\n");
        QVERIFY2(r.problems.empty(), allProblems(r).c_str());
        QCOMPARE(r.kernels.size(), std::size_t{1});
        const KernelSignature& k = r.kernels[0];
        QCOMPARE(k.name, std::string("scale"));
        QVERIFY(!k.externC);
        QVERIFY(!k.isTemplate);
        QCOMPARE(k.parameters.size(), std::size_t{2});
        QCOMPARE(k.parameters[0].name, std::string("x"));
        QCOMPARE(k.parameters[0].typeText, std::string("float*"));
        QVERIFY(k.parameters[0].pointer);
        QCOMPARE(k.parameters[0].dtype, std::optional(DType::Float32));
        QCOMPARE(k.parameters[1].name, std::string("n"));
        QVERIFY(!k.parameters[1].pointer);
        QCOMPARE(k.parameters[1].dtype, std::optional(DType::Int32));
        QCOMPARE(toString(k), std::string("__global__ void scale(float* x, int n)"));
    }

    void findsEveryKernelInSourceOrder() {
        const ParseResult r = parseKernels("__global__ void b() {}\n"
                                           "__device__ float helper(float x) { return x; }\n"
                                           "void host(int) {}\n"
                                           "__global__ void a(int n) {}\n"
                                           "static __global__ void c(void) {}\n");
        QCOMPARE(names(r), (std::vector<std::string>{"b", "a", "c"}));
        QVERIFY(r.kernels[0].parameters.empty());
        QVERIFY(r.kernels[2].parameters.empty());
        QCOMPARE(findKernel(r, "a"), &r.kernels[1]);
        QCOMPARE(findKernel(r, "helper"), nullptr);
        QCOMPARE(findKernel(r, "host"), nullptr);
    }

    void recordsExternCOnOneDeclaration() {
        const ParseResult r = parseKernels("extern \"C\" __global__ void a(float* x) {}\n"
                                           "__global__ void b(float* x) {}\n"
                                           "extern \"C++\" __global__ void c(float* x) {}\n");
        QCOMPARE(names(r), (std::vector<std::string>{"a", "b", "c"}));
        QVERIFY(r.kernels[0].externC);
        QVERIFY(!r.kernels[1].externC);
        QVERIFY(!r.kernels[2].externC);
        QCOMPARE(toString(r.kernels[0]), std::string("extern \"C\" __global__ void a(float* x)"));
    }

    void recordsExternCForAWholeBlock() {
        const ParseResult r = parseKernels("extern \"C\" {\n"
                                           "__global__ void a(int n) { if (n) { return; } }\n"
                                           "struct S { int x; };\n"
                                           "__global__ void b(int n) {}\n"
                                           "}\n"
                                           "__global__ void c(int n) {}\n");
        QVERIFY2(r.problems.empty(), allProblems(r).c_str());
        QCOMPARE(names(r), (std::vector<std::string>{"a", "b", "c"}));
        QVERIFY(r.kernels[0].externC);
        QVERIFY(r.kernels[1].externC);
        QVERIFY(!r.kernels[2].externC);
    }

    void recordsTemplateParameters() {
        const ParseResult r = parseKernels("template <typename T, int N = 4, typename U = Pair<int, float>>\n"
                                           "__global__ void copy(T* dst, const T* src, U pair) {}\n");
        QVERIFY2(r.problems.empty(), allProblems(r).c_str());
        QCOMPARE(r.kernels.size(), std::size_t{1});
        const KernelSignature& k = r.kernels[0];
        QVERIFY(k.isTemplate);
        QCOMPARE(k.templateParameters,
                 (std::vector<std::string>{"typename T", "int N = 4", "typename U = Pair<int, float>"}));
        QVERIFY(k.parameters[0].pointer);
        QCOMPARE(k.parameters[0].dtype, std::nullopt); // a template parameter is no dtype
        QVERIFY(k.parameters[1].isConst);
        QVERIFY(!k.parameters[2].pointer);
        QCOMPARE(toString(k).substr(0, 52),
                 std::string("template <typename T, int N = 4, typename U = Pair<i"));
    }

    void keepsDefaultArguments() {
        const ParseResult r = parseKernels("__global__ void k(float* x, int n = f(1, 2), float s = 0.5f, "
                                           "Pair<int, int> p = Pair{1, 2}) {}");
        QVERIFY2(r.problems.empty(), allProblems(r).c_str());
        const auto& p = r.kernels.at(0).parameters;
        QCOMPARE(p.size(), std::size_t{4});
        QCOMPARE(p[0].defaultValue, std::string());
        QCOMPARE(p[1].name, std::string("n"));
        QCOMPARE(p[1].defaultValue, std::string("f(1, 2)"));
        QCOMPARE(p[2].defaultValue, std::string("0.5f"));
        QCOMPARE(p[3].name, std::string("p"));
        QCOMPARE(p[3].defaultValue, std::string("Pair{1, 2}"));
        QCOMPARE(p[3].typeText, std::string("Pair<int, int>"));
        QVERIFY(toString(r.kernels[0]).find("int n = f(1, 2)") != std::string::npos);
    }

    void ignoresKernelsInCommentsAndStrings() {
        const ParseResult r = parseKernels("// __global__ void commented(int n) {}\n"
                                           "/* __global__ void block(int n) {} */\n"
                                           "const char* s = \"__global__ void quoted(int n) {}\";\n"
                                           "const char* raw = R\"x(__global__ void raw(int n) {})x\";\n"
                                           "char c = '\\'';\n"
                                           "__global__ /* between */ void /* words */ real(// a comment\n"
                                           "    float* /* here too */ x) {}\n");
        QVERIFY2(r.problems.empty(), allProblems(r).c_str());
        QCOMPARE(names(r), std::vector<std::string>{"real"});
        QCOMPARE(r.kernels[0].parameters.at(0).typeText, std::string("float*"));
        QCOMPARE(r.kernels[0].parameters.at(0).name, std::string("x"));
    }

    void continuesALineCommentAfterABackslash() {
        const ParseResult r = parseKernels("// hidden \\\n__global__ void hidden(int n) {}\n"
                                           "__global__ void shown(int n) {}\n");
        QCOMPARE(names(r), std::vector<std::string>{"shown"});
        QCOMPARE(r.kernels[0].line, 3);
    }

    void expandsObjectLikeMacrosHoldingGlobal() {
        const ParseResult r = parseKernels("#define KERNEL extern \"C\" __global__\n"
                                           "#define N 256\n"
                                           "#define LONG_MACRO(x) \\\n  do { x; } while (0)\n"
                                           "KERNEL void a(float* x) {}\n"
                                           "__global__ void __launch_bounds__(N) b(float* x) {}\n");
        QVERIFY2(r.problems.empty(), allProblems(r).c_str());
        QCOMPARE(names(r), (std::vector<std::string>{"a", "b"}));
        QVERIFY(r.kernels[0].externC);
        QCOMPARE(r.kernels[0].line, 5);
        QVERIFY(!r.kernels[1].externC);
        QCOMPARE(r.kernels[1].line, 6);
    }

    void readsThroughLaunchBoundsAndAttributes() {
        const ParseResult r = parseKernels(
            "__global__ void __launch_bounds__(256, 2) a(float* x) {}\n"
            "__launch_bounds__(128) __global__ void b(float* x) {}\n"
            "__global__ void __launch_bounds__(MAX(1, 2)) __attribute__((noinline)) c(float* x) {}\n"
            "[[nodiscard]] __global__ void d(float* x) {}\n"
            "__global__ void __maxnreg__(32) e(float* x) {}\n");
        QVERIFY2(r.problems.empty(), allProblems(r).c_str());
        QCOMPARE(names(r), (std::vector<std::string>{"a", "b", "c", "d", "e"}));
        for (const auto& k : r.kernels)
            QCOMPARE(k.parameters.size(), std::size_t{1});
    }

    void mergesAPrototypeWithItsDefinition() {
        const ParseResult r = parseKernels("extern \"C\" __global__ void k(float* x, int n = 10);\n"
                                           "__global__ void other(int);\n"
                                           "__global__ void k(float* x, int n) { x[0] = n; }\n");
        QVERIFY2(r.problems.empty(), allProblems(r).c_str());
        QCOMPARE(names(r), (std::vector<std::string>{"k", "other"}));
        const KernelSignature& k = r.kernels[0];
        QVERIFY(k.externC);
        QCOMPARE(k.line, 3); // the definition's place, where a person edits it
        QCOMPARE(k.parameters.at(1).defaultValue, std::string("10"));
    }

    void keepsOverloadsApart() {
        const ParseResult r = parseKernels("__global__ void k(float* x) {}\n__global__ void k(int* x) {}\n");
        QCOMPARE(r.kernels.size(), std::size_t{2});
        QCOMPARE(r.kernels[0].parameters[0].dtype, std::optional(DType::Float32));
        QCOMPARE(r.kernels[1].parameters[0].dtype, std::optional(DType::Int32));
        QCOMPARE(findKernel(r, "k"), &r.kernels[0]);
    }

    void skipsIfZeroGroups() {
        const ParseResult r =
            parseKernels("#if 0\n__global__ void off(int n) {}\n"
                         "#if FOO\n__global__ void nested(int n) {}\n#endif\n"
                         "#else\n__global__ void elseOfZero(int n) {}\n#endif\n"
                         "#if 1\n__global__ void on(int n) {}\n"
                         "#else\n__global__ void elseOfOne(int n) {}\n#endif\n"
                         "#ifdef SOMETHING\n__global__ void maybe(int n) {}\n#endif\n"
                         "#if 0\n  #error \"never\"\n  \"unterminated in skipped code\n#endif\n");
        QVERIFY2(r.problems.empty(), allProblems(r).c_str());
        QCOMPARE(names(r), (std::vector<std::string>{"elseOfZero", "on", "maybe"}));
    }

    void tellsPointersFromScalars_data() {
        QTest::addColumn<QString>("declaration");
        QTest::addColumn<bool>("pointer");
        QTest::addColumn<QString>("name");
        QTest::newRow("pointer") << "float* a" << true << "a";
        QTest::newRow("pointer, space before star") << "float *a" << true << "a";
        QTest::newRow("array") << "float a[]" << true << "a";
        QTest::newRow("restrict pointer") << "const float* __restrict__ a" << true << "a";
        QTest::newRow("scalar") << "int n" << false << "n";
        QTest::newRow("const scalar") << "const int n" << false << "n";
        QTest::newRow("vector scalar") << "float4 v" << false << "v";
        QTest::newRow("struct by value") << "struct Params p" << false << "p";
        QTest::newRow("grid constant") << "const __grid_constant__ Params p" << false << "p";
    }
    void tellsPointersFromScalars() {
        QFETCH(QString, declaration);
        QFETCH(bool, pointer);
        QFETCH(QString, name);
        const Parameter p = onlyParameter(declaration.toStdString());
        QCOMPARE(p.pointer, pointer);
        QCOMPARE(p.name, name.toStdString());
    }

    void detectsConst_data() {
        QTest::addColumn<QString>("declaration");
        QTest::addColumn<bool>("isConst");
        QTest::newRow("const float*") << "const float* a" << true;
        QTest::newRow("float const*") << "float const* a" << true;
        QTest::newRow("float* const") << "float* const a" << false;
        QTest::newRow("const float* const") << "const float* const a" << true;
        QTest::newRow("const restrict") << "const float* __restrict__ a" << true;
        QTest::newRow("float*") << "float* a" << false;
        QTest::newRow("const array") << "const float a[]" << true;
        QTest::newRow("const scalar") << "const int n" << true;
        QTest::newRow("int const scalar") << "int const n" << true;
        QTest::newRow("scalar") << "int n" << false;
    }
    void detectsConst() {
        QFETCH(QString, declaration);
        QFETCH(bool, isConst);
        QCOMPARE(onlyParameter(declaration.toStdString()).isConst, isConst);
    }

    void givesElementTypes_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<std::optional<DType>>("dtype");
        const std::optional<DType> none;
        QTest::newRow("signed char") << "signed char" << std::optional(DType::Int8);
        QTest::newRow("char") << "char" << std::optional(DType::Int8);
        QTest::newRow("int8_t") << "int8_t" << std::optional(DType::Int8);
        QTest::newRow("unsigned char") << "unsigned char" << std::optional(DType::UInt8);
        QTest::newRow("uint8_t") << "uint8_t" << std::optional(DType::UInt8);
        QTest::newRow("short") << "short" << std::optional(DType::Int16);
        QTest::newRow("short int") << "short int" << std::optional(DType::Int16);
        QTest::newRow("int16_t") << "int16_t" << std::optional(DType::Int16);
        QTest::newRow("unsigned short") << "unsigned short" << std::optional(DType::UInt16);
        QTest::newRow("uint16_t") << "uint16_t" << std::optional(DType::UInt16);
        QTest::newRow("int") << "int" << std::optional(DType::Int32);
        QTest::newRow("signed") << "signed" << std::optional(DType::Int32);
        QTest::newRow("int32_t") << "int32_t" << std::optional(DType::Int32);
        QTest::newRow("unsigned") << "unsigned" << std::optional(DType::UInt32);
        QTest::newRow("unsigned int") << "unsigned int" << std::optional(DType::UInt32);
        QTest::newRow("uint32_t") << "uint32_t" << std::optional(DType::UInt32);
        QTest::newRow("long long") << "long long" << std::optional(DType::Int64);
        QTest::newRow("long") << "long" << std::optional(DType::Int64);
        QTest::newRow("int64_t") << "int64_t" << std::optional(DType::Int64);
        QTest::newRow("std::int64_t") << "std::int64_t" << std::optional(DType::Int64);
        QTest::newRow("unsigned long long") << "unsigned long long" << std::optional(DType::UInt64);
        QTest::newRow("unsigned long long int") << "unsigned long long int" << std::optional(DType::UInt64);
        QTest::newRow("uint64_t") << "uint64_t" << std::optional(DType::UInt64);
        QTest::newRow("size_t") << "size_t" << std::optional(DType::UInt64);
        QTest::newRow("__half") << "__half" << std::optional(DType::Float16);
        QTest::newRow("half") << "half" << std::optional(DType::Float16);
        QTest::newRow("float") << "float" << std::optional(DType::Float32);
        QTest::newRow("double") << "double" << std::optional(DType::Float64);
        QTest::newRow("float2") << "float2" << std::optional(DType::Float2);
        QTest::newRow("float4") << "float4" << std::optional(DType::Float4);
        QTest::newRow("int2") << "int2" << std::optional(DType::Int2);
        QTest::newRow("int4") << "int4" << std::optional(DType::Int4);
        QTest::newRow("bool") << "bool" << std::optional(DType::Bool);
        QTest::newRow("__nv_bfloat16") << "__nv_bfloat16" << std::optional(DType::BFloat16);
        QTest::newRow("nv_bfloat16") << "nv_bfloat16" << std::optional(DType::BFloat16);
        QTest::newRow("uchar4") << "uchar4" << std::optional(DType::UChar4);
        QTest::newRow("uint3") << "uint3" << std::optional(DType::UInt3);
        QTest::newRow("double3") << "double3" << std::optional(DType::Double3);
        QTest::newRow("long2 is not longlong2") << "long2" << std::optional(DType::Long2);
        QTest::newRow("clock_t") << "clock_t" << std::optional(DType::Int64);
        QTest::newRow("__half2 has no dtype") << "__half2" << none;
        QTest::newRow("struct") << "Params" << none;
        QTest::newRow("template parameter") << "T" << none;
        QTest::newRow("signed unsigned") << "signed unsigned" << none;
        QTest::newRow("long char") << "long char" << none;
        QTest::newRow("long double") << "long double" << none;
    }
    void givesElementTypes() {
        QFETCH(QString, type);
        QFETCH(std::optional<DType>, dtype);
        const std::string t = type.toStdString();
        QCOMPARE(onlyParameter(t + " v").dtype, dtype);
        QCOMPARE(onlyParameter(t + "* p").dtype, dtype);
        QCOMPARE(onlyParameter("const " + t + "* __restrict__ p").dtype, dtype);
    }

    void givesNoDtypeWhereNoneFits_data() {
        QTest::addColumn<QString>("declaration");
        QTest::newRow("pointer to pointer") << "float** p";
        QTest::newRow("reference") << "float& r";
        QTest::newRow("function pointer") << "float (*f)(float)";
        QTest::newRow("pack") << "Ts... args";
        QTest::newRow("template instance") << "Vec<float> v";
    }
    void givesNoDtypeWhereNoneFits() {
        QFETCH(QString, declaration);
        const Parameter p = onlyParameter(declaration.toStdString());
        QVERIFY(!p.name.empty());
        QCOMPARE(p.dtype, std::nullopt);
    }

    void givesNoDtypeToGarbageAfterTheStar_data() {
        QTest::addColumn<QString>("declaration");
        QTest::newRow("extern and a string") << "float* extern \"&C\"";
        QTest::newRow("string after const") << "float* const cR\"x&t$n\"";
        QTest::newRow("two names") << "float* a b";
        QTest::newRow("number") << "float* 4 a";
        QTest::newRow("char literal") << "int* 'x' a";
    }
    void givesNoDtypeToGarbageAfterTheStar() {
        QFETCH(QString, declaration);
        const ParseResult r = parseKernels("__global__ void k(" + declaration.toStdString() + ") {}");
        QCOMPARE(r.kernels.size(), std::size_t{1});
        QCOMPARE(r.kernels[0].parameters.size(), std::size_t{1});
        QCOMPARE(r.kernels[0].parameters[0].dtype, std::nullopt);
        QVERIFY(r.kernels[0].parameters[0].pointer);
    }

    void keepsArrayBoundsOutOfTheWay() {
        QCOMPARE(onlyParameter("float a[4]").dtype, std::optional(DType::Float32));
        QCOMPARE(onlyParameter("const int a[N * 2]").dtype, std::optional(DType::Int32));
        QCOMPARE(onlyParameter("float* __restrict__ const a").dtype, std::optional(DType::Float32));
    }

    // Inputs the fuzzer (tests/fuzz) found, checked with its invariants.
    void keepsTheFuzzersInvariants_data() {
        QTest::addColumn<QString>("path");
        const QDir dir(QStringLiteral(KP_SOURCE_DIR "/tests/model/data/signature-crashes"));
        for (const QString& name : dir.entryList(QDir::Files))
            QTest::newRow(qPrintable(name)) << dir.filePath(name);
    }
    void keepsTheFuzzersInvariants() {
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        const std::string_view source(bytes.constData(), static_cast<std::size_t>(bytes.size()));
        const ParseResult r = parseKernels(source);
        const int lines = static_cast<int>(std::count(source.begin(), source.end(), '\n')) + 1;
        for (const KernelSignature& k : r.kernels) {
            QVERIFY(!k.name.empty() && k.line >= 1 && k.line <= lines && k.column >= 1);
            for (const Parameter& p : k.parameters) {
                QVERIFY(!p.name.empty());
                QVERIFY(p.line >= 0 && p.line <= lines);
                QVERIFY2(!p.dtype || p.typeText.find('&') == std::string::npos, p.typeText.c_str());
            }
        }
        for (const Diagnostic& d : r.problems)
            QVERIFY(d.line >= 0 && d.line <= lines && !d.message.empty());
        QVERIFY(parseKernels(source) == r);
    }

    void namesUnnamedParameters() {
        const ParseResult r = parseKernels("__global__ void k(float*, int, const float* b, double = 1.0) {}");
        const auto& p = r.kernels.at(0).parameters;
        QCOMPARE(p.size(), std::size_t{4});
        QCOMPARE(p[0].name, std::string("arg0"));
        QCOMPARE(p[0].typeText, std::string("float*"));
        QVERIFY(p[0].pointer);
        QCOMPARE(p[1].name, std::string("arg1"));
        QCOMPARE(p[1].dtype, std::optional(DType::Int32));
        QCOMPARE(p[2].name, std::string("b"));
        QCOMPARE(p[3].name, std::string("arg3"));
        QCOMPARE(p[3].defaultValue, std::string("1.0"));
        QCOMPARE(p[3].dtype, std::optional(DType::Float64));
    }

    void givesLineAndColumnPositions() {
        const ParseResult r = parseKernels("// header\n"
                                           "\n"
                                           "__global__ void first(float* a,\n"
                                           "\t\t\t\t\t int   n) {}\n"
                                           "  extern \"C\" __global__ void second(int) {}\n");
        QCOMPARE(r.kernels.size(), std::size_t{2});
        QCOMPARE(r.kernels[0].line, 3);
        QCOMPARE(r.kernels[0].column, 17);
        QCOMPARE(r.kernels[0].parameters[0].line, 3);
        QCOMPARE(r.kernels[0].parameters[0].column, 30);
        QCOMPARE(r.kernels[0].parameters[1].line, 4);
        QCOMPARE(r.kernels[0].parameters[1].column, 13); // bytes: a tab is one column
        QCOMPARE(r.kernels[1].line, 5);
        QCOMPARE(r.kernels[1].column, 30);
        QCOMPARE(r.kernels[1].parameters[0].line, 5); // unnamed: its first token
        QCOMPARE(r.kernels[1].parameters[0].column, 37);
    }

    void countsLinesAcrossCrLfAndSplices() {
        const ParseResult r =
            parseKernels("#define X \\\r\n  1\r\n/* a\r\n b */\r\n__global__ void k(int n) {}\r\n");
        QVERIFY2(r.problems.empty(), allProblems(r).c_str());
        QCOMPARE(r.kernels.at(0).line, 5);
        QCOMPARE(r.kernels.at(0).column, 17);
    }

    void rejectsANonVoidKernel() {
        const ParseResult r = parseKernels("__global__ int bad(int n) { return n; }\n"
                                           "__global__ void* worse(int n) {}\n"
                                           "__global__ auto fine(int n) -> void {}\n");
        QCOMPARE(names(r), (std::vector<std::string>{"bad", "worse", "fine"}));
        QCOMPARE(r.problems.size(), std::size_t{2});
        QCOMPARE(r.problems[0].line, 1);
        QCOMPARE(r.problems[0].severity, Diagnostic::Severity::Error);
        QVERIFY(mentions(r, "'bad' must return void, not 'int'"));
        QVERIFY(mentions(r, "'worse' must return void"));
    }

    void reportsAnUnterminatedComment() {
        const ParseResult r =
            parseKernels("__global__ void k(int n) {}\n  /* never closed\n__global__ void j() {}");
        QCOMPARE(names(r), std::vector<std::string>{"k"});
        QCOMPARE(r.problems.size(), std::size_t{1});
        QCOMPARE(r.problems[0].line, 2);
        QCOMPARE(r.problems[0].column, 3);
        QCOMPARE(r.problems[0].file, std::string("kernel.cu"));
        QVERIFY(mentions(r, "unterminated /* comment"));
        QVERIFY(mentions(r, "close it with */"));
    }

    void reportsUnterminatedLiterals() {
        const ParseResult quoted =
            parseKernels("const char* s = \"open\n__global__ void k(int n) {}\n", "lit.cu");
        QCOMPARE(names(quoted), std::vector<std::string>{"k"});
        QVERIFY(mentions(quoted, "missing closing \" before the end of the line"));
        QCOMPARE(quoted.problems.at(0).file, std::string("lit.cu"));
        QCOMPARE(quoted.problems.at(0).line, 1);
        QCOMPARE(quoted.problems.at(0).column, 17);

        const ParseResult raw = parseKernels("auto s = R\"delim(never closed\n__global__ void k() {}\n");
        QVERIFY(raw.kernels.empty());
        QVERIFY(mentions(raw, "unterminated raw string literal: add )delim\""));
    }

    void reportsUnbalancedParentheses() {
        const ParseResult r =
            parseKernels("__global__ void k(float* a, int n {\n}\n__global__ void ok(int n) {}\n");
        QCOMPARE(names(r), std::vector<std::string>{"ok"});
        QCOMPARE(r.problems.size(), std::size_t{1});
        QVERIFY(mentions(r, "unbalanced parentheses in the parameter list of __global__ function 'k'"));
        QVERIFY(mentions(r, "add the missing ')'"));
        QCOMPARE(r.problems[0].line, 1);
        QCOMPARE(r.problems[0].column, 18);

        const ParseResult mismatched = parseKernels("__global__ void k(int a[4)) {}");
        QVERIFY(mismatched.kernels.empty());
        QVERIFY(mentions(mismatched, "unbalanced parentheses"));

        const ParseResult attribute = parseKernels("__global__ void __launch_bounds__(256 k(int n);");
        QVERIFY(attribute.kernels.empty());
        QVERIFY(mentions(attribute, "the '(' of __launch_bounds__ is not closed"));
    }

    void reportsAGlobalWithoutAFunction() {
        const ParseResult r = parseKernels("__global__ int x;\n__global__ void (int n) {}\n__global__");
        QVERIFY(r.kernels.empty());
        QCOMPARE(r.problems.size(), std::size_t{3});
        QVERIFY(mentions(r, "__global__ is not followed by a function declaration"));
        QVERIFY(mentions(r, "no function name before the parameter list"));
        QVERIFY(mentions(r, "the end of the file"));
    }

    void capsTheProblemList() {
        std::string source;
        for (int i = 0; i < 150; ++i)
            source += "__global__ int k" + std::to_string(i) + "() {}\n";
        const ParseResult r = parseKernels(source);
        QCOMPARE(r.kernels.size(), std::size_t{150});
        QCOMPARE(r.problems.size(), std::size_t{101});
        QCOMPARE(r.problems.back().severity, Diagnostic::Severity::Note);
        QCOMPARE(r.problems.back().message, std::string("50 more problems not shown"));
    }

    void survivesRandomBytes() {
        std::mt19937 engine(7);
        for (int round = 0; round < 200; ++round) {
            std::string bytes(1 + engine() % 2000, '\0');
            for (char& c : bytes)
                c = static_cast<char>(engine());
            if (round % 2) bytes = "__global__ void k(" + bytes; // random bytes inside a declaration
            const ParseResult r = parseKernels(bytes);
            QVERIFY(r.problems.size() <= 101);
            QVERIFY(parseKernels(bytes) == r);
        }
    }

    void acceptsNonUtf8Bytes() {
        const std::string source =
            "// caf\xe9 \xff\xfe\n__global__ void k(float* \xc3\xa9t\xe9, int n) {} \x80\n";
        const ParseResult r = parseKernels(source);
        QCOMPARE(r.kernels.size(), std::size_t{1});
        QCOMPARE(r.kernels[0].parameters.at(0).name, std::string("\xc3\xa9t\xe9"));
        QCOMPARE(r.kernels[0].parameters.at(1).column, 36);
    }

    void parsesTenMegabytesInLinearTime() {
        std::string source;
        source.reserve(10u << 20);
        for (int i = 0; source.size() < (10u << 20); ++i)
            source += "__global__ void k" + std::to_string(i) +
                      "(const float* a, float* b, int n = 3) { b[0] = a[0]; }\n";
        QElapsedTimer timer;
        timer.start();
        const ParseResult r = parseKernels(source);
        QVERIFY(r.problems.empty());
        QVERIFY(r.kernels.size() > 100000);
        QCOMPARE(r.kernels.back().parameters.size(), std::size_t{3});
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed()) + " ms"));
    }

    // The parser keeps its nesting in counters and stacks, never in recursion, so no depth of braces,
    // parentheses or #if groups can overflow its stack: 50,000 levels around or inside a kernel still
    // give the kernel, its parameters and their lines.
    void findsKernelsAmidFiftyThousandLevelsOfNesting_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("line"); // of the kernel's name
        const QString kernel = "__global__ void k(const float* a, int n)";
        QTest::newRow("braces around")
            << QString("{").repeated(50000) + "\n" + kernel + " {}" + QString("}").repeated(50000) << 2;
        QTest::newRow("braces inside")
            << kernel + " {" + QString("{").repeated(50000) + QString("}").repeated(50000) + "}" << 1;
        QTest::newRow("unclosed braces") << kernel + " {" + QString("{").repeated(50000) << 1;
        QTest::newRow("extern C blocks")
            << QString("extern \"C\" {\n").repeated(50000) + kernel + " {}" << 50001;
        QTest::newRow("#if 1 groups")
            << QString("#if 1\n").repeated(50000) + kernel + " {}\n" + QString("#endif\n").repeated(50000)
            << 50001;
        QTest::newRow("parentheses in the body") << kernel + " { int x = " + QString("(").repeated(50000) +
                                                        "1" + QString(")").repeated(50000) + "; }"
                                                 << 1;
        QTest::newRow("200 parentheses in a default argument")
            << "__global__ void k(const float* a, int n = " + QString("(").repeated(200) + "1" +
                   QString(")").repeated(200) + ") {}"
            << 1;
    }
    void findsKernelsAmidFiftyThousandLevelsOfNesting() {
        QFETCH(QString, source);
        QFETCH(int, line);
        const ParseResult r = parseKernels(source.toStdString());
        QCOMPARE(r.kernels.size(), std::size_t{1});
        QCOMPARE(r.kernels[0].name, std::string("k"));
        QCOMPARE(r.kernels[0].parameters.size(), std::size_t{2});
        QCOMPARE(r.kernels[0].parameters[1].name, std::string("n"));
        QCOMPARE(r.kernels[0].line, line);
    }
    // A parameter list nested past 256 levels, or longer than 65,536 tokens, is given up with a problem
    // that says so and where (50,000 balanced parentheses were once called unbalanced).
    void reportsAParameterListNestedTooDeep_data() {
        QTest::addColumn<QString>("parameters");
        QTest::addColumn<QString>("problem");
        QTest::addColumn<int>("line");
        QTest::newRow("50,000 parentheses")
            << "const float* a,\n int n = " + QString("(").repeated(50000) + "1" +
                   QString(")").repeated(50000)
            << "nesting deeper than 256 levels at line 2 in the parameter list of __global__ function 'k'"
            << 2;
        QTest::newRow("50,000 brackets")
            << "int a" + QString("[").repeated(50000) + QString("]").repeated(50000)
            << "nesting deeper than 256 levels at line 1" << 1;
        QTest::newRow("70,000 tokens")
            << "int n = 1" + QString("+1").repeated(35000)
            << "the parameter list of __global__ function 'k' is longer than 65536 tokens" << 1;
    }
    void reportsAParameterListNestedTooDeep() {
        QFETCH(QString, parameters);
        QFETCH(QString, problem);
        QFETCH(int, line);
        const ParseResult r =
            parseKernels("__global__ void k(" + parameters.toStdString() + ") {}\n__global__ void j() {}");
        QCOMPARE(r.kernels.size(), std::size_t{1}); // j, after k
        QCOMPARE(r.kernels[0].name, std::string("j"));
        QCOMPARE(r.problems.size(), std::size_t{1});
        QVERIFY2(r.problems[0].message.find(problem.toStdString()) != std::string::npos,
                 r.problems[0].message.c_str());
        QCOMPARE(r.problems[0].line, line);
    }

    void survivesTenMegabytesOfPathologicalInput_data() {
        QTest::addColumn<QString>("unit");
        QTest::newRow("open parentheses") << "__global__ void k(((((";
        QTest::newRow("open brackets") << "[[[[";
        QTest::newRow("globals only") << "__global__ ";
        QTest::newRow("template angles") << "template <";
        QTest::newRow("comment openers") << "/*"; // once quadratic: each comment searched on for a newline
        QTest::newRow("raw strings") << "R\"(x)\"";
        QTest::newRow("macros") << "\n#define A __global__ void\nA k(";
        QTest::newRow("splices") << "\\\n";
        QTest::newRow("line comments") << "//\\\n";
        QTest::newRow("quotes") << "\"'";
        QTest::newRow("directives") << "\n#if 0\n";
        QTest::newRow("attributes") << "__global__ void __launch_bounds__(";
        QTest::newRow("braces") << "extern \"C\" {";
    }
    void survivesTenMegabytesOfPathologicalInput() {
        QFETCH(QString, unit);
        const std::string piece = unit.toStdString();
        std::string source;
        while (source.size() < (10u << 20))
            source += piece;
        QElapsedTimer timer;
        timer.start();
        const ParseResult r = parseKernels(source);
        QVERIFY(r.problems.size() <= 101);
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed()) + " ms"));
    }
};

QTEST_APPLESS_MAIN(TestSignatureParser)
#include "tst_signatureparser.moc"
