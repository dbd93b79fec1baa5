#include "MainWindow.h"

#include "ArgumentPanel.h"
#include "BackendChooser.h"
#include "CompileNotice.h"
#include "CompiledCodeView.h"
#include "DockLayout.h"
#include "FileMenu.h"
#include "FindBar.h"
#include "HelpDialog.h"
#include "HelpMenu.h"
#include "KernelEditor.h"
#include "Language.h"
#include "LaunchPanel.h"
#include "LessonView.h"
#include "OutputLog.h"
#include "PresentationMode.h"
#include "ProblemsView.h"
#include "ProgramController.h"
#include "ProgramPanel.h"
#include "ResultsView.h"
#include "RunActions.h"
#include "SamplesBrowser.h"
#include "Settings.h"
#include "StudentWords.h"
#include "SweepPlots.h"
#include "SweepView.h"
#include "ThemeMenu.h"
#include "TimingsView.h"
#include "core/sandbox/Confinement.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScreen>
#include <QStatusBar>
#include <Qsci/qscilexer.h>

using namespace kp;

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), editor_(new KernelEditor(this)), compileNotice_(new CompileNotice(this)),
      findBar_(new FindBar(editor_, this)), problems_(new ProblemsView(this)),
      arguments_(new ArgumentPanel(this)), launch_(new LaunchPanel(this)), steps_(new ProgramPanel(this)),
      results_(new ResultsView(this)), timings_(new TimingsView(this)), samples_(new SamplesBrowser(this)),
      lesson_(new LessonView(this)), sweep_(new SweepView(this)),
      output_(new OutputLog(editor_->lexer()->defaultFont(0), this)), backends_(new BackendChooser(this)),
      state_(new QLabel(this)), busy_(new QProgressBar(this)), code_(new CompiledCodeView(this)),
      document_(new PlaygroundDocument(editor_, arguments_, launch_, steps_, this)),
      runs_(new RunController(document_, backends_, this)),
      programs_(new ProgramController(steps_, document_, runs_, launch_, this)),
      presentation_(new PresentationMode(this, [this](QSize screen) { layout_->arrange(screen, 25); })) {
    setWindowTitle(tr("Kernelpad"));
    setCentralWidget(DockLayout::column(this, {compileNotice_, editor_, findBar_}));
    busy_->setRange(0, 0);
    busy_->setMaximumWidth(120);
    busy_->hide();
    statusBar()->addPermanentWidget(state_);
    statusBar()->addPermanentWidget(busy_);

    createActions();
    createDocks();
    // A first start fills a small screen and takes most of a large one; the docks are laid out for the
    // size on the first showing, unless the user's own layout comes back.
    if (!restoreGeometry(Settings::windowGeometry())) {
        const QSize free = screen()->availableGeometry().size();
        resize(free.boundedTo(QSize(1800, 1100)));
        if (free.width() < 1600 || free.height() < 1000) setWindowState(Qt::WindowMaximized);
    }
    laidOut_ = restoreState(Settings::windowState());
    runs_->setTimeLimit(Settings::timeLimitSeconds());
    if (const auto backend = Settings::backend()) backends_->setBackend(*backend);
    theme_->choose(themeFromName(Settings::theme()));
    samples_->load(SamplesBrowser::defaultFolder());
    document_->setSamplesFolder(QString::fromStdString(samples_->catalog().folder.string()));

    connectPanels();
    connectRuns();
    // Compiles when the typing pauses, even briefly: the markers follow within ~300 ms of the last keystroke
    // (bench_gui). A compile under way finishes; only the newest text waits behind it, and an answer for
    // an older text is dropped.
    compileTimer_.setSingleShot(true);
    compileTimer_.setInterval(50);
    connect(&compileTimer_, &QTimer::timeout, this, &MainWindow::compileNow);
    runs_->backendChanged();
    if (!editor_->text().isEmpty()) compileNow();
    updateRunState();
    updateTitle();
    // Said once: where code from a file cannot be confined, Kernelpad asks before it runs (RunController).
    if (const auto& support = sandbox::support(); !support.available)
        output_->log(
            tr("Kernelpad cannot keep playground code away from your files on this computer (%1), so it "
               "asks before it runs a file you did not write.")
                .arg(QString::fromStdString(support.reason)));
}

MainWindow::~MainWindow() = default;

