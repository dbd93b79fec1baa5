#include "MainWindow.h"

#include "core/cuda/Device.h"
#include "core/cuda/Driver.h"

#include <QFile>
#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QJsonDocument>
#include <QJsonObject>
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
    return true;
}
