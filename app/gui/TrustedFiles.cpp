#include "TrustedFiles.h"

#include "core/io/FileBytes.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSettings>

namespace {
const QString kGroup = QStringLiteral("trustedFiles");

QString key(const QString& path) {
    // QSettings keys treat '/' as a group separator: the path goes in hex.
    return QString::fromLatin1(QFileInfo(path).absoluteFilePath().toUtf8().toHex());
}
} // namespace

QString TrustedFiles::checksum(const QString& path) {
    try {
        const auto bytes = kp::io::readFileBytes(path.toStdString(), kp::io::kTextFileLimit);
        return QString::fromLatin1(
            QCryptographicHash::hash(QByteArrayView(reinterpret_cast<const char*>(bytes.data()),
                                                    static_cast<qsizetype>(bytes.size())),
                                     QCryptographicHash::Sha256)
                .toHex());
    } catch (const std::exception&) {
        return {}; // not a readable regular file: never trusted
    }
}

bool TrustedFiles::isTrusted(const QString& path) const {
    if (path.isEmpty()) return true;
    const QString stored = QSettings().value(kGroup + QLatin1Char('/') + key(path)).toString();
    return !stored.isEmpty() && stored == checksum(path);
}

void TrustedFiles::trust(const QString& path) {
    if (path.isEmpty()) return;
    const QString sum = checksum(path);
    if (!sum.isEmpty()) QSettings().setValue(kGroup + QLatin1Char('/') + key(path), sum);
}
