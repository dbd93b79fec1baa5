// NvrtcLog against logs captured from NVRTC 13.0 (the compiler's tests check the same against the live
// library), and against input that is not a log at all.
#include "core/cuda/NvrtcLog.h"

#include <QtTest>
#include <random>
#include <string>

using kp::cuda::NvrtcLog;
using kp::model::Diagnostic;
using Severity = Diagnostic::Severity;

Q_DECLARE_METATYPE(Diagnostic::Severity)

namespace {

// Source of e1.cu, whose log follows; its line 5 is indented by 8 spaces and line 6 by a tab.
constexpr const char* kSourceE1 = "#define N 4\n"
                                  "extern \"C\" __global__ void k(float* out)\n"
                                  "{\n"
                                  "    int unused = 3;\n"
                                  "        out[0] = x + 1.0f;\n"
                                  "\tout[1] = y;\n"
                                  "    undeclared_fn(out);\n"
                                  "}\n"
                                  "__global__ void t(int* p) { int a; p[0] = \"str\"; }\n"
                                  "#warning hello there\n"
                                  "#error boom here\n";

constexpr const char* kLogE1 = R"log(e1.cu(5): error: identifier "x" is undefined
          out[0] = x + 1.0f;
                   ^

e1.cu(6): error: identifier "y" is undefined
  	out[1] = y;
  	         ^

e1.cu(7): error: identifier "undeclared_fn" is undefined
      undeclared_fn(out);
      ^

e1.cu(4): warning #177-D: variable "unused" was declared but never referenced
      int unused = 3;
          ^

Remark: The warnings can be suppressed with "-diag-suppress <warning-number>"

e1.cu(9): error: a value of type "const char *" cannot be assigned to an entity of type "int"
  __global__ void t(int* p) { int a; p[0] = "str"; }
                                          ^

e1.cu(9): warning #177-D: variable "a" was declared but never referenced
  __global__ void t(int* p) { int a; p[0] = "str"; }
                                  ^

e1.cu(10): warning #1105-D: #warning directive: hello there
  #warning hello there
   ^

e1.cu(11): catastrophic error: #error directive: boom here
  #error boom here
   ^

 and 1 catastrophic error detected in the compilation of "e1.cu".
Compilation terminated.
)log";

constexpr const char* kLogOverload =
    R"log(e4.cu(4): error: no instance of overloaded function "f" matches the argument list
            argument types are: (double *, int)
      f(d, 1);
      ^
e4.cu(2): note #3326-D: function "f(float *, int)" does not match because argument #1 does not match parameter
  __device__ void f(float*, int) {}
                  ^
e4.cu(1): note #3326-D: function "f(int *, int)" does not match because argument #1 does not match parameter
  __device__ void f(int*, int) {}
                  ^

1 error detected in the compilation of "e4.cu".
)log";

constexpr const char* kLogTemplate = R"log(inc/hdr.cuh(2): error: identifier "zz" is undefined
  inline __device__ int h() { return zz; }
                                     ^

e2.cu(2): error: expression must have class type but it has type "float"
  template <typename T> __device__ T twice(T v) { return v.foo(); }
                                                         ^
          detected during instantiation of "T twice(T) [with T=float]" at line 3

2 errors detected in the compilation of "e2.cu".
)log";

// QCOMPARE cannot print a Diagnostic (ADL finds kp::model::toString, which returns std::string), so
// diagnostics are compared in their printed form, which also shows what differs.
QString text(const Diagnostic& diagnostic) {
    return QString::fromStdString(kp::model::toString(diagnostic));
}

QString diag(const char* file, int line, int column, Severity severity, const char* message) {
    return text(Diagnostic{file, line, column, severity, message});
}

} // namespace

class TestNvrtcLog : public QObject {
    Q_OBJECT

private slots:
    void readsEveryDiagnosticOfARealLog() {
        const auto diagnostics = NvrtcLog::parse(kLogE1, "e1.cu", kSourceE1);
        const QStringList expected = {
            diag("e1.cu", 5, 18, Severity::Error, "identifier \"x\" is undefined"),
            diag("e1.cu", 6, 11, Severity::Error, "identifier \"y\" is undefined"),
            diag("e1.cu", 7, 5, Severity::Error, "identifier \"undeclared_fn\" is undefined"),
            diag("e1.cu", 4, 9, Severity::Warning, "variable \"unused\" was declared but never referenced"),
            diag("e1.cu", 9, 41, Severity::Error,
                 "a value of type \"const char *\" cannot be assigned to an entity of type \"int\""),
            diag("e1.cu", 9, 33, Severity::Warning, "variable \"a\" was declared but never referenced"),
            diag("e1.cu", 10, 2, Severity::Warning, "#warning directive: hello there"),
            diag("e1.cu", 11, 2, Severity::Error, "#error directive: boom here"),
        };
        QCOMPARE(diagnostics.size(), static_cast<std::size_t>(expected.size()));
        for (std::size_t i = 0; i < diagnostics.size(); ++i)
            QCOMPARE(text(diagnostics[i]), expected[static_cast<qsizetype>(i)]);
    }

