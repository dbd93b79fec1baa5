#include "FileMenu.h"

#include "PlaygroundDocument.h"
#include "Settings.h"
#include "TimingsView.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QStatusBar>

FileMenu::FileMenu(PlaygroundDocument* document, TimingsView* timings, QMainWindow* window)
    : QMenu(tr("&File"), window), document_(document), timings_(timings), window_(window) {
    addAction(tr("&New"), QKeySequence::New, document_, [this] {
        if (document_->maybeSave()) document_->showNew();
    });
    addAction(tr("&Open..."), QKeySequence::Open, this, &FileMenu::open);
    recent_ = addMenu(tr("Open &Recent"));
    addAction(tr("&Save"), QKeySequence::Save, document_, &PlaygroundDocument::save);
    addAction(tr("Save &As..."), QKeySequence::SaveAs, this, &FileMenu::saveAs);
    // Arrays and result plots are saved from their own tab in the Results view.
    QMenu* exports = addMenu(tr("&Export"));
    exports->addAction(tr("Timings &Plot..."), this, &FileMenu::exportPlot);
    exports->addAction(tr("Run &History (CSV)..."), this, &FileMenu::exportHistory);
    addSeparator();
    addAction(tr("&Quit"), QKeySequence::Quit, window_, &QWidget::close);
    rebuildRecent();
    connect(document_, &PlaygroundDocument::recentFilesChanged, this, &FileMenu::rebuildRecent);
}

void FileMenu::open() {
    if (!document_->maybeSave()) return;
    const QString path =
        QFileDialog::getOpenFileName(window_, tr("Open"), QFileInfo(document_->currentFile()).absolutePath(),
                                     tr("Playgrounds and CUDA sources (*.kpad.json *.cu);;All files (*)"));
    if (!path.isEmpty()) emit openRequested(path);
}

void FileMenu::saveAs() {
    const QString path = QFileDialog::getSaveFileName(window_, tr("Save As"), document_->currentFile(),
                                                      tr("Playgrounds (*.kpad.json);;CUDA source (*.cu)"));
    if (!path.isEmpty()) document_->saveTo(path, path); // the dialog asked before replacing that file
}

void FileMenu::rebuildRecent() {
    recent_->clear();
    const QStringList recent = Settings::recentFiles();
    for (const QString& path : recent)
        recent_->addAction(path, this, [this, path] {
            if (document_->maybeSave()) emit openRequested(path);
        });
    recent_->setEnabled(!recent.isEmpty());
}

void FileMenu::exportPlot() {
    const QString path = QFileDialog::getSaveFileName(window_, tr("Export timings plot"), QString(),
                                                      tr("Images (*.png *.svg *.pdf)"));
    QString error;
    if (!path.isEmpty() && !timings_->exportPlot(path, &error))
        window_->statusBar()->showMessage(error, 8000);
}

void FileMenu::exportHistory() {
    const QString path =
        QFileDialog::getSaveFileName(window_, tr("Export run history"), QString(), tr("CSV (*.csv)"));
    QString error;
    if (!path.isEmpty() && !timings_->exportHistoryCsv(path, &error))
        window_->statusBar()->showMessage(error, 8000);
}
