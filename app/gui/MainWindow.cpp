#include "MainWindow.h"

#include "ArgumentPanel.h"
#include "BackendChooser.h"
#include "HelpDialog.h"
#include "CompiledCodeView.h"
#include "KernelEditor.h"
#include "Language.h"
#include "LaunchPanel.h"
#include "LessonView.h"
#include "ProblemsView.h"
#include "ResultsView.h"
#include "SamplesBrowser.h"
#include "SweepView.h"
#include "TimingsView.h"

#include "core/io/FileBytes.h"
#include "core/sandbox/Confinement.h"
#include "core/io/PlaygroundFile.h"
#include "core/model/SignatureParser.h"
#include "core/run/Check.h"
#include "core/run/GridCoverage.h"
#include "core/launch/LaunchGeometry.h"
#include "core/run/SweepResult.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>
#include <Qsci/qscilexer.h>
#include <algorithm>
#include <span>

using namespace kp;

namespace {

constexpr int kMaxRecent = 10;

QString fromUtf8(const std::string& text) { return QString::fromStdString(text); }

// The kernel the playground names, by its base name ("scale" for "scale<float>"), else the only one.
const model::KernelSignature* chooseKernel(const model::ParseResult& parsed, const std::string& name) {
    const std::string base = name.substr(0, name.find('<'));
    if (const auto* kernel = model::findKernel(parsed, base)) return kernel;
    return parsed.kernels.size() == 1 ? &parsed.kernels.front() : nullptr;
}

model::Shape firstArrayShape(const std::vector<model::ArgumentSpec>& args) {
    for (const auto& arg : args)
        if (arg.isArray()) return arg.array().shape;
    return {};
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), editor_(new KernelEditor(this)), compileNotice_(new QLabel(this)), findBar_(new QLineEdit(this)),
      problems_(new ProblemsView(this)), arguments_(new ArgumentPanel(this)), launch_(new LaunchPanel(this)),
      results_(new ResultsView(this)), timings_(new TimingsView(this)), samples_(new SamplesBrowser(this)), lesson_(new LessonView(this)),
      sweep_(new SweepView(this)),
      output_(new QPlainTextEdit(this)), backends_(new BackendChooser(this)), repeat_(new QSpinBox(this)),
      state_(new QLabel(this)), busy_(new QProgressBar(this)) {
    setWindowTitle(tr("Kernelpad"));
    // A playground from someone else chooses its own compile options: they are shown when it opens,
    // before anything is compiled or run (opening never runs anything).
    compileNotice_->setWordWrap(true);
    compileNotice_->setStyleSheet(QStringLiteral("QLabel { background: #fff4ce; color: #3b2f00; padding: 6px; }"));
    compileNotice_->hide();
    findBar_->setPlaceholderText(tr("Find (Enter: next, Esc: close)"));
    findBar_->hide();
    connect(findBar_, &QLineEdit::returnPressed, this, &MainWindow::findNext);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(compileNotice_);
    layout->addWidget(editor_);
    layout->addWidget(findBar_);
    setCentralWidget(central);
    output_->setReadOnly(true);
    output_->setMaximumBlockCount(20000);
    output_->setFont(editor_->lexer()->defaultFont(0));
    repeat_->setRange(1, 1000);
    repeat_->setValue(5);
    repeat_->setPrefix(tr("repeat "));
    repeat_->setToolTip(tr("Timed runs: the timings show their spread"));
    busy_->setRange(0, 0);
    busy_->setMaximumWidth(120);
    busy_->hide();
    statusBar()->addPermanentWidget(state_);
    statusBar()->addPermanentWidget(busy_);

    createActions();
    createDocks();
    resize(1400, 900);
    const QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    timeLimitSeconds_ = settings.value(QStringLiteral("run/timeLimitSeconds"), 30.0).toDouble();
    backends_->setBackend(settings.value(QStringLiteral("run/backend")).toString());
    rebuildRecentMenu();
    setTheme(themeFromName(settings.value(QStringLiteral("view/theme")).toString()));

    samples_->load(SamplesBrowser::defaultFolder());
    connect(samples_, &SamplesBrowser::openRequested, this, [this](const QString& path) {
        if (maybeSave()) openFile(path);
    });
    connect(problems_, &ProblemsView::jumpRequested, editor_, &KernelEditor::jumpTo);
    connect(&runTask_, &WorkerTask::finished, this, &MainWindow::runDone);
    connect(&inspectTask_, &WorkerTask::finished, this, &MainWindow::inspectFinished);
    connect(&sweepTask_, &WorkerTask::finished, this, &MainWindow::sweepDone);
    connect(sweep_, &SweepView::runRequested, this, &MainWindow::startSweep);
    connect(&codeTask_, &WorkerTask::finished, this, &MainWindow::compiledCodeDone);
    connect(code_, &CompiledCodeView::compileRequested, this, &MainWindow::requestCompiledCode);
    // Both ways between the code and the editor (the view's lines are 1-based, QScintilla's 0-based).
    // Not KernelEditor::jumpTo: it takes the focus, which would end browsing the code with the keys.
    connect(code_, &CompiledCodeView::sourceLineActivated, this, [this](int line) {
        editor_->setCursorPosition(line - 1, 0);
        editor_->ensureLineVisible(line - 1);
    });
    connect(editor_, &QsciScintilla::cursorPositionChanged, code_, [this](int line, int) { code_->highlightSourceLine(line + 1); });
    connect(sweep_, &SweepView::stopRequested, this, &MainWindow::stopSweep);
    connect(sweep_, &SweepView::settingsChanged, this, &MainWindow::sweepSettingsChanged);
    connect(backends_, &QComboBox::currentIndexChanged, this, &MainWindow::backendChanged);
    connect(arguments_, &ArgumentPanel::argumentsChanged, this, [this] {
        launch_->setDataShape(firstArrayShape(arguments_->arguments()));
        setModifiedPanels(true);
    });
    connect(launch_, &LaunchPanel::launchChanged, this, [this] { setModifiedPanels(true); });
    connect(editor_, &QsciScintilla::textChanged, this, &MainWindow::textEdited);
    connect(editor_, &QsciScintilla::modificationChanged, this, &MainWindow::updateTitle);
    // Compiles when the typing pauses; an answer for an older text is dropped (inspectFinished).
    compileTimer_.setSingleShot(true);
    compileTimer_.setInterval(700);
    connect(&compileTimer_, &QTimer::timeout, this, &MainWindow::compileNow);
    // Every few seconds, if the text changed: a crash or a kill loses at most that much.
    autosave_.setInterval(3000);
    connect(&autosave_, &QTimer::timeout, this, &MainWindow::autosave);
    autosave_.start();
    backendChanged();
    updateRunState();
    updateTitle();
    // Said once: where code from a file cannot be confined, Kernelpad asks before it runs (allowUnsandboxed).
    if (const auto& support = sandbox::support(); !support.available)
        log(tr("This machine has no sandbox for the code in playgrounds (%1): Kernelpad asks before it runs a file you did not "
               "write.").arg(fromUtf8(support.reason)));
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (!maybeSave()) return;
        model::Playground blank;
        blank.code = "__global__ void kernel(float* out, const float* in, int n) {\n"
                     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                     "    if (i < n) out[i] = 2 * in[i];\n}\n";
        blank.kernel = "kernel";
        playgroundPath_.clear();
        sourcePath_.clear();
        showPlayground(blank);
    });
    file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
        if (!maybeSave()) return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open"), QFileInfo(currentFile()).absolutePath(),
                                                          tr("Playgrounds and CUDA sources (*.kpad.json *.cu);;All files (*)"));
        if (!path.isEmpty()) openFile(path);
    });
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Save"), QKeySequence::Save, this, &MainWindow::save);
    file->addAction(tr("Save &As..."), QKeySequence::SaveAs, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save As"), currentFile(),
                                                          tr("Playgrounds (*.kpad.json);;CUDA source (*.cu)"));
        if (!path.isEmpty()) saveTo(path, path); // the dialog asked before replacing that file
    });
    // Arrays and result plots are saved from their own tab in the Results view.
    QMenu* exports = file->addMenu(tr("&Export"));
    exports->addAction(tr("Timings &Plot..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export timings plot"), QString(), tr("Images (*.png *.svg *.pdf)"));
        QString error;
        if (!path.isEmpty() && !timings_->exportPlot(path, &error)) statusBar()->showMessage(error, 8000);
    });
    exports->addAction(tr("Run &History (CSV)..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export run history"), QString(), tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !timings_->exportHistoryCsv(path, &error)) statusBar()->showMessage(error, 8000);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Undo"), QKeySequence::Undo, editor_, &QsciScintilla::undo);
    edit->addAction(tr("&Redo"), QKeySequence::Redo, editor_, &QsciScintilla::redo);
    edit->addSeparator();
    edit->addAction(tr("&Find..."), QKeySequence::Find, this, &MainWindow::showFindBar);
    edit->addAction(tr("Find &Next"), QKeySequence::FindNext, this, &MainWindow::findNext);
    edit->addSeparator();
    edit->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, editor_, [this] { editor_->zoomIn(); });
    edit->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, editor_, [this] { editor_->zoomOut(); });
    edit->addAction(tr("&Reset Zoom"), QKeySequence(Qt::CTRL | Qt::Key_0), editor_, [this] { editor_->zoomTo(0); });

    QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
    runAction_ = runMenu->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this, &MainWindow::startRun);
    runAction_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_R)});
    runAction_->setToolTip(tr("Run the kernel (F5, Ctrl+R)"));
    stopAction_ = runMenu->addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Stop"), this, &MainWindow::stopRun);
    stopAction_->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence(Qt::SHIFT | Qt::Key_F5)});
    stopAction_->setToolTip(tr("Stop the run (Esc, Shift+F5)"));
    compileAction_ = runMenu->addAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Compile"), this, &MainWindow::compileNow);
    compileAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    compileAction_->setToolTip(tr("Compile now (Ctrl+B); it also compiles when you pause typing"));
    sweepAction_ = runMenu->addAction(tr("S&weep"), this, [this] { sweeping() ? stopSweep() : (void)startSweep(); });
    sweepAction_->setShortcut(QKeySequence(Qt::Key_F6));
    sweepAction_->setToolTip(tr("Run the kernel over a range of sizes on each backend and plot GPU against CPU (F6)"));
    QAction* code = runMenu->addAction(tr("Show Compiled &Code"), this, &MainWindow::showCompiledCode);
    code->setShortcut(QKeySequence(Qt::Key_F7));
    code->setToolTip(tr("The PTX and SASS the kernel compiles to, with each kernel's registers and spills (F7)"));
    runMenu->addSeparator();
    boundsAction_ = runMenu->addAction(tr("Check &Bounds on the CPU"));
    boundsAction_->setCheckable(true);
    boundsAction_->setToolTip(tr("The CPU backend checks every array index and names the thread and line of the first out-of-bounds access"));
    // The toolbar's words, without the menu's accelerator: Qt drops the "&" but would keep the "(B)" of "(&B)".
    boundsAction_->setIconText(tr("Check Bounds on the CPU"));
    runMenu->addAction(tr("&Time Limit..."), this, [this] {
        bool ok = false;
        const double seconds = QInputDialog::getDouble(this, tr("Time limit"), tr("Stop a run after this many seconds:"), timeLimitSeconds_,
                                                       0.5, 3600, 1, &ok);
        if (!ok) return;
        timeLimitSeconds_ = seconds;
        QSettings().setValue(QStringLiteral("run/timeLimitSeconds"), seconds);
    });

    QToolBar* bar = addToolBar(tr("Run"));
    bar->setObjectName(QStringLiteral("runToolBar"));
    bar->addAction(runAction_);
    bar->addAction(stopAction_);
    bar->addAction(compileAction_);
    bar->addSeparator();
    bar->addWidget(backends_);
    bar->addWidget(repeat_);
    bar->addAction(boundsAction_);
}

