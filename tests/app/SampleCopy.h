// The window tests' copy of a sample: a playground from somewhere else (not the installed samples, not a
// file the window wrote), with its lesson, reference, check, sweep, shapes and fills.
#pragma once

#include <QDir>
#include <QFile>
#include <QString>

// Copies the multiply_them sample into `folder` (made if missing); the playground's path, or empty.
inline QString copyMultiplyThem(const QString& folder) {
    if (!QDir().mkpath(folder)) return {};
    for (const char* file :
         {"multiply_them.kpad.json", "multiply_them.cu", "multiply_them.ref.cpp", "README.md"})
        if (!QFile::copy(QStringLiteral(KP_SOURCE_DIR "/samples/multiply_them/") + QLatin1String(file),
                         folder + QLatin1Char('/') + QLatin1String(file)))
            return {};
    return folder + QStringLiteral("/multiply_them.kpad.json");
}