    // The column is the caret's, less NVRTC's two-space indent of the echoed line; tabs count as one byte.
    void reportsColumnFromCaretLine_data() {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("column");
        const QString header = "k.cu(1): error: identifier \"x\" is undefined\n";
        QTest::newRow("first column") << header + "  x;\n  ^\n"
                                      << "x;" << 1;
        QTest::newRow("indented line") << header + "          y = x;\n              ^\n"
                                       << "        y = x;" << 13;
        QTest::newRow("tab-indented line") << header + "  \ty = x;\n  \t    ^\n"
                                           << "\ty = x;" << 6;
        QTest::newRow("without the source") << header + "      y = x;\n          ^\n"
                                            << "" << 9;
        QTest::newRow("trailing spaces in source") << header + "  y = x;\n      ^\n"
                                                   << "y = x;   " << 5;
        QTest::newRow("CRLF log") << header + "  y = x;\r\n      ^\r\n"
                                  << "" << 5;
        QTest::newRow("caret inside the indent") << header + "  y = x;\n ^\n"
                                                 << "" << 0;
        const QString longLine = "float a = 0; " + QString(5000, ' ') + "p = x;";
        QTest::newRow("5000-column line")
            << header + "  " + longLine + "\n" + QString(longLine.indexOf('x') + 2, ' ') + "^\n"
            << longLine << longLine.indexOf('x') + 1;
    }

    void reportsColumnFromCaretLine() {
        QFETCH(QString, log);
        QFETCH(QString, source);
        QFETCH(int, column);
        const auto diagnostics = NvrtcLog::parse(log.toStdString(), "k.cu", source.toStdString());
        QCOMPARE(diagnostics.size(), std::size_t{1});
        QCOMPARE(diagnostics[0].line, 1);
        QCOMPARE(diagnostics[0].column, column);
    }