QDockWidget* MainWindow::dock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name); // saveState() remembers docks by name
    d->setWidget(widget);
    addDockWidget(area, d);
    return d;
}

void MainWindow::createDocks() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    auto* samples = dock(tr("Samples"), QStringLiteral("samplesDock"), samples_, Qt::LeftDockWidgetArea);
    auto* lesson = dock(tr("Lesson"), QStringLiteral("lessonDock"), lesson_, Qt::LeftDockWidgetArea);
    auto* args = dock(tr("Arguments"), QStringLiteral("argumentsDock"), arguments_, Qt::RightDockWidgetArea);
    auto* launch = dock(tr("Launch"), QStringLiteral("launchDock"), launch_, Qt::RightDockWidgetArea);
    auto* problems = dock(tr("Problems"), QStringLiteral("problemsDock"), problems_, Qt::BottomDockWidgetArea);
    auto* output = dock(tr("Output"), QStringLiteral("outputDock"), output_, Qt::BottomDockWidgetArea);
    auto* results = dock(tr("Results"), QStringLiteral("resultsDock"), results_, Qt::BottomDockWidgetArea);
    auto* timings = dock(tr("Timings"), QStringLiteral("timingsDock"), timings_, Qt::BottomDockWidgetArea);
    auto* sweep = dock(tr("Sweep"), QStringLiteral("sweepDock"), sweep_, Qt::BottomDockWidgetArea);
    code_ = new CompiledCodeView(this);
    codeDock_ = dock(tr("Compiled Code"), QStringLiteral("codeDock"), code_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(problems, output);
    tabifyDockWidget(output, results);
    tabifyDockWidget(results, timings);
    tabifyDockWidget(timings, sweep);
    tabifyDockWidget(sweep, codeDock_);
    results->raise();
    resizeDocks({samples}, {300}, Qt::Horizontal);
    resizeDocks({samples, lesson}, {300, 500}, Qt::Vertical);
    resizeDocks({args, launch}, {420, 420}, Qt::Horizontal);
    arguments_->setMinimumHeight(300); // the launch panel would otherwise take the column's height
    resizeDocks({results}, {330}, Qt::Vertical);
    for (auto* d : {samples, lesson, args, launch, problems, output, results, timings, sweep, codeDock_}) view->addAction(d->toggleViewAction());
    view->addSeparator();
    QMenu* theme = view->addMenu(tr("&Theme"));
    auto* themes = new QActionGroup(this);
    lightAction_ = theme->addAction(tr("&Light"), this, [this] { setTheme(Theme::Light); });
    darkAction_ = theme->addAction(tr("&Dark"), this, [this] { setTheme(Theme::Dark); });
    for (QAction* action : {lightAction_, darkAction_}) {
        action->setCheckable(true);
        themes->addAction(action);
    }
    themeAction(currentAppearance().theme)->setChecked(true);
    presentationAction_ = view->addAction(tr("&Presentation Mode"));
    presentationAction_->setShortcut(QKeySequence(Qt::Key_F11));
    presentationAction_->setCheckable(true);
    presentationAction_->setToolTip(tr("Large fonts, high contrast and full screen, for a classroom (F11)"));
    connect(presentationAction_, &QAction::toggled, this, &MainWindow::setPresentation);
    view->addMenu(Language::menu(this));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("Kernelpad &Guide"), QKeySequence::HelpContents, this, [this] { showHelp(int(HelpDialog::Page::Guide)); });
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showHelp(int(HelpDialog::Page::Shortcuts)); });
    help->addAction(tr("&Lessons"), this, [this] { showHelp(int(HelpDialog::Page::Lessons)); });
    help->addSeparator();
    help->addAction(tr("&About Kernelpad"), this, [this] {
        QMessageBox::about(this, tr("About Kernelpad"),
                           tr("<h3>Kernelpad %1</h3><p>A desktop playground for CUDA kernels: write a kernel, run it on a GPU "
                              "or on the CPU, check it against a CPU reference and compare the timings.</p>")
                               .arg(QStringLiteral(KP_VERSION)));
    });
}

