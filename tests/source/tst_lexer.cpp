// source::Lexer, the one reading of CUDA source that the signature parser, the barrier split, grid
// coverage, the CPU backend and the include scan share: kinds and texts, positions, the flags that mark
// continuations, directives and unterminated literals, and linear time on hostile input.
#include "core/source/Lexer.h"

#include <QElapsedTimer>
#include <QtTest>
#include <string>

using namespace kp;
using source::Lexer;
using source::LexerOptions;
using source::Token;
using source::TokenKind;

namespace {

QString kindName(TokenKind kind) {
    switch (kind) {
    case TokenKind::Identifier:
        return "id";
    case TokenKind::Number:
        return "num";
    case TokenKind::String:
        return "str";
    case TokenKind::Char:
        return "chr";
    case TokenKind::HeaderName:
        return "hdr";
    case TokenKind::Punct:
        return "p";
    case TokenKind::Directive:
        return "dir";
    case TokenKind::Comment:
        return "com";
    case TokenKind::End:
        return "end";
    }
    return "?";
}

// "kind text" per token, texts with their line breaks as \n.
QStringList describe(const std::string& source, const LexerOptions& options = {}) {
    Lexer lexer(source, options);
    QStringList tokens;
    for (const Token& token : lexer.rest())
        tokens << kindName(token.kind) + " " +
                      QString::fromStdString(std::string(lexer.text(token))).replace("\n", "\\n");
    return tokens;
}

} // namespace