    void readsSeverityAndMessage_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("lineNumber");
        QTest::addColumn<Severity>("severity");
        QTest::addColumn<QString>("message");
        QTest::newRow("error") << "k.cu(12): error: identifier \"x\" is undefined"
                               << "k.cu" << 12 << Severity::Error << "identifier \"x\" is undefined";
        QTest::newRow("numbered warning")
            << "k.cu(3): warning #177-D: variable \"x\" was declared but never referenced"
            << "k.cu" << 3 << Severity::Warning << "variable \"x\" was declared but never referenced";
        QTest::newRow("remark") << "k.cu(7): remark #550-D: variable \"v\" was set but never used"
                                << "k.cu" << 7 << Severity::Note << "variable \"v\" was set but never used";
        QTest::newRow("note") << "k.cu(2): note #3326-D: function \"f\" does not match"
                              << "k.cu" << 2 << Severity::Note << "function \"f\" does not match";
        QTest::newRow("catastrophic error")
            << "k.cu(1): catastrophic error: cannot open source file \"missing.h\""
            << "k.cu" << 1 << Severity::Error << "cannot open source file \"missing.h\"";
        QTest::newRow("path with parentheses") << "/src/a (copy)/k.cu(4): error: boom"
                                               << "/src/a (copy)/k.cu" << 4 << Severity::Error << "boom";
        QTest::newRow("message with colons") << "k.cu(9): error: a: b: c"
                                             << "k.cu" << 9 << Severity::Error << "a: b: c";
        QTest::newRow("bad option, no line")
            << "nvrtc: error: unrecognized option --bogus found"
            << "k.cu" << 0 << Severity::Error << "unrecognized option --bogus found";
        QTest::newRow("option warning")
            << "nvrtc: warning: \"--gpu-architecture(-arch)=80\" followed by \"--gpu-architecture(-arch)=90\""
            << "k.cu" << 0 << Severity::Warning
            << "\"--gpu-architecture(-arch)=80\" followed by \"--gpu-architecture(-arch)=90\"";
    }

    void readsSeverityAndMessage() {
        QFETCH(QString, line);
        QFETCH(QString, file);
        QFETCH(int, lineNumber);
        QFETCH(Severity, severity);
        QFETCH(QString, message);
        const auto diagnostics = NvrtcLog::parse(line.toStdString(), "k.cu");
        QCOMPARE(diagnostics.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(diagnostics[0].file), file);
        QCOMPARE(diagnostics[0].line, lineNumber);
        QCOMPARE(diagnostics[0].column, 0);
        QCOMPARE(kp::model::toString(diagnostics[0].severity), kp::model::toString(severity));
        QCOMPARE(QString::fromStdString(diagnostics[0].message), message);
    }

    void joinsContinuationLinesAndKeepsNotes() {
        const auto diagnostics = NvrtcLog::parse(kLogOverload, "e4.cu");
        QCOMPARE(diagnostics.size(), std::size_t{3});
        QCOMPARE(text(diagnostics[0]),
                 diag("e4.cu", 4, 5, Severity::Error,
                      "no instance of overloaded function \"f\" matches the argument list; "
                      "argument types are: (double *, int)"));
        QCOMPARE(kp::model::toString(diagnostics[1].severity), "note");
        QCOMPARE(diagnostics[1].line, 2);
        QCOMPARE(diagnostics[1].column, 17);
        QCOMPARE(diagnostics[2].line, 1);
    }

    void turnsInstantiationContextIntoANote() {
        const auto diagnostics = NvrtcLog::parse(kLogTemplate, "e2.cu");
        QCOMPARE(diagnostics.size(), std::size_t{3});
        QCOMPARE(text(diagnostics[0]),
                 diag("inc/hdr.cuh", 2, 36, Severity::Error, "identifier \"zz\" is undefined"));
        QCOMPARE(diagnostics[1].line, 2);
        QCOMPARE(diagnostics[1].column, 56);
        QCOMPARE(text(diagnostics[2]),
                 diag("e2.cu", 3, 0, Severity::Note,
                      "detected during instantiation of \"T twice(T) [with T=float]\""));
    }

    void readsNestedInstantiationList() {
        const char* log =
            "k.cu(2): error: boom\n"
            "  x;\n"
            "  ^\n"
            "          detected during:\n"
            "            instantiation of \"void f<T>() [with T=int]\" at line 9\n"
            "            instantiation of \"void g<T>() [with T=int]\" at line 12 of \"other.cu\"\n";
        const auto diagnostics = NvrtcLog::parse(log, "k.cu");
        QCOMPARE(diagnostics.size(), std::size_t{3});
        QCOMPARE(text(diagnostics[1]), diag("k.cu", 9, 0, Severity::Note,
                                            "detected during instantiation of \"void f<T>() [with T=int]\""));
        QCOMPARE(text(diagnostics[2]), diag("other.cu", 12, 0, Severity::Note,
                                            "detected during instantiation of \"void g<T>() [with T=int]\""));
    }

    void skipsSummaryLines() {
        const char* log =
            "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n\n"
            "3 errors detected in the compilation of \"k.cu\".\n"
            "Compilation terminated.\n";
        QVERIFY(NvrtcLog::parse(log, "k.cu").empty());
        QVERIFY(NvrtcLog::parse("", "k.cu").empty());
    }

    void neverFailsOnGarbage_data() {
        QTest::addColumn<QByteArray>("log");
        QTest::newRow("lone caret") << QByteArray("^\n^\n  ^");
        QTest::newRow("header without file") << QByteArray("(3): error: x\n  y\n  ^");
        QTest::newRow("empty line number") << QByteArray("k.cu(): error: x");
        QTest::newRow("huge line number") << QByteArray("k.cu(99999999999999999999): error: x");
        QTest::newRow("negative line number") << QByteArray("k.cu(-3): error: x");
        QTest::newRow("unknown severity") << QByteArray("k.cu(3): fiasco: x");
        QTest::newRow("header at end, no message") << QByteArray("k.cu(3): error:");
        QTest::newRow("caret first in block") << QByteArray("k.cu(3): error: x\n^\nfoo");
        QTest::newRow("context without line")
            << QByteArray("k.cu(3): error: x\n detected during\n detected during:");
        QTest::newRow("context with bad line")
            << QByteArray("k.cu(3): error: x\n detected during f at line 12x of \"");
        QTest::newRow("NUL bytes") << QByteArray("k.cu(3): error: \0x\n\0\0^\n", 22);
        QTest::newRow("only newlines") << QByteArray(1000, '\n');
        QTest::newRow("binary") << QByteArray::fromHex("00ff28293a205e0a0d0a28393929");
    }

    void neverFailsOnGarbage() {
        QFETCH(QByteArray, log);
        const auto diagnostics = NvrtcLog::parse(
            std::string_view(log.constData(), static_cast<std::size_t>(log.size())), "k.cu", "x;\n");
        for (const auto& d : diagnostics) {
            QVERIFY(d.line >= 0);
            QVERIFY(d.column >= 0);
        }
    }

    // Random mixtures of the pieces a log is made of, in any order and cut anywhere.
    void neverFailsOnShuffledLogPieces() {
        const std::vector<std::string> pieces = {
            "k.cu(", "12", "): ",     "error", "warning #177-D",     ": ",          "msg",
            "\n",    "  ", "^",       "\t",    "detected during",    " at line ",   "\"",
            "(",     ")",  "nvrtc: ", "\r\n",  std::string(1, '\0'), "999999999999"};
        std::mt19937 random(42);
        std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
        std::uniform_int_distribution<int> length(0, 60);
        for (int round = 0; round < 3000; ++round) {
            std::string log;
            for (int i = length(random); i > 0; --i)
                log += pieces[pick(random)];
            const auto diagnostics = NvrtcLog::parse(log, "k.cu", "a\n\tb\n");
            for (const auto& d : diagnostics)
                QVERIFY(d.line >= 0 && d.column >= 0);
        }
    }
};

QTEST_APPLESS_MAIN(TestNvrtcLog)
#include "tst_nvrtclog.moc"
