// The playgrounds whose code may run without the sandbox where this machine has none: those Kernelpad
// saved (the user wrote them) and those the user said "Run anyway, and remember" for. Kept in QSettings
// by path with a checksum of the file, so a file changed behind Kernelpad's back is asked about again.
// PlaygroundDocument asks it before a run; where the sandbox exists, runs are confined whatever it says.
#pragma once

#include <QString>

class TrustedFiles {
public:
    // A new playground (no path) was typed here: the user's own.
    bool isTrusted(const QString& path) const;
    void trust(const QString& path);

private:
    static QString checksum(const QString& path);
};