void MainWindow::setTheme(Theme theme) {
    Appearance appearance = currentAppearance();
    appearance.theme = theme;
    applyAppearance(appearance);
    themeAction(theme)->setChecked(true);
    QSettings().setValue(QStringLiteral("view/theme"), themeName(theme));
}

void MainWindow::setPresentation(bool on) {
    if (on == currentAppearance().presentation) return;
    Appearance appearance = currentAppearance();
    appearance.presentation = on;
    if (on) {
        stateBeforePresentation_ = windowState();
        geometryBeforePresentation_ = saveGeometry();
        docksBeforePresentation_ = saveState();
    }
    applyAppearance(appearance);
    const QSignalBlocker quiet(presentationAction_);
    presentationAction_->setChecked(on);
    if (!on) {
        centralWidget()->setMinimumWidth(0);
        setWindowState(stateBeforePresentation_);
        restoreState(docksBeforePresentation_);
        return;
    }
    showFullScreen();
    // Large text makes the panels wide: the code stays the widest thing on the screen, and the samples
    // (chosen before the class) make room for it; leaving gives the panels back as they were.
    const QSize screen = this->screen()->geometry().size();
    centralWidget()->setMinimumWidth(screen.width() * 2 / 5);
    const auto dockNamed = [this](const char* name) { return findChild<QDockWidget*>(QLatin1String(name)); };
    if (auto* samples = dockNamed("samplesDock")) samples->hide();
    if (auto* left = dockNamed("lessonDock"); left && left->isVisible()) resizeDocks({left}, {screen.width() / 5}, Qt::Horizontal);
    if (auto* right = dockNamed("argumentsDock"); right && right->isVisible())
        resizeDocks({right}, {screen.width() * 3 / 10}, Qt::Horizontal);
    if (auto* bottom = dockNamed("resultsDock"); bottom && bottom->isVisible())
        resizeDocks({bottom}, {screen.height() * 3 / 10}, Qt::Vertical);
    statusBar()->showMessage(tr("Presentation mode: F11 leaves it"), 5000);
}

bool MainWindow::isModified() const { return editor_->isModified() || panelsModified_; }

void MainWindow::setModifiedPanels(bool modified) {
    panelsModified_ = modified;
    if (modified) changedSinceAutosave_ = true; // the arguments and launch are autosaved too
    updateTitle();
}

void MainWindow::updateTitle() {
    const QString name = !playground_.title.empty() ? fromUtf8(playground_.title)
                         : currentFile().isEmpty()  ? tr("untitled")
                                                    : QFileInfo(currentFile()).fileName();
    setWindowTitle(tr("%1%2 — Kernelpad").arg(name, isModified() ? QStringLiteral(" *") : QString()));
}

