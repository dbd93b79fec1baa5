// QScintilla's C++ lexer taught CUDA: qualifiers (__global__, __shared__...) as keywords, the built-in
// variables and vector types in a second colour, atomics, warp intrinsics and math functions in a third.
// KernelEditor uses it; its word lists come from the same file as the autocompletion (cuda.api).
#pragma once

#include <QByteArray>
#include <Qsci/qscilexercpp.h>

class CudaLexer : public QsciLexerCPP {
    Q_OBJECT
public:
    explicit CudaLexer(QObject* parent = nullptr);
    const char* keywords(int set) const override;
    const char* language() const override { return "CUDA"; }

private:
    QByteArray primary_, builtins_, functions_;
};
