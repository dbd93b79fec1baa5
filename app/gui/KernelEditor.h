// The CUDA editor: QScintilla with the CUDA lexer, line numbers, folding, brace matching,
// autocompletion and call tips for the built-ins (resources/editor/cuda.api), and the compiler's
// diagnostics drawn where they belong: a marker in the margin, a squiggle at the column, the message as
// an annotation under the line and as hover text. Editing concerns only; MainWindow decides what to show.
#pragma once

#include "core/model/Diagnostic.h"

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>
#include <vector>

class QsciAPIs;
struct Appearance;

class KernelEditor : public QsciScintilla {
    Q_OBJECT
public:
    explicit KernelEditor(QWidget* parent = nullptr);

    // Replaces the diagnostics shown (an empty list clears them). Lines past the end are shown on the
    // last line; a diagnostic without a line is not drawn in the text (the problems list has it).
    void setDiagnostics(const std::vector<kp::model::Diagnostic>& diagnostics);
    const std::vector<kp::model::Diagnostic>& diagnostics() const { return diagnostics_; }

    // What the editor draws, for tests and for the hover text. `line` is 1-based.
    bool hasErrorMarker(int line) const;
    bool hasWarningMarker(int line) const;
    QString annotationText(int line) const;
    QString hoverText(int line) const;
    // Whether the squiggle covers the character at (line, column), both 1-based.
    bool hasSquiggle(int line, int column) const;

    // Puts the cursor at the start of `line` (1-based), column `column` (1-based, 0: first), and shows it.
    void jumpTo(int line, int column = 0);

    QsciAPIs* apis() const { return apis_; }

    // The size the editor needs to show `columns` columns and `lines` lines of code at its present font
    // and zoom, with its margins, scroll bars and frame.
    QSize sizeFor(int columns, int lines);

    // Colours for the appearance's theme, and presentation's larger text (a zoom on every style, so the
    // user's own zoom comes back when it ends). Applied on construction and by applyAppearance(Appearance).
    void applyAppearance(const Appearance& appearance);

    static constexpr int kErrorMarker = 1;
    static constexpr int kWarningMarker = 2;
    static constexpr int kErrorIndicator = 8;
    static constexpr int kWarningIndicator = 9;

protected:
    // Esc belongs to the window's Stop (a run goes on while the editor has focus) unless a completion list
    // or a call tip is open: Scintilla claims every key it binds, Esc included.
    bool event(QEvent* event) override;

private:
    void showHover(int position, int x, int y);
    int lineFor(const kp::model::Diagnostic& diagnostic) const; // 0-based, clamped to the text

    QsciAPIs* apis_;
    std::vector<kp::model::Diagnostic> diagnostics_;
    QsciStyle errorStyle_, warningStyle_; // annotations
    int zoomBeforePresentation_ = 0;
    bool presenting_ = false;
};