void MainWindow::log(const QString& text) {
    output_->appendPlainText(QStringLiteral("[%1] %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), text));
}

// ---- files

bool MainWindow::openFile(const QString& path) {
    QString error;
    if (loadFile(path, &error)) return true;
    QMessageBox::warning(this, tr("Open"), error);
    return false;
}

bool MainWindow::loadFile(const QString& path, QString* error) {
    model::Playground playground;
    QString sourcePath = path;
    QString playgroundPath;
    if (path.endsWith(QStringLiteral(".kpad.json"))) {
        // Read and checked by the core, as a run would read it; nothing is compiled or run.
        try {
            playground = io::readPlayground(path.toStdString());
        } catch (const std::exception& e) {
            *error = QString::fromUtf8(e.what());
            return false;
        }
        playgroundPath = QFileInfo(path).absoluteFilePath();
        sourcePath = playground.source ? fromUtf8(playground.resolve(*playground.source).string()) : QString();
    } else {
        playground.folder = QFileInfo(path).absolutePath().toStdString();
    }
    if (!sourcePath.isEmpty()) {
        // Through the core's reader: a FIFO or a device named as the source is refused, never waited on.
        try {
            playground.code = io::readTextFile(sourcePath.toStdString());
        } catch (const std::exception& e) {
            *error = QString::fromUtf8(e.what());
            return false;
        }
    }
    playgroundPath_ = playgroundPath;
    sourcePath_ = sourcePath;
    showPlayground(playground);
    addRecent(QFileInfo(path).absoluteFilePath());
    log(tr("Opened %1").arg(path));
    return true;
}

void MainWindow::showPlayground(const model::Playground& playground) {
    playground_ = playground;
    if (playground_.code) {
        const QSignalBlocker block(editor_);
        editor_->setText(fromUtf8(*playground_.code));
    }
    editor_->setModified(false);
    editor_->setDiagnostics({});
    problems_->setDiagnostics({});
    if (playground_.folder.empty()) playground_.folder = QDir::currentPath().toStdString();
    launch_->setLaunch(playground_.launch);
    launch_->setKernelAttributes(std::nullopt);
    results_->clear();
    // A playground from someone else chooses its own compile options: shown before anything runs.
    const std::string notice = model::describe(playground_.compile);
    compileNotice_->setVisible(!notice.empty());
    compileNotice_->setText(tr("This playground compiles its kernel with options it chose: %1. They take effect when you run it.")
                                .arg(fromUtf8(notice).toHtmlEscaped()));
    // A playground's lesson is beside it (project-format.md); a sample is also picked out in the browser.
    lesson_->showLesson(playground_.lesson.empty()
                            ? QString()
                            : QDir(QString::fromStdString(playground_.folder.string())).filePath(fromUtf8(playground_.lesson)));
    samples_->select(playgroundPath_);
    showSweep();
    // The panels follow the kernel's signature, starting from the playground's own arguments.
    reparse(playground_.args);
    changedSinceAutosave_ = false;
    setModifiedPanels(false);
    compileNow();
}

model::Playground MainWindow::currentPlayground() const {
    model::Playground playground = playground_;
    playground.code = editor_->text().toStdString();
    playground.source.reset();
    playground.args = arguments_->arguments();
    playground.launch = launch_->launch();
    return playground;
}

bool MainWindow::save() {
    if (currentFile().isEmpty()) {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save As"), QString(), tr("Playgrounds (*.kpad.json);;CUDA source (*.cu)"));
        return !path.isEmpty() && saveTo(path, path);
    }
    // A lone source keeps its name, whatever its ending.
    if (playgroundPath_.isEmpty()) return saveKernelSource(sourcePath_, sourcePath_);
    return saveTo(playgroundPath_, playgroundPath_);
}

bool MainWindow::saveAs(const QString& path) {
    return saveTo(path, {});
}

namespace {

bool isSourceName(const QString& path) {
    return path.endsWith(QStringLiteral(".cu")) || path.endsWith(QStringLiteral(".cuh"));
}

// A playground's name ends in .kpad.json (project-format.md): "p", "p.json" and "p.kpad" all become
// "p.kpad.json".
QString playgroundName(QString path) {
    if (path.endsWith(QStringLiteral(".kpad.json"))) return path;
    if (path.endsWith(QStringLiteral(".json"))) path.chop(5);
    if (path.endsWith(QStringLiteral(".kpad"))) path.chop(5);
    return path + QStringLiteral(".kpad.json");
}

bool sameFile(const QString& a, const QString& b) {
    const QFileInfo first(a), second(b);
    if (first.exists() && second.exists()) return first.canonicalFilePath() == second.canonicalFilePath();
    return first.absoluteFilePath() == second.absoluteFilePath();
}

std::span<const std::byte> bytesOf(const QByteArray& bytes) {
    return std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

} // namespace

bool MainWindow::saveTo(const QString& requested, const QString& confirmed) {
    if (isSourceName(requested)) return saveKernelSource(requested, confirmed);
    const QString path = QFileInfo(playgroundName(requested)).absoluteFilePath();
    model::Playground playground = currentPlayground();
    // A playground that names its .cu is written with it; one with inline code keeps it inline. Saved
    // where it was, the source stays where it is; saved elsewhere, the source goes beside it.
    QString source;
    if (playground_.source && !sourcePath_.isEmpty()) {
        const bool samePlace = !playgroundPath_.isEmpty() && sameFile(path, playgroundPath_);
        source = samePlace ? sourcePath_ : QFileInfo(path).dir().filePath(QFileInfo(sourcePath_).fileName());
        playground.source = QFileInfo(path).dir().relativeFilePath(source).toStdString();
        playground.code.reset();
    }
    for (const QString& file : {path, source})
        if (!file.isEmpty() && !mayReplace(file, confirmed)) {
            statusBar()->showMessage(
                tr("Not saved: %1 was kept as it is. Save under another name.").arg(file));
            return false;
        }
    try {
        if (source.isEmpty())
            io::writePlayground(playground, path.toStdString());
        else
            io::writePlayground(playground, path.toStdString(), source.toStdString(),
                                editor_->text().toStdString());
    } catch (const std::exception& e) {
        const QString why = QString::fromUtf8(e.what());
        statusBar()->showMessage(
            source.isEmpty()
                ? tr("Could not save the playground %1: %2. The file on disk is unchanged.").arg(path, why)
                : tr("Could not save the playground %1 with its kernel source %2: %3. "
                     "Both files on disk are unchanged.")
                      .arg(path, source, why));
        log(statusBar()->currentMessage());
        return false;
    }
    playgroundPath_ = path;
    playground.folder = QFileInfo(path).absolutePath().toStdString();
    playground_ = playground;
    if (playground.source) {
        sourcePath_ = QFileInfo(source).absoluteFilePath();
        playground_.code = editor_->text().toStdString();
        saved(sourcePath_);
    }
    saved(path);
    editor_->setModified(false);
    setModifiedPanels(false);
    forgetAutosave();
    addRecent(path);
    statusBar()->showMessage(
        path == QFileInfo(requested).absoluteFilePath()
            ? tr("Saved %1").arg(path)
            : tr("Saved the playground as %1: a playground's name ends in .kpad.json").arg(path),
        4000);
    return true;
}

bool MainWindow::saveKernelSource(const QString& path, const QString& confirmed) {
    if (!mayReplace(path, confirmed)) {
        statusBar()->showMessage(tr("Not saved: %1 was kept as it is. Save under another name.").arg(path));
        return false;
    }
    if (!saveSource(path)) return false;
    sourcePath_ = QFileInfo(path).absoluteFilePath();
    saved(sourcePath_);
    if (!playgroundPath_.isEmpty() &&
        QFileInfo(playgroundPath_).absolutePath() != QFileInfo(path).absolutePath())
        playgroundPath_.clear();
    editor_->setModified(false);
    // A .cu file holds only the text: changed arguments or launch stay to be saved with the playground,
    // or, with no playground, are said to be left out.
    QString note;
    if (panelsModified_ && playgroundPath_.isEmpty()) {
        note = tr(" (the arguments and launch are not in a .cu file: save as .kpad.json to keep them)");
        setModifiedPanels(false);
    }
    updateTitle();
    if (!isModified()) forgetAutosave();
    addRecent(sourcePath_);
    statusBar()->showMessage(tr("Saved %1").arg(path) + note, note.isEmpty() ? 4000 : 10000);
    return true;
}

bool MainWindow::mayReplace(const QString& path, const QString& confirmed) {
    const QFileInfo info(path);
    if (!info.exists()) return true;
    for (const QString& ours : {playgroundPath_, sourcePath_, confirmed})
        if (!ours.isEmpty() && sameFile(ours, path)) return true;
    if (written_.contains(info.canonicalFilePath())) return true;
    if (askOverwrite_) return askOverwrite_(path);
    return QMessageBox::question(
               this, tr("Replace file"),
               tr("%1 already exists, and this playground was not opened from it. Replace it?").arg(path),
               QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
}

void MainWindow::saved(const QString& path) {
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (!canonical.isEmpty() && !written_.contains(canonical)) written_.push_back(canonical);
    trusted_.trust(path); // the user wrote it
}

QString MainWindow::runFile() const { return playgroundPath_.isEmpty() ? sourcePath_ : playgroundPath_; }

bool MainWindow::runTrusted() const {
    if (runUnsandboxedOnce_ || trusted_.isTrusted(runFile())) return true;
    // The samples come with Kernelpad.
    const QString samples = QDir(QString::fromStdString(samples_->catalog().folder.string())).canonicalPath();
    return !samples.isEmpty() && QFileInfo(runFile()).canonicalFilePath().startsWith(samples + QLatin1Char('/'));
}

bool MainWindow::allowUnsandboxed(const QString& why) {
    const auto answer = [&] {
        if (askUnsandboxed_) return askUnsandboxed_(why);
        QMessageBox box(QMessageBox::Warning, tr("No sandbox on this machine"),
                        tr("%1 did not run: %2\n\nRun it anyway, with access to your files and the network?")
                            .arg(runFile().isEmpty() ? tr("The playground") : runFile(), why),
                        QMessageBox::Cancel, this);
        auto* once = box.addButton(tr("Run Anyway"), QMessageBox::AcceptRole);
        auto* always = box.addButton(tr("Always Run This File"), QMessageBox::AcceptRole);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        return box.clickedButton() == always ? UnsandboxedAnswer::RunAndRemember
               : box.clickedButton() == once ? UnsandboxedAnswer::RunOnce
                                             : UnsandboxedAnswer::Cancel;
    }();
    if (answer == UnsandboxedAnswer::Cancel) {
        log(tr("Not run without the sandbox, as you chose."));
        return false;
    }
    if (answer == UnsandboxedAnswer::RunAndRemember) trusted_.trust(runFile());
    runUnsandboxedOnce_ = true;
    return true;
}

bool MainWindow::saveSource(const QString& path) {
    // Written to a temporary file, synced, then renamed over the old one. Not QSaveFile: Qt 6.4's
    // commits a file cut short when the disk takes only part of a write (found by the test).
    try {
        io::writeFileAtomically(path.toStdString(), bytesOf(editor_->text().toUtf8()));
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Could not save %1: %2. The file on disk is unchanged.").arg(path, QString::fromUtf8(e.what())));
        return false;
    }
    if (playgroundPath_.isEmpty()) sourcePath_ = path;
    return true;
}

bool MainWindow::maybeSave() {
    if (!isModified()) return true;
    const auto answer = askSave_ ? askSave_()
                                 : QMessageBox::question(this, tr("Unsaved changes"),
                                                         tr("%1 has changes that are not saved. Save them?").arg(currentFile().isEmpty() ? tr("The playground") : currentFile()),
                                                         QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::addRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& path : recent)
        recentMenu_->addAction(path, this, [this, path] {
            if (maybeSave()) openFile(path);
        });
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    // The window's own size and state are what is remembered, not presentation's full screen (which the
    // window manager undoes only later).
    const bool presenting = currentAppearance().presentation;
    setPresentation(false);
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), presenting ? geometryBeforePresentation_ : saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("run/backend"), QString::fromStdString(backends_->backend().id()));
    runTask_.stop();
    autosave_.stop();
    recovery_.clear();
    QMainWindow::closeEvent(event);
}

// ---- find

void MainWindow::showFindBar() {
    findBar_->show();
    findBar_->setFocus();
    findBar_->selectAll();
}

void MainWindow::findNext() {
    const QString text = findBar_->text();
    if (text.isEmpty()) return;
    if (!editor_->findFirst(text, false, false, false, true, true))
        statusBar()->showMessage(tr("\"%1\" is not in the text").arg(text), 3000);
}

// ---- compiling as you type

void MainWindow::textEdited() {
    changedSinceAutosave_ = true;
    compileTimer_.start();
}

void MainWindow::reparse(const std::vector<model::ArgumentSpec>& arguments) {
    const std::string text = editor_->text().toStdString();
    const auto parsed = model::parseKernels(text, "kernel.cu");
    parseProblems_ = parsed.problems;
    const auto* kernel = chooseKernel(parsed, playground_.kernel);
    if (!kernel) {
        QString known;
        for (const auto& k : parsed.kernels) known += (known.isEmpty() ? "" : ", ") + fromUtf8(k.name);
        const QString why = parsed.kernels.empty()
                                ? tr("No __global__ function in the text yet.")
                                : tr("The playground runs \"%1\", which the text no longer declares (it declares %2).").arg(fromUtf8(playground_.kernel), known);
        arguments_->setUnavailable(why);
        parseProblems_.push_back({"kernel.cu", 0, 0, model::Diagnostic::Severity::Error, why.toStdString()});
        return;
    }
    if (playground_.kernel.substr(0, playground_.kernel.find('<')) != kernel->name) playground_.kernel = kernel->name; // renamed
    arguments_->setKernel(*kernel, arguments, playground_.folder);
    launch_->setDataShape(firstArrayShape(arguments_->arguments()));
    launch_->setGridStride(run::readsGridDim(text, kernel->line));
}

void MainWindow::compileNow() {
    compileTimer_.stop();
    reparse();
    launch_->setKernelAttributes(std::nullopt); // stale until the compile answers
    worker::InspectRequest request = compileRequest();
    // The compiled code in view follows the text.
    if (codeDock_->isVisible() && !code_->code().arch.empty())
        submitCompiledCode(request, code_->architecture(), code_->lineInfo());
    inspectId_ = inspectTask_.submit({std::move(request), 60}, true);
    state_->setText(tr("Compiling..."));
}

worker::InspectRequest MainWindow::compileRequest() {
    auto playground = currentPlayground();
    // Only the kernel is compiled: arguments the user is still typing (and what refers to them) do not matter.
    playground.args.clear();
    playground.check.reset();
    playground.reference.reset();
    worker::InspectRequest request;
    request.playground = io::serializePlayground(playground);
    request.path = (std::filesystem::path(playground.folder) / "playground.kpad.json").string();
    request.backend = backends_->backend();
    return request; // sent with a time limit of 60 s
}

void MainWindow::showCompiledCode() {
    codeDock_->show();
    codeDock_->raise();
    requestCompiledCode(code_->architecture(), code_->lineInfo());
}

void MainWindow::requestCompiledCode(const QString& arch, bool lineInfo) {
    submitCompiledCode(compileRequest(), arch, lineInfo);
}

void MainWindow::submitCompiledCode(worker::InspectRequest request, const QString& arch, bool lineInfo) {
    // arch empty: the GPU's own, or sm_90 without one
    worker::DisassembleRequest code{std::move(request.playground), std::move(request.path), arch.toStdString(), lineInfo};
    codeId_ = codeTask_.submit({std::move(code), 60}, true);
}

void MainWindow::compiledCodeDone(quint64 id, const WorkerResultPtr& result) {
    if (id != codeId_) return; // an older text's answer
    codeId_ = 0;
    if (result->compiledCode)
        code_->showResult(*result->compiledCode);
    else if (!result->message.empty())
        code_->showError(QString::fromStdString(result->message));
    else if (const auto error = std::find_if(result->diagnostics.begin(), result->diagnostics.end(),
                                             [](const model::Diagnostic& d) { return d.severity == model::Diagnostic::Severity::Error; });
             error != result->diagnostics.end())
        code_->showError(tr("The kernel does not compile: %1 (the Problems list has them all)").arg(QString::fromStdString(error->message)));
    else
        code_->showError(tr("The kernel does not compile (the Problems list says why)"));
    emit compiledCodeShown(result->compiledCode.has_value());
}

void MainWindow::inspectFinished(quint64 id, const WorkerResultPtr& result) {
    if (id != inspectId_) return; // an older text's answer
    inspectId_ = 0;
    std::vector<model::Diagnostic> all = parseProblems_;
    all.insert(all.end(), result->diagnostics.begin(), result->diagnostics.end());
    if (!result->ok() && result->outcome != worker::Outcome::Compile && !result->message.empty())
        all.push_back({"kernel.cu", 0, 0, model::Diagnostic::Severity::Error, result->message});
    editor_->setDiagnostics(all);
    problems_->setDiagnostics(all);
    if (result->inspection) {
        launch_->setLimits(result->inspection->limits);
        launch_->setDevice(result->inspection->device);
        launch_->setKernelAttributes(result->inspection->attributes);
        if (result->inspection->device)
            timings_->setDevicePeak(result->inspection->device->peakBandwidthGBs(), result->inspection->device->peakGflops());
    }
    const int errors = problems_->errorCount(), warnings = problems_->warningCount();
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("problemsDock")))
        d->setWindowTitle(errors + warnings ? tr("Problems (%1)").arg(errors + warnings) : tr("Problems"));
    state_->setText(errors ? tr("%n error(s)", nullptr, errors)
                    : warnings ? tr("Compiled, %n warning(s)", nullptr, warnings)
                               : tr("Compiled"));
    updateRunState();
    emit compileFinished();
}

