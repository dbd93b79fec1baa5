// QScintilla's C++ lexer taught CUDA: qualifiers (__global__, __shared__...) as keywords, the built-in
// variables and vector types in a second colour, atomics, warp intrinsics and math functions in a third.
// KernelEditor uses it; its word lists come from the same file as the autocompletion (cuda.api).
// Its colours are drawn for the light theme and adapted to the others by applyAppearance().
#pragma once

#include <QByteArray>
#include <Qsci/qscilexercpp.h>

struct Appearance;

class CudaLexer : public QsciLexerCPP {
    Q_OBJECT
public:
    explicit CudaLexer(QObject* parent = nullptr);
    const char* keywords(int set) const override;
    const char* language() const override { return "CUDA"; }
    QColor defaultColor(int style) const override; // the light theme's colours

    // Every style's colour and paper for `appearance` (text on paper at least 4.5:1, 7:1 in high contrast).
    void applyAppearance(const Appearance& appearance);

private:
    QByteArray primary_, builtins_, functions_;
};
