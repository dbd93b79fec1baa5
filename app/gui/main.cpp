// kernelpad: the desktop application. Opens the file given on the command line, else the
// multiply_them sample.
#include "MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Kernelpad"));
    QApplication::setOrganizationName(QStringLiteral("Kernelpad"));
    QApplication::setApplicationVersion(QStringLiteral(KP_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("A desktop playground for CUDA kernels"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("A playground (*.kpad.json) or .cu file"));
    parser.process(app);

    MainWindow window;
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) window.openFile(files.first());
    window.show();
    window.offerRecovery();
    return QApplication::exec();
}