void MainWindow::backendChanged() {
    if (const auto device = backends_->device()) {
        launch_->setLimits(launch::LaunchLimits::of(*device));
        launch_->setDevice(device);
        timings_->setDevicePeak(device->peakBandwidthGBs(), device->peakGflops());
    } else {
        launch_->setLimits(launch::LaunchLimits::cpu());
        launch_->setDevice(std::nullopt);
        timings_->setDevicePeak(0, 0);
    }
    launch_->setKernelAttributes(std::nullopt);
    if (!editor_->text().isEmpty()) compileNow();
}

// ---- runs

void MainWindow::updateRunState() {
    runAction_->setEnabled(runId_ == 0);
    stopAction_->setEnabled(runId_ != 0);
    busy_->setVisible(runId_ != 0);
}

bool MainWindow::startRun() {
    if (runId_ != 0) return false;
    QStringList problems = arguments_->problems();
    problems += launch_->problems();
    if (!problems.isEmpty()) {
        log(tr("Not run: %1").arg(problems.join(QStringLiteral("; "))));
        statusBar()->showMessage(tr("Not run: %1").arg(problems.first()), 8000);
        return false;
    }
    const auto playground = currentPlayground();
    worker::RunRequest request;
    request.playground = io::serializePlayground(playground);
    // Relative .npy files and the reference resolve beside the playground file.
    request.path = playgroundPath_.isEmpty() ? (std::filesystem::path(playground.folder) / "untitled.kpad.json").string()
                                             : playgroundPath_.toStdString();
    request.backend = backends_->backend();
    request.repeat = repeat_->value();
    request.warmup = request.backend.isCpu() ? 0 : 1;
    request.checkBounds = boundsAction_->isChecked() && request.backend.isCpu();
    request.trusted = runTrusted();
    runUnsandboxedOnce_ = false;
    runId_ = runTask_.submit({request, timeLimitSeconds_});
    state_->setText(tr("Running on %1...").arg(backends_->currentText()));
    log(tr("Run %1 on %2, %3 repeat(s), %4").arg(fromUtf8(playground.kernel), backends_->currentText()).arg(request.repeat)
            .arg(fromUtf8(launch::toString(launch_->geometry()))));
    updateRunState();
    return true;
}

