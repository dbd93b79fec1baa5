// What Kernelpad remembers between sessions (QSettings), each setting under one key named here: the
// window's geometry and docks, the run's backend and time limit, the theme, the recent files and the
// language. MainWindow, PlaygroundDocument, RunController and Language read and write them through it.
#pragma once

#include "core/run/Backend.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

class Settings {
public:
    static constexpr int kMaxRecentFiles = 10;

    static QByteArray windowGeometry();
    static void setWindowGeometry(const QByteArray& geometry);
    static QByteArray windowState(); // the docks and toolbars (QMainWindow::saveState)
    static void setWindowState(const QByteArray& state);

    // The CPU backend or a CUDA device; none when none was chosen yet or the setting is not a backend.
    static std::optional<kp::run::Backend> backend();
    static void setBackend(const kp::run::Backend& backend); // kept as its id: "cpu", "cuda:0"
    static double timeLimitSeconds();                        // 30 until one is chosen
    static void setTimeLimitSeconds(double seconds);

    static QString theme(); // themeName()'s
    static void setTheme(const QString& theme);
    static QString language(); // a language code ("es"), empty when none was chosen
    static void setLanguage(const QString& code);

    static QStringList recentFiles(); // the newest first
    // Puts `path` first, once, and keeps the newest kMaxRecentFiles; returns the new list.
    static QStringList addRecentFile(const QString& path);
};
