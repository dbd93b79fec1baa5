// The compiled code of the kernel: PTX and SASS side by side in tabs, each line marked with the source
// line it came from (with "Source lines (-lineinfo)" on), and a table of every kernel's registers, stack,
// shared memory and spills, for an architecture the user picks. It compiles nothing itself: it asks,
// and the main window has the worker compile (a worker::DisassembleRequest).
//
// Wiring it in MainWindow (codeTask_ a WorkerTask of its own, codeId_ a quint64):
//   connect(code, &CompiledCodeView::compileRequested, this, [this](const QString& arch, bool lineInfo) {
//       worker::DisassembleRequest request; // playground and path as compileNow() sets them, then:
//       request.arch = arch.toStdString(); // empty: the GPU's own, or sm_90 without a GPU
//       request.lineInfo = lineInfo;
//       codeId_ = codeTask_.submit({std::move(request)}, true);
//   });
//   connect(&codeTask_, &WorkerTask::finished, this, [this, code](quint64 id, const WorkerResultPtr& r) {
//       if (id != codeId_) return;
//       if (r->compiledCode) code->showResult(*r->compiledCode);
//       else code->showError(QString::fromStdString(r->message));
//   });
// and both ways between the code and the editor (these lines are 1-based, QScintilla's 0-based):
//   connect(code, &CompiledCodeView::sourceLineActivated, this, [this](int line) {
//       editor_->setCursorPosition(line - 1, 0);
//       editor_->ensureLineVisible(line - 1);
//   });
//   connect(editor_, &QsciScintilla::cursorPositionChanged, code,
//           [code](int line, int) { code->highlightSourceLine(line + 1); });
// (Not KernelEditor::jumpTo: it takes the focus, which would end browsing the code with the keys.)
#pragma once

#include "core/run/CompiledCode.h"

#include <QWidget>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTabWidget;

class CompiledCodeView : public QWidget {
    Q_OBJECT
public:
    enum class Listing { Ptx, Sass };

    explicit CompiledCodeView(QWidget* parent = nullptr);

    // The real architectures to offer (NVRTC's, as numbers: 75, 80, ...) and the GPU's own ("sm_90", or
    // empty without one), which is marked. Until a result says otherwise, CUDA 13's list is offered.
    // The choice stays where it is when it is still offered.
    void setArchitectures(const std::vector<int>& archs, const QString& deviceArch);
    QString architecture() const; // "sm_86", or empty for the default (the GPU's own, or sm_90)
    bool lineInfo() const;

    // The code that is shown, and the indexes of the lines highlighted in a listing (highlightSourceLine).
    const kp::run::CompiledCode& code() const { return code_; }
    std::vector<int> highlightedLines(Listing listing) const;
    // The source line the line at `index` of a listing came from; 0 when none is known.
    int sourceLineAt(Listing listing, int index) const;

    QComboBox* architectureBox() const { return arch_; }
    QCheckBox* lineInfoBox() const { return lineInfo_; }
    QPushButton* compileButton() const { return compile_; }
    QTabWidget* tabs() const { return tabs_; }
    QPlainTextEdit* view(Listing listing) const;
    QTableWidget* kernelTable() const { return kernels_; }
    QString statusText() const;

public slots:
    // The worker's answer to compileRequested: shows it and ends the busy state.
    void showResult(const kp::run::CompiledCode& code);
    // The request failed (the source does not compile, no NVRTC, ...): `message` says why; the code
    // shown before stays, marked as out of date.
    void showError(const QString& message);
    // Highlights, in both listings, the lines compiled from source line `line` (1-based; 0 clears), and
    // brings the first into view unless the cursor is already on one of them.
    void highlightSourceLine(int line);

signals:
    // Compile/Refresh was pressed, or the architecture or line info changed after a first compile.
    void compileRequested(const QString& arch, bool lineInfo);
    // A line of PTX or SASS was clicked (or reached with the keys) whose source line is known.
    void sourceLineActivated(int line);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void requestCompile();
    void fill(Listing listing, const kp::cuda::CodeListing& lines);
    void showKernels();
    void showKernel(int row);
    void cursorMoved(Listing listing);
    const kp::cuda::CodeListing& listingOf(Listing listing) const;

    QComboBox* arch_;
    QCheckBox* lineInfo_;
    QPushButton* compile_;
    QLabel* status_;
    QTableWidget* kernels_;
    QTabWidget* tabs_;
    QPlainTextEdit* ptx_;
    QPlainTextEdit* sass_;
    kp::run::CompiledCode code_;
    bool compiled_ = false; // a result or an error was shown: changing a setting compiles again
    bool moving_ = false;   // the view moves a cursor itself: not the user's activation
    int highlighted_ = 0;
};
