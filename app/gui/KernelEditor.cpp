#include "KernelEditor.h"

#include "Appearance.h"
#include "CudaLexer.h"

#include <QColor>
#include <QFontInfo>
#include <QKeyEvent>
#include <QScrollBar>
#include <QToolTip>
#include <Qsci/qsciapis.h>
#include <Qsci/qscistyle.h>
#include <cmath>
#include <tuple>

using kp::model::Diagnostic;

namespace {

// The annotations' colours in the light theme.
const QColor kErrorText(0x8a, 0x10, 0x10), kErrorPaper(0xfd, 0xe8, 0xe8);
const QColor kWarningText(0x6a, 0x48, 0x00), kWarningPaper(0xfd, 0xf4, 0xdc);

QFont annotationFontOf(const QsciLexer* lexer) {
    QFont font = lexer->defaultFont(0);
    font.setItalic(true);
    return font;
}

} // namespace

bool KernelEditor::event(QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool popupOpen = isListActive() || SendScintilla(SCI_CALLTIPACTIVE) != 0;
        if (key->key() == Qt::Key_Escape && key->modifiers() == Qt::NoModifier && !popupOpen) {
            event->ignore(); // not overridden: the shortcut (Stop) gets it, or else the editor as a key
            return false;
        }
    }
    return QsciScintilla::event(event);
}

KernelEditor::KernelEditor(QWidget* parent)
    : QsciScintilla(parent),
      // Annotation styles live past the lexer's styles (QsciStyle numbers them from the top down).
      errorStyle_(-1, QStringLiteral("error"), kErrorText, kErrorPaper, QFont()),
      warningStyle_(-1, QStringLiteral("warning"), kWarningText, kWarningPaper, QFont()) {
    auto* lexer = new CudaLexer(this);
    setLexer(lexer);
    setUtf8(true);
    setMarginType(0, NumberMargin); // its width follows the font: applyAppearance()
    setMarginType(1, SymbolMargin);
    setMarginWidth(1, 16);
    setMarginMarkerMask(1, (1 << kErrorMarker) | (1 << kWarningMarker));
    setMarginSensitivity(1, false);
    setFolding(BoxedTreeFoldStyle, 2);
    setBraceMatching(SloppyBraceMatch);
    setAutoIndent(true);
    setIndentationsUseTabs(false);
    setTabWidth(4);
    setCaretLineVisible(true);

    // Autocompletion and call tips from the built-ins' list, after two typed characters.
    apis_ = new QsciAPIs(lexer);
    apis_->load(QStringLiteral(":/editor/cuda.api"));
    apis_->prepare();
    setAutoCompletionSource(AcsAll);
    setAutoCompletionThreshold(2);
    setAutoCompletionCaseSensitivity(true);
    setCallTipsStyle(CallTipsNoContext);
    setCallTipsVisible(0);

    markerDefine(Circle, kErrorMarker);
    setMarkerBackgroundColor(QColor(0xd0, 0x21, 0x21), kErrorMarker);
    setMarkerForegroundColor(QColor(0x80, 0x10, 0x10), kErrorMarker);
    markerDefine(Circle, kWarningMarker);
    setMarkerBackgroundColor(QColor(0xe0, 0x9a, 0x10), kWarningMarker);
    setMarkerForegroundColor(QColor(0x80, 0x58, 0x00), kWarningMarker);
    indicatorDefine(SquiggleIndicator, kErrorIndicator);
    setIndicatorForegroundColor(QColor(0xd0, 0x21, 0x21), kErrorIndicator);
    indicatorDefine(SquiggleIndicator, kWarningIndicator);
    setIndicatorForegroundColor(QColor(0xc0, 0x80, 0x00), kWarningIndicator);

    errorStyle_.setFont(annotationFontOf(lexer));
    warningStyle_.setFont(annotationFontOf(lexer));
    setAnnotationDisplay(AnnotationBoxed);
    applyAppearance(currentAppearance());

    SendScintilla(SCI_SETMOUSEDWELLTIME, 400);
    connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, &KernelEditor::showHover);
    connect(this, &QsciScintillaBase::SCN_DWELLEND, this, [] { QToolTip::hideText(); });
}

void KernelEditor::applyAppearance(const Appearance& appearance) {
    auto* lexer = static_cast<CudaLexer*>(this->lexer());
    lexer->applyAppearance(appearance);
    const ThemeColors c = colorsOf(appearance);
    setCaretLineBackgroundColor(c.caretLine);
    setCaretForegroundColor(c.text);
    setMarginsBackgroundColor(c.margin);
    setMarginsForegroundColor(c.marginText);
    setFoldMarginColors(c.margin, c.margin);
    setSelectionBackgroundColor(c.selection);
    setMatchedBraceBackgroundColor(adaptBackground(QColor(0xc8, 0xf0, 0xc8), appearance));
    setMatchedBraceForegroundColor(c.text);
    setCallTipsBackgroundColor(c.base);
    setCallTipsForegroundColor(c.mutedText);
    setIndentationGuidesBackgroundColor(c.margin);
    setIndentationGuidesForegroundColor(c.marginText);
    for (auto [style, text, paper] : {std::tuple{&errorStyle_, kErrorText, kErrorPaper},
                                      std::tuple{&warningStyle_, kWarningText, kWarningPaper}}) {
        const QColor themedPaper = adaptBackground(paper, appearance);
        style->setPaper(themedPaper);
        style->setColor(adaptForeground(text, themedPaper, appearance));
        style->apply(this);
    }
    // Presentation zooms every style by the same number of points; leaving it restores the user's zoom.
    if (appearance.presentation && !presenting_) {
        zoomBeforePresentation_ = static_cast<int>(SendScintilla(SCI_GETZOOM));
        const double points = QFontInfo(lexer->defaultFont(0)).pointSizeF();
        zoomTo(static_cast<int>(std::lround(points * (appearance.fontScale() - 1))));
    } else if (!appearance.presentation && presenting_) {
        zoomTo(zoomBeforePresentation_);
    }
    presenting_ = appearance.presentation;
    setMarginWidth(0, QStringLiteral("00000")); // line numbers to 99999, at the zoomed size
}