void MainWindow::stopRun() {
    if (runId_ == 0) {
        findBar_->hide(); // Esc also closes the find bar
        return;
    }
    runTask_.stop();
    state_->setText(tr("Stopping..."));
}

void MainWindow::runDone(quint64 id, const WorkerResultPtr& result) {
    if (id != runId_) return;
    runId_ = 0;
    updateRunState();
    if (!result->output.empty()) output_->appendPlainText(fromUtf8(result->output).trimmed());
    if (result->outcome == worker::Outcome::NoSandbox && allowUnsandboxed(fromUtf8(result->message))) {
        startRun();
        return;
    }
    if (!result->ok()) {
        const QString message = fromUtf8(result->message);
        log(tr("%1: %2").arg(fromUtf8(std::string(worker::name(result->outcome))), message));
        state_->setText(tr("Run failed"));
        statusBar()->showMessage(message.section(QLatin1Char('\n'), 0, 0), 10000);
        if (result->outcome == worker::Outcome::Compile) {
            auto all = parseProblems_;
            all.insert(all.end(), result->diagnostics.begin(), result->diagnostics.end());
            editor_->setDiagnostics(all);
            problems_->setDiagnostics(all);
        }
        if (auto* d = findChild<QDockWidget*>(result->outcome == worker::Outcome::Compile ? QStringLiteral("problemsDock") : QStringLiteral("outputDock")))
            d->raise();
        emit runFinished(false);
        return;
    }
    const auto& report = result->report;
    const auto checkSpec = playground_.check.value_or(model::CheckSpec{});
    results_->showRun(std::move(result->outputs), std::move(result->referenceOutputs), run::Tolerance{checkSpec.rtol, checkSpec.atol}, report);
    // The label says what a student usually changes between runs: the launch.
    const auto g = launch_->geometry();
    timings_->addRun(report, tr("grid %1×%2×%3, block %4×%5×%6").arg(g.grid[0]).arg(g.grid[1]).arg(g.grid[2]).arg(g.block[0]).arg(g.block[1]).arg(g.block[2]),
                     runFlops());
    const auto& timings = result->timings;
    const auto& kernelMs = timings.kernelMs;
    QString checkText = tr("not checked: the playground has no reference function, and the CPU backend is what a GPU run is compared with");
    if (timings.checkPassed) checkText = *timings.checkPassed ? tr("check passed") : tr("CHECK FAILED");
    if (!timings.uncheckedBecause.empty()) checkText = tr("not checked: %1").arg(fromUtf8(timings.uncheckedBecause));
    log(tr("%1: kernel %2 ms (median of %3), %4. %5")
            .arg(fromUtf8(timings.backend))
            .arg(launch::median(kernelMs), 0, 'g', 4)
            .arg(kernelMs.size())
            .arg(checkText, fromUtf8(result->execution)));
    state_->setText(tr("Ran in %1 s, %2")
                        .arg(result->seconds, 0, 'f', 2)
                        .arg(timings.checkPassed ? checkText : tr("not checked")));
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("resultsDock"))) d->raise();
    emit runFinished(true);
}

