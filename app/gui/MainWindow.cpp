#include "MainWindow.h"

#include "core/cuda/Device.h"
#include "core/cuda/Driver.h"
#include "core/io/FileBytes.h"

#include <span>

#include <QFile>
#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QJsonDocument>
#include <QJsonObject>
#include <QCloseEvent>
#include <QMessageBox>
#include <QStatusBar>
#include <Qsci/qscilexercpp.h>
#include <Qsci/qsciscintilla.h>

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), editor_(new QsciScintilla(this)) {
    setWindowTitle(tr("Kernelpad"));
    auto* lexer = new QsciLexerCPP(editor_);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    lexer->setDefaultFont(mono);
    editor_->setLexer(lexer);
    editor_->setMarginType(0, QsciScintilla::NumberMargin);
    editor_->setMarginWidth(0, QStringLiteral("00000"));
    editor_->setBraceMatching(QsciScintilla::SloppyBraceMatch);
    setCentralWidget(editor_);
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
    if (path.endsWith(QStringLiteral(".kpad.json"))) {
        QFile json(path);
        if (!json.open(QIODevice::ReadOnly)) {
            QMessageBox::warning(this, tr("Open"), tr("Cannot open %1: %2").arg(path, json.errorString()));
            return false;
        }
        const auto doc = QJsonDocument::fromJson(json.readAll()).object();
        sourcePath = QFileInfo(path).dir().filePath(doc.value(QStringLiteral("source")).toString());
        setWindowTitle(tr("%1 — Kernelpad").arg(doc.value(QStringLiteral("title")).toString()));
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