QSize KernelEditor::sizeFor(int columns, int lines) {
    long margins = SendScintilla(SCI_GETMARGINLEFT) + SendScintilla(SCI_GETMARGINRIGHT);
    for (unsigned long margin = 0; margin < 5; ++margin)
        margins += SendScintilla(SCI_GETMARGINWIDTHN, margin);
    // Digits are as wide as any character in a monospaced font; ten of them average out the rounding.
    const long ten = SendScintilla(SCI_TEXTWIDTH, 0UL, "0000000000");
    const long line = SendScintilla(SCI_TEXTHEIGHT, 0UL);
    const int frame = 2 * frameWidth();
    return {static_cast<int>(margins + (ten * columns + 9) / 10) + verticalScrollBar()->sizeHint().width() +
                frame,
            static_cast<int>(line * lines) + horizontalScrollBar()->sizeHint().height() + frame};
}

int KernelEditor::lineFor(const Diagnostic& diagnostic) const {
    return std::clamp(diagnostic.line - 1, 0, std::max(0, lines() - 1));
}

void KernelEditor::setDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    diagnostics_ = diagnostics;
    markerDeleteAll(kErrorMarker);
    markerDeleteAll(kWarningMarker);
    clearAnnotations();
    const int lastLine = std::max(0, lines() - 1);
    clearIndicatorRange(0, 0, lastLine, lineLength(lastLine), kErrorIndicator);
    clearIndicatorRange(0, 0, lastLine, lineLength(lastLine), kWarningIndicator);

    // One annotation per line, holding every message of that line, errors first.
    std::map<int, QStringList> annotations;
    std::map<int, bool> lineHasError;
    for (const auto& d : diagnostics_) {
        if (d.line <= 0) continue;
        const int line = lineFor(d);
        const bool error = d.severity == Diagnostic::Severity::Error;
        markerAdd(line, error ? kErrorMarker : kWarningMarker);
        // The squiggle runs from the column to the end of the word there (at least one character).
        const int length = lineLength(line);
        int start = std::clamp(d.column - 1, 0, std::max(0, length - 1));
        const QString text = this->text(line);
        if (d.column <= 0) { // no column: the line's text, without its indentation
            while (start < text.size() && text[start].isSpace())
                ++start;
        }
        int end = start;
        while (end < text.size() && (text[end].isLetterOrNumber() || text[end] == QLatin1Char('_')))
            ++end;
        if (end == start)
            end = std::min<int>(start + 1,
                                static_cast<int>(text.trimmed().isEmpty() ? start + 1 : text.size()));
        if (d.column <= 0)
            end = static_cast<int>(text.trimmed().isEmpty() ? start + 1
                                                            : text.size() - (text.endsWith('\n') ? 1 : 0));
        fillIndicatorRange(line, start, line, end, error ? kErrorIndicator : kWarningIndicator);
        const QString message = QStringLiteral("%1: %2").arg(
            QString::fromUtf8(kp::model::toString(d.severity)), QString::fromStdString(d.message));
        if (error) {
            annotations[line].prepend(message);
            lineHasError[line] = true;
        } else {
            annotations[line].append(message);
        }
    }
    for (const auto& [line, messages] : annotations)
        annotate(line, messages.join(QLatin1Char('\n')),
                 lineHasError[line] ? errorStyle_.style() : warningStyle_.style());
}

bool KernelEditor::hasErrorMarker(int line) const {
    return (markersAtLine(line - 1) & (1 << kErrorMarker)) != 0;
}
bool KernelEditor::hasWarningMarker(int line) const {
    return (markersAtLine(line - 1) & (1 << kWarningMarker)) != 0;
}
QString KernelEditor::annotationText(int line) const {
    return annotation(line - 1);
}

QString KernelEditor::hoverText(int line) const {
    QStringList messages;
    for (const auto& d : diagnostics_)
        if (d.line > 0 && lineFor(d) == line - 1)
            messages << QStringLiteral("%1:%2: %3: %4")
                            .arg(d.line)
                            .arg(d.column)
                            .arg(QString::fromUtf8(kp::model::toString(d.severity)),
                                 QString::fromStdString(d.message));
    return messages.join(QLatin1Char('\n'));
}

bool KernelEditor::hasSquiggle(int line, int column) const {
    const long position = positionFromLineIndex(line - 1, column - 1);
    auto* self =
        const_cast<KernelEditor*>(this); // SendScintilla is not const; reading an indicator changes nothing
    const auto at = [&](int indicator) {
        return self->SendScintilla(SCI_INDICATORVALUEAT, static_cast<unsigned long>(indicator), position) !=
               0;
    };
    return at(kErrorIndicator) || at(kWarningIndicator);
}

void KernelEditor::jumpTo(int line, int column) {
    setCursorPosition(std::max(0, line - 1), std::max(0, column - 1));
    ensureLineVisible(std::max(0, line - 1));
    setFocus();
}

void KernelEditor::showHover(int position, int x, int y) {
    if (position < 0) return;
    int line = 0, index = 0;
    lineIndexFromPosition(position, &line, &index);
    const QString text = hoverText(line + 1);
    if (!text.isEmpty()) QToolTip::showText(mapToGlobal(QPoint(x, y)), text, this);
}