void MainWindow::connectPanels() {
    connect(document_, &PlaygroundDocument::opened, this, &MainWindow::showPlayground);
    connect(programs_, &ProgramController::becameProgram, this,
            [this](bool program) { layout_->showSteps(program); });
    connect(document_, &PlaygroundDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_, &PlaygroundDocument::message, statusBar(), &QStatusBar::showMessage);
    connect(document_, &PlaygroundDocument::logged, output_, &OutputLog::log);
    connect(findBar_, &FindBar::message, statusBar(), &QStatusBar::showMessage);
    connect(samples_, &SamplesBrowser::openRequested, this, [this](const QString& path) {
        if (document_->maybeSave()) openFile(path);
    });
    connect(problems_, &ProblemsView::jumpRequested, editor_, &KernelEditor::jumpTo);
    connect(code_, &CompiledCodeView::compileRequested, runs_, [this](const QString& arch, bool lineInfo) {
        runs_->compileCode({arch, lineInfo});
    });
    // Both ways between the code and the editor (the view's lines are 1-based, QScintilla's 0-based).
    // Not KernelEditor::jumpTo: it takes the focus, which would end browsing the code with the keys.
    connect(code_, &CompiledCodeView::sourceLineActivated, this, [this](int line) {
        editor_->setCursorPosition(line - 1, 0);
        editor_->ensureLineVisible(line - 1);
    });
    connect(editor_, &QsciScintilla::cursorPositionChanged, code_,
            [this](int line, int) { code_->highlightSourceLine(line + 1); });
    connect(sweep_, &SweepView::runRequested, this, &MainWindow::startSweep);
    connect(sweep_, &SweepView::stopRequested, this, &MainWindow::stopSweep);
    sweep_->follow(runs_, document_);
    connect(backends_, &QComboBox::currentIndexChanged, this, [this] {
        runs_->backendChanged();
        if (!editor_->text().isEmpty()) compileNow();
    });
    connect(arguments_, &ArgumentPanel::argumentsChanged, this, [this] {
        showArraysInLaunch();
        document_->setPanelsModified(true);
    });
    connect(launch_, &LaunchPanel::launchChanged, document_, [this] { document_->setPanelsModified(true); });
    connect(editor_, &QsciScintilla::textChanged, this, [this] {
        document_->textEdited();
        compileTimer_.start();
    });
    connect(editor_, &QsciScintilla::modificationChanged, this, &MainWindow::updateTitle);
}

void MainWindow::showArraysInLaunch() {
    std::vector<LaunchPanel::DataArray> arrays;
    for (auto& [name, shape] : arguments_->arrayShapes())
        arrays.push_back({name, std::move(shape)});
    launch_->setArrays(std::move(arrays));
}

void MainWindow::connectRuns() {
    connect(runs_, &RunController::kernelMissing, arguments_, &ArgumentPanel::setUnavailable);
    connect(runs_, &RunController::kernelFound, this,
            [this](const auto& kernel, const auto& arguments, bool readsGridDim) {
                arguments_->setKernel(kernel, arguments, document_->playground().folder);
                showArraysInLaunch();
                launch_->setGridStride(readsGridDim);
            });
    connect(runs_, &RunController::problemsFound, editor_, &KernelEditor::setDiagnostics);
    connect(runs_, &RunController::problemsFound, problems_, &ProblemsView::setDiagnostics);
    connect(runs_, &RunController::limitsKnown, launch_, &LaunchPanel::setLimits);
    connect(runs_, &RunController::deviceKnown, launch_, &LaunchPanel::setDevice);
    connect(runs_, &RunController::kernelAttributesKnown, launch_, &LaunchPanel::setKernelAttributes);
    connect(runs_, &RunController::devicePeakKnown, timings_, &TimingsView::setDevicePeak);
    connect(runs_, &RunController::compiled, this, [this](int problems) {
        if (auto* d = findChild<QDockWidget*>(QStringLiteral("problemsDock")))
            d->setWindowTitle(problems ? tr("Problems (%1)").arg(problems) : tr("Problems"));
        updateRunState();
        emit compileFinished();
    });
    connect(runs_, &RunController::compiledCode, code_, &CompiledCodeView::showResult);
    connect(runs_, &RunController::compiledCodeFailed, code_, &CompiledCodeView::showError);
    connect(runs_, &RunController::compiledCodeShown, this, &MainWindow::compiledCodeShown);
    connect(runs_, &RunController::runningChanged, this, &MainWindow::updateRunState);
    connect(runs_, &RunController::ran, this, &MainWindow::showRun);
    connect(runs_, &RunController::runFailed, this, [this](bool compileError) {
        results_->markStale(compileError ? tr("the last run did not compile (see Problems).")
                                         : tr("the last run failed (see Output)."));
        raiseDock(compileError ? "problemsDock" : "outputDock");
    });
    connect(runs_, &RunController::runFinished, this, &MainWindow::runFinished);
    connect(runs_, &RunController::sweepingChanged, actions_, &RunActions::setSweeping);
    connect(runs_, &RunController::sweepFinished, this, &MainWindow::sweepFinished);
    connect(runs_, &RunController::printed, output_, &QPlainTextEdit::appendPlainText);
    connect(runs_, &RunController::stateChanged, state_, &QLabel::setText);
    connect(runs_, &RunController::message, statusBar(), &QStatusBar::showMessage);
    connect(runs_, &RunController::logged, output_, &OutputLog::log);
}

