#include "CompiledCodeView.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFont>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QVBoxLayout>
#include <algorithm>

namespace {

// NVRTC 13's real architectures: offered until the worker's first answer brings this NVRTC's own.
const std::vector<int> kCuda13Archs = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};

enum Column { Name, Registers, Stack, Shared, SpillStores, SpillLoads, Columns };

// Eight spaces of the view's font per tab, as nvdisasm and NVRTC lay out their columns.
void setTabStops(QPlainTextEdit* view) {
    view->setTabStopDistance(view->fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 8);
}

QPlainTextEdit* codeView(QWidget* parent) {
    auto* view = new QPlainTextEdit(parent);
    view->setReadOnly(true);
    // Selectable by keyboard too: moving through the code with the arrow keys follows it in the source.
    view->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setUndoRedoEnabled(false);
    // The editor's font: the desktop's "fixed" font is not always fixed (it was not on the GPU machine).
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    mono.setFixedPitch(true);
    view->setFont(mono);
    setTabStops(view);
    view->installEventFilter(parent); // the tab stops follow the font (CompiledCodeView::eventFilter)
    return view;
}

QTableWidgetItem* numberItem(int value) {
    auto* item = new QTableWidgetItem(QString::number(value));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

CompiledCodeView::CompiledCodeView(QWidget* parent)
    : QWidget(parent), arch_(new QComboBox(this)),
      lineInfo_(new QCheckBox(tr("Source lines (-lineinfo)"), this)),
      compile_(new QPushButton(tr("Compile"), this)), status_(new QLabel(this)),
      kernels_(new QTableWidget(0, Columns, this)), tabs_(new QTabWidget(this)), ptx_(codeView(this)),
      sass_(codeView(this)) {
    arch_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    arch_->setToolTip(
        tr("The GPU architecture to compile for: its SASS and register counts differ from one to the next"));
    lineInfo_->setChecked(true);
    lineInfo_->setToolTip(
        tr("Compile with -lineinfo, so that each line of PTX and SASS shows the source line it came from"));
    compile_->setToolTip(tr("Compile the kernel as it is in the editor and show its code"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setText(tr("Compile to see the PTX and SASS of the kernel and the registers each kernel uses."));
    setArchitectures(kCuda13Archs, {});

    kernels_->setHorizontalHeaderLabels(
        {tr("Kernel"), tr("Registers"), tr("Stack"), tr("Shared"), tr("Spill stores"), tr("Spill loads")});
    const QString tips[Columns] = {
        tr("Every kernel of the source; choose one to go to its code"),
        tr("Registers per thread: more of them leaves room for fewer threads per multiprocessor"),
        tr("Stack frame, bytes per thread (in local memory)"),
        tr("Static shared memory, bytes per block"),
        tr("Bytes per thread stored to local memory for want of registers"),
        tr("Bytes per thread loaded back from local memory for want of registers")};
    for (int c = 0; c < Columns; ++c)
        kernels_->horizontalHeaderItem(c)->setToolTip(tips[c]);
    kernels_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    kernels_->setSelectionBehavior(QAbstractItemView::SelectRows);
    kernels_->setSelectionMode(QAbstractItemView::SingleSelection);
    kernels_->verticalHeader()->hide();
    kernels_->horizontalHeader()->setStretchLastSection(false);
    kernels_->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Stretch);
    for (int c = Registers; c < Columns; ++c)
        kernels_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);

    ptx_->setPlaceholderText(tr("The PTX, the compiler's portable assembly of the kernel, appears here."));
    sass_->setPlaceholderText(tr("The SASS, the GPU's own instructions, appears here."));
    tabs_->addTab(ptx_, tr("PTX"));
    tabs_->addTab(sass_, tr("SASS"));

    auto* settings = new QHBoxLayout;
    auto* archLabel = new QLabel(tr("&Architecture:"), this);
    archLabel->setBuddy(arch_);
    settings->addWidget(archLabel);
    settings->addWidget(arch_);
    settings->addWidget(lineInfo_);
    settings->addWidget(compile_);
    settings->addStretch(1);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(kernels_);
    splitter->addWidget(tabs_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 4);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(settings);
    layout->addWidget(status_);
    layout->addWidget(splitter, 1);

    connect(compile_, &QPushButton::clicked, this, &CompiledCodeView::requestCompile);
    const auto settingChanged = [this] {
        if (compiled_) requestCompile();
    };
    connect(arch_, &QComboBox::currentIndexChanged, this, settingChanged);
    connect(lineInfo_, &QCheckBox::toggled, this, settingChanged);
    connect(ptx_, &QPlainTextEdit::cursorPositionChanged, this, [this] { cursorMoved(Listing::Ptx); });
    connect(sass_, &QPlainTextEdit::cursorPositionChanged, this, [this] { cursorMoved(Listing::Sass); });
    connect(kernels_, &QTableWidget::currentCellChanged, this, [this](int row) { showKernel(row); });
}

void CompiledCodeView::setArchitectures(const std::vector<int>& archs, const QString& deviceArch) {
    const QString chosen = architecture();
    const QSignalBlocker quiet(arch_); // not the user's choice: nothing to compile again
    arch_->clear();
    arch_->addItem(tr("Default"), QString());
    arch_->setItemData(0, tr("The GPU's own architecture; sm_90 on a machine without a GPU"),
                       Qt::ToolTipRole);
    for (const int number : archs) {
        const QString arch = QStringLiteral("sm_%1").arg(number);
        arch_->addItem(arch == deviceArch ? tr("%1 (this GPU)").arg(arch) : arch, arch);
    }
    arch_->setCurrentIndex(std::max(0, arch_->findData(chosen)));
}

QString CompiledCodeView::architecture() const {
    return arch_->currentData().toString();
}

bool CompiledCodeView::lineInfo() const {
    return lineInfo_->isChecked();
}

QPlainTextEdit* CompiledCodeView::view(Listing listing) const {
    return listing == Listing::Ptx ? ptx_ : sass_;
}

const kp::cuda::CodeListing& CompiledCodeView::listingOf(Listing listing) const {
    return listing == Listing::Ptx ? code_.ptx : code_.sass;
}

QString CompiledCodeView::statusText() const {
    return status_->text();
}

void CompiledCodeView::requestCompile() {
    compile_->setEnabled(false);
    const QString arch = architecture();
    status_->setText(arch.isEmpty() ? tr("Compiling...") : tr("Compiling for %1...").arg(arch));
    emit compileRequested(arch, lineInfo());
}

void CompiledCodeView::showResult(const kp::run::CompiledCode& code) {
    code_ = code;
    compiled_ = true;
    compile_->setEnabled(true);
    compile_->setText(tr("Refresh"));
    if (!code.supportedArchs.empty())
        setArchitectures(code.supportedArchs, QString::fromStdString(code.deviceArch));
    arch_->setItemText(
        0, tr("Default (%1)").arg(QString::fromStdString(code.arch))); // what the default turned out to be
    fill(Listing::Ptx, code.ptx);
    fill(Listing::Sass, code.sass);
    const QString whySass = QString::fromStdString(code.sassUnavailable);
    sass_->setPlaceholderText(
        whySass.isEmpty() ? tr("The compiler made no SASS (machine code) for this kernel.") : whySass);
    tabs_->setTabToolTip(1, whySass);
    showKernels();
    const auto kernels = static_cast<qulonglong>(code.kernels.size());
    const QString arch = QString::fromStdString(code.arch);
    QString status;
    if (code.fromCache)
        status = kernels == 1
                     ? tr("%1: 1 kernel, unchanged since the last compile").arg(arch)
                     : tr("%1: %L2 kernels, unchanged since the last compile").arg(arch).arg(kernels);
    else
        status = kernels == 1 ? tr("%1: 1 kernel, compiled in %2 ms").arg(arch).arg(code.compileMs, 0, 'f', 0)
                              : tr("%1: %L2 kernels, compiled in %3 ms")
                                    .arg(arch)
                                    .arg(kernels)
                                    .arg(code.compileMs, 0, 'f', 0);
    if (!code.lineInfo)
        status += QStringLiteral(" — ") +
                  tr("Tick Source lines to see which source line each line of code comes from.");
    else if (!whySass.isEmpty())
        status += QStringLiteral(" — ") + tr("No SASS this time: the SASS tab says why.");
    status_->setText(status);
    highlightSourceLine(highlighted_);
}

void CompiledCodeView::showError(const QString& message) {
    compiled_ = true;
    compile_->setEnabled(true);
    status_->setText(code_.ptx.empty()
                         ? tr("Not compiled: %1").arg(message)
                         : tr("Not compiled: %1 The code shown is from the last compile.").arg(message));
}

void CompiledCodeView::fill(Listing listing, const kp::cuda::CodeListing& lines) {
    // A margin of source line numbers, where there are any, shows at a glance where each line comes from.
    int widest = 0;
    for (const auto& line : lines.lines())
        widest = std::max(widest, line.sourceLine);
    const int width = widest > 0 ? static_cast<int>(QString::number(widest).size()) : 0;
    QStringList text;
    text.reserve(static_cast<qsizetype>(lines.lines().size()));
    for (const auto& line : lines.lines()) {
        const QString code = QString::fromStdString(line.text);
        if (width == 0) {
            text << code;
            continue;
        }
        const QString number = line.sourceLine > 0 ? QString::number(line.sourceLine) : QString();
        text << QStringLiteral("%1  ").arg(number, width) + code;
    }
    moving_ = true;
    view(listing)->setPlainText(text.join(QLatin1Char('\n')));
    moving_ = false;
}

void CompiledCodeView::showKernels() {
    const QSignalBlocker quiet(kernels_);
    kernels_->clearContents();
    kernels_->setRowCount(static_cast<int>(code_.kernels.size()));
    int chosen = 0;
    for (int row = 0; row < kernels_->rowCount(); ++row) {
        const auto& k = code_.kernels[static_cast<std::size_t>(row)];
        auto* name = new QTableWidgetItem(QString::fromStdString(k.displayName));
        name->setData(Qt::UserRole, QString::fromStdString(k.name));
        QString tip = QString::fromStdString(k.name);
        if (k.constBytes >= 0) tip += QLatin1Char('\n') + tr("Constant memory: %1 bytes").arg(k.constBytes);
        if (k.barriers > 0) tip += QLatin1Char('\n') + tr("Barriers: %1").arg(k.barriers);
        name->setToolTip(tip);
        kernels_->setItem(row, Name, name);
        kernels_->setItem(row, Registers, numberItem(k.registers));
        kernels_->setItem(row, Stack, numberItem(k.stackBytes));
        kernels_->setItem(row, Shared, numberItem(k.sharedBytes));
        kernels_->setItem(row, SpillStores, numberItem(k.spillStoreBytes));
        kernels_->setItem(row, SpillLoads, numberItem(k.spillLoadBytes));
        // Spills cost memory traffic: they stand out.
        for (const int c : {SpillStores, SpillLoads}) {
            if (kernels_->item(row, c)->text() == QLatin1String("0")) continue;
            QFont bold = kernels_->font();
            bold.setBold(true);
            kernels_->item(row, c)->setFont(bold);
        }
        if (k.name == code_.kernel) chosen = row;
    }
    if (kernels_->rowCount() == 0) return;
    kernels_->selectRow(chosen);
    showKernel(chosen);
}

void CompiledCodeView::showKernel(int row) {
    const auto* item = row >= 0 ? kernels_->item(row, Name) : nullptr;
    if (!item) return;
    const std::string name = item->data(Qt::UserRole).toString().toStdString();
    for (const auto listing : {Listing::Ptx, Listing::Sass}) {
        const auto* function = listingOf(listing).function(name);
        if (!function) continue;
        auto* v = view(listing);
        moving_ = true;
        v->setTextCursor(QTextCursor(v->document()->findBlockByNumber(static_cast<int>(function->first))));
        moving_ = false;
        v->verticalScrollBar()->setValue(
            static_cast<int>(function->first)); // at the top: lines scroll one by one
    }
}

void CompiledCodeView::cursorMoved(Listing listing) {
    if (moving_) return;
    const int line = sourceLineAt(listing, view(listing)->textCursor().blockNumber());
    if (line <= 0) return;
    highlightSourceLine(line);
    emit sourceLineActivated(line);
}

int CompiledCodeView::sourceLineAt(Listing listing, int index) const {
    const auto& lines = listingOf(listing).lines();
    return index >= 0 && static_cast<std::size_t>(index) < lines.size()
               ? lines[static_cast<std::size_t>(index)].sourceLine
               : 0;
}

void CompiledCodeView::highlightSourceLine(int line) {
    highlighted_ = line;
    // The palette's selection colour, faded: readable under the text in the light and the dark theme.
    QColor shade = palette().color(QPalette::Highlight);
    shade.setAlpha(110);
    for (const auto listing : {Listing::Ptx, Listing::Sass}) {
        auto* v = view(listing);
        const auto indexes = listingOf(listing).linesFrom(line);
        QList<QTextEdit::ExtraSelection> selections;
        for (const auto index : indexes) {
            QTextEdit::ExtraSelection selection;
            selection.cursor = QTextCursor(v->document()->findBlockByNumber(static_cast<int>(index)));
            selection.format.setBackground(shade);
            selection.format.setProperty(QTextFormat::FullWidthSelection, true);
            selections << selection;
        }
        v->setExtraSelections(selections);
        const auto current = static_cast<std::size_t>(v->textCursor().blockNumber());
        if (indexes.empty() || std::find(indexes.begin(), indexes.end(), current) != indexes.end()) continue;
        moving_ = true;
        v->setTextCursor(QTextCursor(v->document()->findBlockByNumber(static_cast<int>(indexes.front()))));
        v->centerCursor();
        moving_ = false;
    }
}

std::vector<int> CompiledCodeView::highlightedLines(Listing listing) const {
    std::vector<int> lines;
    for (const auto& selection : view(listing)->extraSelections())
        lines.push_back(selection.cursor.blockNumber());
    return lines;
}

bool CompiledCodeView::eventFilter(QObject* watched, QEvent* event) {
    // Presentation mode scales the listings' font: the tab stops follow it.
    if (auto* view = qobject_cast<QPlainTextEdit*>(watched); view && event->type() == QEvent::FontChange)
        setTabStops(view);
    return QWidget::eventFilter(watched, event);
}