// ---- recovery

HelpDialog* MainWindow::showHelp(int page) {
    auto* dialog = new HelpDialog(menuBar(), samples_->catalog(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &HelpDialog::openRequested, this, [this](const QString& path) {
        if (maybeSave()) openFile(path);
    });
    dialog->showPage(static_cast<HelpDialog::Page>(page));
    dialog->show();
    return dialog;
}

// ---- sweeps

std::optional<double> MainWindow::runFlops() const {
    try {
        const auto spec = run::storedSweepSpec(playground_);
        if (!spec || spec->flops.empty()) return std::nullopt;
        for (const auto& arg : arguments_->arguments())
            if (arg.isArray() && (spec->array.empty() || arg.name == spec->array))
                return run::evaluateFlops(spec->flops, static_cast<double>(model::elementCount(arg.array().shape)));
    } catch (const InputError&) {
        // A formula that does not evaluate is said where it is edited (the Sweep dock); a run shows no GFLOP/s.
    }
    return std::nullopt;
}

void MainWindow::showSweep() {
    // What the sweep may run on: each CUDA device the toolbar offers, the CPU backend on all cores and on
    // one, and the playground's reference. Ticked at first: the devices, all cores and the reference.
    std::vector<std::pair<std::string, QString>> offered;
    std::vector<std::string> ticked;
    for (int i = 0; i < backends_->count(); ++i) {
        const QString id = backends_->itemData(i).toString();
        if (!id.startsWith(QStringLiteral("cuda:"))) continue;
        offered.emplace_back(id.toStdString(), backends_->itemText(i));
        ticked.push_back(id.toStdString());
    }
    offered.emplace_back("cpu", tr("CPU backend, all cores"));
    offered.emplace_back("cpu:1", tr("CPU backend, one core"));
    ticked.push_back("cpu");
    if (playground_.reference) {
        offered.emplace_back("reference", tr("C++ reference"));
        ticked.push_back("reference");
    }
    sweep_->setBackends(offered, ticked);
    try {
        sweep_->setSpec(run::storedSweepSpec(playground_).value_or(run::SweepSpec{}));
        if (const auto stored = run::storedSweepResult(playground_)) sweep_->showResult(*stored);
        else sweep_->clearResult();
    } catch (const InputError& e) {
        // A hand-edited "sweep" that does not read: said, and the defaults shown; the file keeps it until
        // the settings are changed here.
        sweep_->setSpec(run::SweepSpec{});
        sweep_->clearResult();
        log(tr("The playground's sweep settings were not read: %1").arg(QString::fromUtf8(e.what())));
    }
}

void MainWindow::sweepSettingsChanged() {
    QString error;
    const auto spec = sweep_->spec(&error);
    if (!spec) return; // said when a sweep is started; the file keeps the last good settings
    run::storeSweep(playground_, *spec, sweep_->result().rows.empty() ? nullptr : &sweep_->result());
    setModifiedPanels(true);
}

bool MainWindow::startSweep() {
    if (sweepId_ != 0) return false;
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("sweepDock"))) {
        d->show();
        d->raise();
    }
    QString error;
    auto spec = sweep_->spec(&error);
    QStringList problems = arguments_->problems();
    if (!spec) problems.prepend(error);
    if (!problems.isEmpty()) {
        sweep_->finish(sweep_->result(), tr("Not swept: %1").arg(problems.join(QStringLiteral("; "))));
        log(tr("Not swept: %1").arg(problems.join(QStringLiteral("; "))));
        return false;
    }
    const auto playground = currentPlayground();
    worker::SweepRequest sweepRequest;
    sweepRequest.playground = io::serializePlayground(playground);
    sweepRequest.path = playgroundPath_.isEmpty() ? (std::filesystem::path(playground.folder) / "untitled.kpad.json").string()
                                                  : playgroundPath_.toStdString();
    sweepRequest.spec = *spec;
    sweepRequest.trusted = runTrusted();
    worker::WorkerRequest request{std::move(sweepRequest)};
    runUnsandboxedOnce_ = false;
    // Rows come on the worker thread: handed to the dock on the GUI thread, if it is still there.
    QPointer<SweepView> view = sweep_;
    request.onSweepRow = [view](const run::SweepRow& row, std::size_t done, std::size_t total) {
        QMetaObject::invokeMethod(view, [view, row, done, total] { if (view) view->addRow(row, done, total); }, Qt::QueuedConnection);
    };

    // What the plots need before the first row: the backends by name, the swept array.
    run::SweepResult header;
    header.spec = *spec;
    header.title = playground.title;
    header.kernel = playground.kernel;
    for (const auto& arg : playground.args)
        if (arg.isArray() && (spec->array.empty() || arg.name == spec->array)) {
            header.array = arg.name;
            break;
        }
    for (int i = 0; i < sweep_->backendList()->count(); ++i) {
        const auto* item = sweep_->backendList()->item(i);
        const auto id = item->data(Qt::UserRole).toString().toStdString();
        if (std::find(spec->backends.begin(), spec->backends.end(), id) != spec->backends.end())
            header.backends.push_back({id, item->text().toStdString(), {}});
    }
    sweep_->begin(header, run::sweepValues(*spec).size() * spec->backends.size());
    sweep_->setRunning(true);
    sweepId_ = sweepTask_.submit(std::move(request));
    sweepAction_->setText(tr("Stop S&weep"));
    log(tr("Sweep of %1: %2 from %3 to %4 on %5").arg(fromUtf8(playground.kernel), fromUtf8(header.parameterLabel()))
            .arg(sweep_->fromEdit()->text(), sweep_->toEdit()->text(), fromUtf8([&] {
                std::string ids;
                for (const auto& id : spec->backends) ids += (ids.empty() ? "" : ", ") + id;
                return ids;
            }())));
    return true;
}

void MainWindow::stopSweep() {
    if (sweepId_ != 0) sweepTask_.stop();
}