void MainWindow::createActions() {
    auto* file = new FileMenu(document_, timings_, this);
    menuBar()->addMenu(file);
    connect(file, &FileMenu::openRequested, this, &MainWindow::openFile);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Undo"), QKeySequence::Undo, editor_, &QsciScintilla::undo);
    edit->addAction(tr("&Redo"), QKeySequence::Redo, editor_, &QsciScintilla::redo);
    edit->addSeparator();
    edit->addAction(tr("&Find..."), QKeySequence::Find, findBar_, &FindBar::open);
    edit->addAction(tr("Find &Next"), QKeySequence::FindNext, findBar_, &FindBar::findNext);
    edit->addSeparator();
    edit->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, editor_, [this] { editor_->zoomIn(); });
    edit->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, editor_, [this] { editor_->zoomOut(); });
    edit->addAction(tr("&Reset Zoom"), QKeySequence(Qt::CTRL | Qt::Key_0), editor_,
                    [this] { editor_->zoomTo(0); });

    actions_ = new RunActions(this, backends_, runs_);
    connect(actions_->run(), &QAction::triggered, this, &MainWindow::startRun);
    connect(actions_->stop(), &QAction::triggered, this, &MainWindow::stopRun);
    connect(actions_->compile(), &QAction::triggered, this, &MainWindow::compileNow);
    connect(actions_->sweep(), &QAction::triggered, this,
            [this] { sweeping() ? stopSweep() : (void)startSweep(); });
    connect(actions_->showCode(), &QAction::triggered, this, &MainWindow::showCompiledCode);
}

void MainWindow::createDocks() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    layout_ = DockLayout::build(this, editor_,
                                {samples_, lesson_, arguments_, launch_, steps_, problems_, output_, results_,
                                 timings_, sweep_, code_},
                                view);
    codeDock_ = layout_->dockOf(code_);
    layout_->arrange(size(), 30);
    view->addAction(tr("Reset La&yout"), this, &MainWindow::resetLayout);
    view->addSeparator();
    theme_ = new ThemeMenu(this);
    view->addMenu(theme_);
    view->addAction(presentation_->action());
    view->addMenu(Language::menu(this, [this](const QString& code) { emit languageSwitchRequested(code); }));

    auto* help = new HelpMenu(this);
    menuBar()->addMenu(help);
    connect(help, &HelpMenu::pageRequested, this, &MainWindow::showHelp);
}

void MainWindow::updateTitle() {
    const auto& title = document_->playground().title;
    const QString name = !title.empty()            ? QString::fromStdString(title)
                         : currentFile().isEmpty() ? tr("untitled")
                                                   : QFileInfo(currentFile()).fileName();
    setWindowTitle(tr("%1%2 — Kernelpad").arg(name, isModified() ? QStringLiteral(" *") : QString()));
}

void MainWindow::raiseDock(const char* name) {
    if (auto* d = findChild<QDockWidget*>(QLatin1String(name))) d->raise();
}

bool MainWindow::openFile(const QString& path) {
    QString error;
    if (document_->open(path, &error)) return true;
    QMessageBox::warning(this, tr("Open"), error);
    return false;
}

void MainWindow::showPlayground() {
    const model::Playground& playground = document_->playground();
    programs_->showOpened(); // before the parse: a program's arguments are its own
    editor_->setDiagnostics({});
    problems_->setDiagnostics({});
    launch_->setLaunch(playground.launch);
    launch_->setKernelAttributes(std::nullopt);
    results_->clear();
    // A playground from someone else chooses its own compile options: shown before anything runs.
    compileNotice_->showFor(playground);
    // A playground's lesson is beside it (project-format.md); a sample is also picked out in the browser.
    lesson_->showLesson(playground.lesson.empty() ? QString()
                                                  : QDir(QString::fromStdString(playground.folder.string()))
                                                        .filePath(QString::fromStdString(playground.lesson)));
    samples_->select(document_->playgroundPath());
    sweep_->plots()->setPlaygroundFile(QFileInfo(currentFile()).fileName());
    if (const QString error = sweep_->showStored(playground, *backends_); !error.isEmpty())
        output_->log(tr("The playground's sweep settings were not read: %1").arg(error));
    // The panels follow the kernel's signature, starting from the playground's own arguments.
    runs_->parse(playground.args);
    document_->markUnchanged();
    compileNow();
}