class TestLexer : public QObject {
    Q_OBJECT

private slots:
    void readsTokens_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QStringList>("tokens");
        QTest::newRow("identifiers and punctuators")
            << "a::b->c = d; $x"
            << QStringList{"id a", "p ::", "id b", "p ->", "id c", "p =", "id d", "p ;", "id $x"};
        QTest::newRow("longest punctuators")
            << "k<<<g, b>>>(x); a <<= 1; b >>= c; p->*m; a <=> b; ++i && --j"
            << QStringList{"id k", "p <<<", "id g", "p ,",   "id b",  "p >>>", "p (",  "id x",
                           "p )",  "p ;",   "id a", "p <<=", "num 1", "p ;",   "id b", "p >>=",
                           "id c", "p ;",   "id p", "p ->*", "id m",  "p ;",   "id a", "p <=>",
                           "id b", "p ;",   "p ++", "id i",  "p &&",  "p --",  "id j"};
        QTest::newRow("numbers") << "1.0f 0x1p3 0x1p-3 1'000 10ull 1e-5 .5 3. 0b101"
                                 << QStringList{"num 1.0f",  "num 0x1p3", "num 0x1p-3",
                                                "num 1'000", "num 10ull", "num 1e-5",
                                                "num .5",    "num 3.",    "num 0b101"};
        QTest::newRow("a number then a member") << "1.f.x" << QStringList{"num 1.f.x"};
        QTest::newRow("ellipsis is no number") << "f(...)" << QStringList{"id f", "p (", "p ...", "p )"};
        QTest::newRow("strings and chars with escapes")
            << "s = \"a\\\"b\\\\\"; c = '\\''; d = '\"';"
            << QStringList{"id s", "p =", "str \"a\\\"b\\\\\"", "p ;", "id c", "p =", "chr '\\''", "p ;",
                           "id d", "p =", "chr '\"'",           "p ;"};
        QTest::newRow("prefixed literals")
            << "L\"w\" u8\"x\" U'y' u'z' FOO\"s\""
            << QStringList{"str L\"w\"", "str u8\"x\"", "chr U'y'", "chr u'z'", "id FOO", "str \"s\""};
        QTest::newRow("raw string") << "R\"x(a)\"b\n)x\" z" << QStringList{"str R\"x(a)\"b\\n)x\"", "id z"};
        QTest::newRow("raw string holding a comment and a quote")
            << "u8R\"(// \" /*)\" z" << QStringList{"str u8R\"(// \" /*)\"", "id z"};
        QTest::newRow("comments skipped")
            << "a // __syncthreads();\nb /* ( { */ c" << QStringList{"id a", "id b", "id c"};
        QTest::newRow("a continued line comment")
            << "a // note \\\n b = 1;\nc" << QStringList{"id a", "id c"};
        QTest::newRow("a string holding a comment") << "\"// x\" y" << QStringList{"str \"// x\"", "id y"};
        QTest::newRow("a continuation between tokens") << "a \\\n b" << QStringList{"id a", "id b"};
        QTest::newRow("a continuation in a string")
            << "\"a\\\nb\" c" << QStringList{"str \"a\\\\nb\"", "id c"};
        QTest::newRow("include with quotes")
            << "#include \"x.h\"\nint"
            << QStringList{"dir #include \"x.h\"", "id include", "str \"x.h\"", "id int"};
        QTest::newRow("include with angles")
            << "  #  include <a/b.h> // why\nint"
            << QStringList{"dir #  include <a/b.h> // why", "id include", "hdr <a/b.h>", "id int"};
        QTest::newRow("angles elsewhere are punctuators")
            << "#if A<B\n"
            << QStringList{"dir #if A<B", "id if", "id A", "p <", "id B"};
        QTest::newRow("continued directive")
            << "#define A \\\n  1\nA"
            << QStringList{"dir #define A \\\\n  1", "id define", "id A", "num 1", "id A"};
        QTest::newRow("a comment spanning lines continues a directive")
            << "#define X /*\n*/ 1\nY"
            << QStringList{"dir #define X /*\\n*/ 1", "id define", "id X", "num 1", "id Y"};
        QTest::newRow("a comment before the hash")
            << "/* c */ #define X" << QStringList{"dir #define X", "id define", "id X"};
        QTest::newRow("a hash within a line") << "a # b" << QStringList{"id a", "p #", "id b"};
        QTest::newRow("a hash after a multi-line comment within a line")
            << "a /*\n*/ # b" << QStringList{"id a", "p #", "id b"};
        QTest::newRow("an empty directive") << "#\nx" << QStringList{"dir #", "id x"};
        QTest::newRow("token pasting") << "#define C(a, b) a##b" << QStringList{"dir #define C(a, b) a##b",
                                                                                "id define",
                                                                                "id C",
                                                                                "p (",
                                                                                "id a",
                                                                                "p ,",
                                                                                "id b",
                                                                                "p )",
                                                                                "id a",
                                                                                "p ##",
                                                                                "id b"};
    }
    void readsTokens() {
        QFETCH(QString, source);
        QFETCH(QStringList, tokens);
        QCOMPARE(describe(source.toStdString()), tokens);
    }

    void keepsCommentsWhenAsked() {
        const QStringList expected{
            "id a", "com // one \\\\n two", "id b", "com /* three */", "dir #x // four",
            "id x", "com // four"};
        QCOMPARE(describe("a // one \\\n two\nb /* three */\n#x // four", {.comments = true}), expected);
    }

    void reportsPositions_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QStringList>("positions"); // line:column of each token, then of End
        QTest::newRow("lines and columns") << "a\n  bc d" << QStringList{"1:1", "2:3", "2:6", "2:7"};
        QTest::newRow("after a continuation") << "a \\\n  b" << QStringList{"1:1", "2:3", "2:4"};
        QTest::newRow("after a block comment") << "/* \n\n */ x" << QStringList{"3:5", "3:6"};
        QTest::newRow("after a raw string") << "R\"(\n)\" x" << QStringList{"1:1", "2:4", "2:5"};
        QTest::newRow("after a continued string") << "\"a\\\nb\" x" << QStringList{"1:1", "2:4", "2:5"};
        QTest::newRow("crlf") << "a\r\nb" << QStringList{"1:1", "2:1", "2:2"};
        QTest::newRow("a directive and its tokens")
            << "x\n #if 1\ny" << QStringList{"1:1", "2:2", "2:3", "2:6", "3:1", "3:2"};
    }
    void reportsPositions() {
        QFETCH(QString, source);
        QFETCH(QStringList, positions);
        const std::string text = source.toStdString();
        Lexer lexer(text);
        QStringList found;
        for (Token token = lexer.next();; token = lexer.next()) {
            found << QString("%1:%2").arg(token.line).arg(token.column);
            if (token.kind == TokenKind::End) break;
        }
        QCOMPARE(found, positions);
    }

    void startsWhereAsked() {
        const std::string text = "int a;\n__global__ void k(int n) { }";
        Lexer lexer(text, {.offset = text.find("k("), .line = 2, .column = 17});
        const Token k = lexer.next();
        QCOMPARE(lexer.text(k), std::string_view("k"));
        QCOMPARE(k.line, 2);
        QCOMPARE(k.column, 17);
        QCOMPARE(lexer.next().column, 18);
        // Mid-line, a '#' opens no directive.
        Lexer midLine("a # b", {.offset = 2, .line = 1, .column = 3});
        QCOMPARE(midLine.next().kind, TokenKind::Punct);
    }

    void marksWhatItFinds_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("index"); // of the token looked at
        QTest::addColumn<QString>("flags");
        QTest::newRow("unterminated string") << "\"abc\nx" << 0 << "unterminated";
        QTest::newRow("unterminated char") << "'a" << 0 << "unterminated";
        QTest::newRow("unterminated raw string") << "R\"x(abc\n" << 0 << "unterminated raw";
        QTest::newRow("raw string") << "R\"(a)\"" << 0 << "raw";
        QTest::newRow("delimiter too long: an ordinary string")
            << "R\"12345678901234567(a)12345678901234567\"" << 0 << "";
        QTest::newRow("unterminated header name") << "#include <a\nb" << 2 << "unterminated space directive";
        QTest::newRow("unterminated comment, kept") << "a /* b" << 1 << "unterminated space";
        QTest::newRow("continuation before") << "a \\\nb" << 1 << "space splice";
        QTest::newRow("continuation in a comment is no splice between tokens")
            << "a // \\\n\nb" << 2 << "space";
        QTest::newRow("directive tokens") << "#define X 1\nY" << 3 << "space directive";
        QTest::newRow("after the directive") << "#define X 1\nY" << 4 << "space";
        QTest::newRow("glued") << "a+b" << 1 << "";
    }
    void marksWhatItFinds() {
        QFETCH(QString, source);
        QFETCH(int, index);
        QFETCH(QString, flags);
        const std::string text = source.toStdString();
        const auto tokens = Lexer(text, {.comments = true}).rest();
        QVERIFY(index < int(tokens.size()));
        const Token& token = tokens[std::size_t(index)];
        QStringList found;
        if (token.unterminated) found << "unterminated";
        if (token.raw) found << "raw";
        if (token.spaceBefore) found << "space";
        if (token.spliceBefore) found << "splice";
        if (token.inDirective) found << "directive";
        QCOMPARE(found.join(' '), flags);
    }

    // Every byte is in at most one token, in order, and positions agree with offsets.
    void coversTheSourceInOrder() {
        const std::string text = "#include <x>\n__global__ void k(float* a /* ( */, int n = '(') {\n"
                                 "  a[0] = 1.5e+3f; // }\n  auto s = R\"(\n})\"; __syncthreads();\n}\n";
        Lexer lexer(text, {.comments = true});
        std::size_t previousEnd = 0;
        for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next()) {
            QVERIFY(token.length > 0);
            QVERIFY(token.end() <= text.size());
            if (!token.inDirective || token.kind == TokenKind::Directive)
                QVERIFY(token.offset >= previousEnd);
            previousEnd = token.kind == TokenKind::Directive ? token.offset + 1 : token.end();
            const std::size_t lineStart = text.rfind('\n', token.offset == 0 ? 0 : token.offset - 1);
            const std::size_t column =
                lineStart == std::string::npos ? token.offset + 1 : token.offset - lineStart;
            QCOMPARE(std::size_t(token.column), column);
            QCOMPARE(token.line,
                     1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(token.offset), '\n')));
        }
    }

    void isLinearOnHostileInput_data() {
        QTest::addColumn<QString>("unit");
        QTest::newRow("comment openers") << "/*";
        QTest::newRow("line comments with continuations") << "//\\\n";
        QTest::newRow("directives") << "\n#define A \\\n";
        QTest::newRow("raw strings") << "R\"(x)\"";
        QTest::newRow("unterminated raw strings") << "R\"x(";
        QTest::newRow("quotes") << "\"'";
        QTest::newRow("hashes") << "\n#";
        QTest::newRow("includes") << "\n#include <";
    }
    void isLinearOnHostileInput() {
        QFETCH(QString, unit);
        const std::string piece = unit.toStdString();
        std::string text;
        while (text.size() < (10u << 20))
            text += piece;
        QElapsedTimer timer;
        timer.start();
        Lexer lexer(text, {.comments = true});
        std::size_t count = 0;
        while (lexer.next().kind != TokenKind::End)
            ++count;
        QVERIFY(count > 0);
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed()) + " ms"));
    }
};

QTEST_APPLESS_MAIN(TestLexer)
#include "tst_lexer.moc"
