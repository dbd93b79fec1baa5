#include "ScreenshotTour.h"

#include "BackendChooser.h"
#include "KernelEditor.h"
#include "MainWindow.h"
#include "SweepView.h"

#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QListWidget>
#include <QSpinBox>
#include <QTimer>

ScreenshotTour::ScreenshotTour(MainWindow& window, QString folder, QObject* parent)
    : QObject(parent), window_(window), folder_(std::move(folder)) {}

void ScreenshotTour::fail(const QString& why) {
    emit finished({}, why);
}

bool ScreenshotTour::save(const QString& name) {
    const QString path = QDir(folder_).filePath(name);
    // Layouts that a new text asks for (the status bar's after a run) settle first: a translation longer
    // than the text before it would show cut off otherwise.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    if (!window_.grab().save(path)) {
        fail(tr("cannot write %1").arg(path));
        return false;
    }
    files_ << path;
    return true;
}

void ScreenshotTour::start(const QString& sample) {
    if (!QDir().mkpath(folder_)) return fail(tr("cannot create %1").arg(folder_));
    window_.resize(1400, 880);
    window_.backends()->setBackend(QStringLiteral("cpu"));
    // Open -> compiled -> run -> results and timings -> a sweep on the CPU backends (light and dark) -> an
    // error typed -> compiled -> done.
    auto step = std::make_shared<int>(0);
    connect(&window_, &MainWindow::compileFinished, this, [this, step] {
        if (*step == 0) {
            *step = 1;
            if (!window_.startRun()) fail(tr("the sample did not start"));
        } else if (*step == 3) {
            *step = 4;
            if (save(QStringLiteral("kernelpad-diagnostics.png"))) emit finished(files_, {});
        }
    });
    connect(&window_, &MainWindow::runFinished, this, [this, step](bool ok) {
        if (*step != 1) return;
        if (!ok) return fail(tr("the sample's run failed"));
        if (!save(QStringLiteral("kernelpad-results.png"))) return;
        if (auto* timings = window_.findChild<QDockWidget*>(QStringLiteral("timingsDock"))) timings->raise();
        if (!save(QStringLiteral("kernelpad-timings.png"))) return;
        *step = 2;
        SweepView* sweep = window_.sweep();
        sweep->toEdit()->setText(QStringLiteral("10000000"));
        sweep->stepsSpin()->setValue(5);
        for (int i = 0; i < sweep->backendList()->count(); ++i)
            sweep->backendList()->item(i)->setCheckState(Qt::Checked);
        if (!window_.startSweep()) fail(tr("the sweep did not start: %1").arg(sweep->statusText()));
    });
    connect(&window_, &MainWindow::sweepFinished, this, [this, step](bool ok) {
        if (*step != 2) return;
        if (!ok) return fail(tr("the sample's sweep failed: %1").arg(window_.sweep()->statusText()));
        if (!save(QStringLiteral("kernelpad-sweep.png"))) return;
        // The same in the dark theme; the palette and fonts reach the widgets as posted events.
        window_.setTheme(Theme::Dark);
        QCoreApplication::sendPostedEvents();
        const bool dark = save(QStringLiteral("kernelpad-dark.png"));
        window_.setTheme(Theme::Light);
        QCoreApplication::sendPostedEvents();
        if (!dark) return;
        *step = 3;
        if (auto* results = window_.findChild<QDockWidget*>(QStringLiteral("problemsDock"))) results->raise();
        window_.editor()->setCursorPosition(7, 23); // after "dest[i] = a[i] "
        window_.editor()->insert(QStringLiteral("* scale "));
        window_.compileNow();
    });
    if (!window_.openFile(sample)) fail(tr("cannot open %1").arg(sample));
}
