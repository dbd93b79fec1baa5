// kernelpad: the desktop application. Offers back the playgrounds a crash left behind and opens the
// file given on the command line, else the multiply_them sample.
#include "KernelEditor.h"
#include "Language.h"
#include "MainWindow.h"
#include "SamplesBrowser.h"
#include "ScreenshotTour.h"
#include "WindowHost.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QStandardPaths>
#include <QTimer>
#include <cstdio>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Kernelpad"));
    QApplication::setOrganizationName(QStringLiteral("Kernelpad"));
    QApplication::setApplicationVersion(QStringLiteral(KP_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("A desktop playground for CUDA kernels"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A playground (*.kpad.json) or .cu file"));
    const QCommandLineOption screenshots(
        QStringLiteral("screenshots"),
        QStringLiteral(
            "Save the README's screenshots into DIR (runs the multiply_them sample on the CPU), then quit"),
        QStringLiteral("DIR"));
    parser.addOption(screenshots);
    parser.process(app);
    // The pictures show the default layout, not this user's, and leave their settings alone.
    if (parser.isSet(screenshots)) QStandardPaths::setTestModeEnabled(true);
    // Before the window exists: its words are translated as it is built. The README's pictures are in
    // English unless KERNELPAD_LANGUAGE asks for another language.
    const bool englishPictures =
        parser.isSet(screenshots) && qEnvironmentVariableIsEmpty("KERNELPAD_LANGUAGE");
    Language::install(englishPictures ? QStringLiteral("en") : Language::chosen());

    WindowHost host; // the window, built anew when the language changes
    MainWindow& window = *host.window();
    const QStringList files = parser.positionalArguments();
    window.show();
    if (parser.isSet(screenshots)) {
        auto* tour = new ScreenshotTour(window, parser.value(screenshots), &window);
        int status = 0;
        QObject::connect(tour, &ScreenshotTour::finished, &app,
                         [&](const QStringList& written, const QString& failure) {
                             std::fprintf(stderr, "%s\n",
                                          qPrintable(failure.isEmpty() ? written.join(QLatin1Char('\n'))
                                                                       : "kernelpad: " + failure));
                             status = failure.isEmpty() ? 0 : 1;
                             window.setSaveQuestion([] { return QMessageBox::Discard; });
                             QApplication::quit();
                         });
        tour->start(window.samples()->pathOf(QStringLiteral("multiply_them")));
        QApplication::exec();
        return status;
    }
    // The playgrounds a crash left come back (each asked), and the file asked for opens whatever is
    // restored; with neither, the sample a first start shows, ready to run.
    window.start(files.value(0), window.samples()->pathOf(QStringLiteral("multiply_them")));
    // bench_gui's start-up figure: once the events queued so far (the first paint among them) are handled,
    // the window is usable; KERNELPAD_STARTUP_PROBE=quit also ends the app there.
    if (const QByteArray probe = qgetenv("KERNELPAD_STARTUP_PROBE"); !probe.isEmpty())
        QTimer::singleShot(0, &app, [probe, &window] {
            std::fprintf(stderr, "kernelpad: usable, %lld characters in the editor\n",
                         static_cast<long long>(window.editor()->text().size()));
            std::fflush(stderr);
            if (probe == "quit") {
                window.setSaveQuestion([] { return QMessageBox::Discard; });
                QApplication::quit();
            }
        });
    // `window` is the first window only: after a change of language the host holds another.
    return QApplication::exec();
}