void MainWindow::sweepDone(quint64 id, const WorkerResultPtr& result) {
    if (id != sweepId_) return;
    sweepId_ = 0;
    sweepAction_->setText(tr("S&weep"));
    sweep_->setRunning(false);
    // Rows still queued for the dock arrive before this (same queue), so its result has them all.
    QCoreApplication::sendPostedEvents(sweep_);
    if (result->outcome == worker::Outcome::NoSandbox && allowUnsandboxed(fromUtf8(result->message))) {
        startSweep();
        return;
    }
    QString error;
    const auto spec = sweep_->spec(&error);
    if (result->ok() && result->sweep) {
        sweep_->finish(*result->sweep);
        for (const auto& c : run::crossovers(*result->sweep)) log(fromUtf8(run::describe(c, *result->sweep)));
        log(tr("Sweep finished: %1 rows in %2 s").arg(result->sweep->rows.size()).arg(result->seconds, 0, 'f', 1));
    } else {
        // Stopped, crashed or refused: the rows so far stay, marked as cut short.
        auto partial = sweep_->result();
        partial.cancelled = !partial.rows.empty();
        QString message = fromUtf8(result->message);
        if (result->outcome == worker::Outcome::Compile) message = tr("Not swept: the kernel does not compile (see Problems).");
        sweep_->finish(partial, message);
        log(tr("Sweep: %1").arg(fromUtf8(result->message)));
    }
    if (spec && !sweep_->result().rows.empty()) {
        run::storeSweep(playground_, *spec, &sweep_->result());
        setModifiedPanels(true);
    }
    emit sweepFinished(result->ok());
}

void MainWindow::autosave() {
    if (!changedSinceAutosave_) return;
    // The whole playground, so that a crash gives back its arguments, launch and file names as well.
    RecoveredSession session;
    session.playgroundPath = playgroundPath_;
    session.sourcePath = sourcePath_;
    session.documentPath = currentFile();
    session.folder = QString::fromStdString(playground_.folder.string());
    session.text = editor_->text();
    session.playground = QString::fromStdString(io::serializePlayground(currentPlayground()));
    QString error;
    if (recovery_.save(session, &error))
        changedSinceAutosave_ = false;
    else
        statusBar()->showMessage(tr("Autosave failed: %1").arg(error), 5000);
}

void MainWindow::forgetAutosave() {
    // Saved: a crash from here on loses nothing, so there is nothing to offer back.
    recovery_.clear();
    changedSinceAutosave_ = false;
}

RecoveryAnswer MainWindow::askRecovery(const RecoveredSession& session) {
    QMessageBox box(
        QMessageBox::Question, tr("Restore"),
        tr("Kernelpad did not close properly. Restore the playground you were editing%1, saved at %2?")
            .arg(session.documentPath.isEmpty() ? QString() : tr(" in %1").arg(session.documentPath),
                 session.savedAt.toLocalTime().toString(QStringLiteral("HH:mm:ss"))),
        QMessageBox::NoButton, this);
    QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
    QPushButton* keep = box.addButton(tr("Keep for Later"), QMessageBox::RejectRole);
    box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.setDefaultButton(restore);
    box.setEscapeButton(keep);
    box.exec();
    if (box.clickedButton() == restore) return RecoveryAnswer::Restore;
    return box.clickedButton() == keep ? RecoveryAnswer::Keep : RecoveryAnswer::Discard;
}

int MainWindow::offerRecovery(const std::function<bool(const RecoveredSession&)>& ask) {
    if (!ask) return offerRecovery(RecoveryQuestion{});
    return offerRecovery([&](const RecoveredSession& session) {
        return ask(session) ? RecoveryAnswer::Restore : RecoveryAnswer::Discard;
    });
}

int MainWindow::offerRecovery(const RecoveryQuestion& ask) {
    return start({}, {}, ask);
}

MainWindow* MainWindow::windowFor(const RecoveredSession& session, bool& used) {
    if (!used || (!session.documentPath.isEmpty() && !currentFile().isEmpty() &&
                  sameFile(session.documentPath, currentFile()))) {
        used = true;
        return this;
    }
    // This window shows something already: the session gets its own, which answers questions as this one
    // does.
    auto* window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->askSave_ = askSave_;
    window->askOverwrite_ = askOverwrite_;
    window->show();
    return window;
}

int MainWindow::start(const QString& file, const QString& fallback, const RecoveryQuestion& ask) {
    bool used = !file.isEmpty() && openFile(file);
    int restored = 0;
    // One by one: each asked, and nothing removed that the person did not restore or discard.
    for (const auto& session : recovery_.orphaned()) {
        switch (ask ? ask(session) : askRecovery(session)) {
        case RecoveryAnswer::Restore:
            windowFor(session, used)->restore(session);
            ++restored;
            break;
        case RecoveryAnswer::Keep:
            break;
        case RecoveryAnswer::Discard:
            RecoveryStore::discard(session);
            break;
        }
    }
    if (!used && !fallback.isEmpty()) openFile(fallback);
    return restored;
}

void MainWindow::restore(const RecoveredSession& session) {
    bool shown = false;
    if (!session.playground.isEmpty()) {
        const QString folder = session.folder.isEmpty() ? QDir::currentPath() : session.folder;
        const QString name = session.playgroundPath.isEmpty()
                                 ? QDir(folder).filePath(QStringLiteral("untitled.kpad.json"))
                                 : session.playgroundPath;
        try {
            model::Playground playground =
                io::parsePlayground(session.playground.toStdString(), name.toStdString());
            // Autosaved with its code inline; a playground that names its source goes on naming it.
            if (!session.playgroundPath.isEmpty() && !session.sourcePath.isEmpty())
                playground.source = QFileInfo(name).dir().relativeFilePath(session.sourcePath).toStdString();
            playgroundPath_ = session.playgroundPath;
            sourcePath_ = session.sourcePath;
            showPlayground(playground);
            shown = true;
        } catch (const std::exception& e) {
            log(tr("The restored playground did not read (%1): only its text is restored.")
                    .arg(QString::fromUtf8(e.what())));
        }
    }
    if (!shown) {
        // Only the text was kept: it comes back into its file as that file is on disk, so that a save
        // keeps the settings it holds; without its file, into an untitled playground.
        QString error;
        if (session.documentPath.isEmpty() || !QFileInfo(session.documentPath).isFile() ||
            !loadFile(session.documentPath, &error)) {
            if (!session.documentPath.isEmpty())
                log(tr("%1 cannot be opened (%2): the restored text is untitled, save it under a name.")
                        .arg(session.documentPath, error.isEmpty() ? tr("it is not there") : error));
            model::Playground untitled;
            untitled.code = session.text.toStdString();
            playgroundPath_.clear();
            sourcePath_.clear();
            showPlayground(untitled);
        }
        editor_->setText(session.text);
    }
    setModifiedPanels(true); // restored, not saved
    changedSinceAutosave_ = true;
    autosave(); // this window holds it now: the crashed session's file can go
    RecoveryStore::discard(session);
    log(tr("Restored the playground %1 saved at %2")
            .arg(session.documentPath.isEmpty() ? tr("untitled") : session.documentPath,
                 session.savedAt.toLocalTime().toString(QStringLiteral("HH:mm:ss"))));
}
