#include "MainWindow.h"

#include "core/cuda/Device.h"
#include "core/cuda/Driver.h"
#include "core/io/FileBytes.h"
#include "core/io/PlaygroundFile.h"
#include "core/model/Playground.h"

#include <optional>

#include <span>

#include <QFile>
#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QLabel>
#include <QVBoxLayout>
#include <QCloseEvent>
#include <QMessageBox>
#include <QStatusBar>
#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), editor_(new QsciScintilla(this)), compileNotice_(new QLabel(this)) {
    setWindowTitle(tr("Kernelpad"));
    auto* lexer = new QsciLexerCPP(editor_);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    lexer->setDefaultFont(mono);
    editor_->setLexer(lexer);
    editor_->setMarginType(0, QsciScintilla::NumberMargin);
    editor_->setMarginWidth(0, QStringLiteral("00000"));
    editor_->setBraceMatching(QsciScintilla::SloppyBraceMatch);
    // A playground from someone else chooses its own compile options: they are shown when it opens,
    // before anything is compiled or run (opening never does either).
    compileNotice_->setWordWrap(true);
    compileNotice_->setStyleSheet(QStringLiteral("QLabel { background: #fff4ce; color: #3b2f00; padding: 6px; }"));
    compileNotice_->hide();
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(compileNotice_);
    layout->addWidget(editor_);
    setCentralWidget(central);
    resize(1100, 720);
    showBackendStatus();
    // Every few seconds, if the text changed: a crash or a kill loses at most that much.
    connect(editor_, &QsciScintilla::textChanged, this, [this] { changedSinceAutosave_ = true; });
    autosave_.setInterval(3000);
    connect(&autosave_, &QTimer::timeout, this, &MainWindow::autosave);
    autosave_.start();
}

void MainWindow::autosave() {
    if (!changedSinceAutosave_) return;
    QString error;
    if (recovery_.save(sourcePath_, editor_->text(), &error))
        changedSinceAutosave_ = false;
    else
        statusBar()->showMessage(tr("Autosave failed: %1").arg(error), 5000);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    autosave_.stop();
    recovery_.clear();
    QMainWindow::closeEvent(event);
}

bool MainWindow::saveSource(const QString& path) {
    // Written to a temporary file, synced, then renamed over the old one. Not QSaveFile: Qt 6.4's
    // commits a file cut short when the disk takes only part of a write (found by the test).
    const QByteArray bytes = editor_->text().toUtf8();
    try {
        kp::io::writeFileAtomically(path.toStdString(), std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Could not save %1: %2. The file on disk is unchanged.").arg(path, QString::fromUtf8(e.what())));
        return false;
    }
    sourcePath_ = path;
    return true;
}

int MainWindow::offerRecovery(const std::function<bool(const RecoveredSession&)>& ask) {
    const auto sessions = recovery_.orphaned();
    int restored = 0;
    for (const auto& session : sessions) {
        const bool yes = restored == 0 &&
                         (ask ? ask(session)
                              : QMessageBox::question(this, tr("Restore"),
                                                      tr("Kernelpad did not close properly. Restore the text you were editing%1, "
                                                         "saved at %2?")
                                                          .arg(session.documentPath.isEmpty() ? QString() : tr(" in %1").arg(session.documentPath),
                                                               session.savedAt.toLocalTime().toString(QStringLiteral("HH:mm:ss")))) ==
                                    QMessageBox::Yes);
        if (yes) {
            editor_->setText(session.text);
            sourcePath_ = session.documentPath;
            ++restored;
            autosave(); // this session now holds the text
        }
        RecoveryStore::discard(session);
    }
    return restored;
}

void MainWindow::showBackendStatus() {
    if (!kp::cuda::Driver::available()) {
        statusBar()->showMessage(tr("CUDA unavailable: %1").arg(QString::fromStdString(kp::cuda::Driver::unavailableReason())));
        return;
    }
    try {
        const auto props = kp::cuda::Device::get(0).properties();
        statusBar()->showMessage(tr("CUDA device 0: %1").arg(QString::fromStdString(props.name)));
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("CUDA unavailable: %1").arg(QString::fromUtf8(e.what())));
    }
}

bool MainWindow::openFile(const QString& path) {
    QString sourcePath = path;
    std::string notice;
    std::optional<std::string> inlineCode;
    if (path.endsWith(QStringLiteral(".kpad.json"))) {
        // Read and checked by the core, as a run would read it; nothing is compiled or run.
        kp::model::Playground playground;
        try {
            playground = kp::io::readPlayground(path.toStdString());
        } catch (const std::exception& e) {
            QMessageBox::warning(this, tr("Open"), QString::fromUtf8(e.what()));
            return false;
        }
        if (playground.source) sourcePath = QString::fromStdString(playground.resolve(*playground.source).string());
        inlineCode = playground.code;
        notice = kp::model::describe(playground.compile);
        setWindowTitle(tr("%1 — Kernelpad").arg(QString::fromStdString(playground.title.empty() ? playground.kernel : playground.title)));
    }
    compileNotice_->setVisible(!notice.empty());
    compileNotice_->setText(tr("This playground compiles its kernel with options it chose: %1. They take effect when you run it.")
                                .arg(QString::fromStdString(notice).toHtmlEscaped()));
    if (inlineCode) {
        editor_->setText(QString::fromStdString(*inlineCode));
        sourcePath_.clear();
        changedSinceAutosave_ = false;
        return true;
    }
    QFile source(sourcePath);
    if (!source.open(QIODevice::ReadOnly)) {
        QMessageBox::warning(this, tr("Open"), tr("Cannot open %1: %2").arg(sourcePath, source.errorString()));
        return false;
    }
    editor_->setText(QString::fromUtf8(source.readAll()));
    sourcePath_ = sourcePath;
    changedSinceAutosave_ = false;
    return true;
}