void MainWindow::compileNow() {
    compileTimer_.stop();
    // The compiled code in view follows the text.
    const bool codeInView = codeDock_->isVisible() && !code_->code().arch.empty();
    runs_->compile(codeInView
                       ? std::optional(RunController::CodeSettings{code_->architecture(), code_->lineInfo()})
                       : std::nullopt);
}

void MainWindow::showCompiledCode() {
    codeDock_->show();
    codeDock_->raise();
    runs_->compileCode({code_->architecture(), code_->lineInfo()});
}

void MainWindow::updateRunState() {
    actions_->setRunning(running());
    busy_->setVisible(running());
}

bool MainWindow::startRun() {
    if (running()) return false;
    const QStringList problems = arguments_->problems() + launch_->problems();
    if (!problems.isEmpty()) {
        output_->log(tr("Not run. %1").arg(inStudentWords(problems.join(QStringLiteral("; ")))));
        statusBar()->showMessage(tr("Not run. %1").arg(inStudentWords(problems.first())), 8000);
        results_->markStale(tr("the last run was not started (%1).").arg(inStudentWords(problems.first())));
        return false;
    }
    return runs_->startRun(actions_->settings(launch_->geometry()));
}

void MainWindow::stopRun() {
    if (!running()) findBar_->hide(); // Esc also closes the find bar
    runs_->stopRun();
}

void MainWindow::showRun(const std::shared_ptr<RunController::Ran>& run) {
    results_->showRun(std::move(run->outputs), std::move(run->referenceOutputs), run->check, run->report);
    // The label says what a student usually changes between runs: the launch.
    timings_->addRun(run->report, launch_->summary(), run->flops);
    raiseDock("resultsDock");
}

bool MainWindow::startSweep() {
    if (sweeping()) return false;
    if (auto* d = findChild<QDockWidget*>(QStringLiteral("sweepDock"))) {
        d->show();
        d->raise();
    }
    QString error;
    const auto spec = sweep_->spec(&error);
    QStringList problems = arguments_->problems();
    if (!spec) problems.prepend(error);
    if (!problems.isEmpty()) {
        sweep_->finish(sweep_->result(), tr("Not swept: %1").arg(problems.join(QStringLiteral("; "))));
        output_->log(tr("Not swept: %1").arg(problems.join(QStringLiteral("; "))));
        return false;
    }
    return runs_->startSweep(sweep_->header(*spec), sweep_->fromText(), sweep_->toText());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!document_->maybeSave()) {
        event->ignore();
        return;
    }
    // The window's own size and state are what is remembered, not presentation's full screen.
    const QByteArray geometry = presentation_->windowGeometry();
    presentation_->set(false);
    Settings::setWindowGeometry(geometry);
    Settings::setWindowState(saveState());
    Settings::setBackend(backends_->backend());
    runs_->stopAll();
    document_->endSession();
    QMainWindow::closeEvent(event);
}

void MainWindow::takeOver(MainWindow& previous) {
    previous.runs_->stopAll();
    const bool presenting = previous.presentation_->action()->isChecked();
    previous.presentation_->set(false);
    setGeometry(previous.geometry());
    if (previous.isMaximized()) setWindowState(Qt::WindowMaximized);
    laidOut_ = restoreState(previous.saveState());
    backends_->setBackend(previous.backends_->backend());
    runs_->setTimeLimit(previous.runs_->timeLimit());
    document_->carryOver(*previous.document_);
    results_->takeOver(*previous.results_);
    timings_->takeOver(*previous.timings_);
    if (presenting) QTimer::singleShot(0, this, [this] { presentation_->set(true); });
}

void MainWindow::resetLayout() {
    layout_->arrange(size(), presentation_->action()->isChecked() ? 25 : 30);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (laidOut_) return;
    laidOut_ = true;
    resetLayout();
}

HelpDialog* MainWindow::showHelp(int page) {
    auto* dialog = new HelpDialog(menuBar(), samples_->catalog(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &HelpDialog::openRequested, this, [this](const QString& path) {
        if (document_->maybeSave()) openFile(path);
    });
    dialog->showPage(static_cast<HelpDialog::Page>(page));
    dialog->show();
    return dialog;
}
