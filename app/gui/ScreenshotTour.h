// `kernelpad --screenshots DIR`: the README's pictures, made by the app itself (offscreen works): it
// opens the multiply_them sample, runs it on the CPU backend, and saves the window with its results,
// its timings, and a compile error shown inline. Drives MainWindow through its public API only.
#pragma once

#include <QObject>
#include <QString>

class MainWindow;

class ScreenshotTour : public QObject {
    Q_OBJECT
public:
    ScreenshotTour(MainWindow& window, QString folder, QObject* parent = nullptr);
    // Starts the tour; finished() follows with the files written (empty and a reason on failure).
    void start(const QString& sample);

signals:
    void finished(const QStringList& files, const QString& failure);

private:
    bool save(const QString& name);
    void fail(const QString& why);

    MainWindow& window_;
    QString folder_;
    QStringList files_;
};
