#include "Settings.h"

#include "core/Error.h"

#include <QSettings>

namespace {

const QString kWindowGeometry = QStringLiteral("window/geometry");
const QString kWindowState = QStringLiteral("window/state");
const QString kBackend = QStringLiteral("run/backend");
const QString kTimeLimitSeconds = QStringLiteral("run/timeLimitSeconds");
const QString kTheme = QStringLiteral("view/theme");
const QString kLanguage = QStringLiteral("language");
const QString kRecentFiles = QStringLiteral("recentFiles");

} // namespace

QByteArray Settings::windowGeometry() {
    return QSettings().value(kWindowGeometry).toByteArray();
}
void Settings::setWindowGeometry(const QByteArray& geometry) {
    QSettings().setValue(kWindowGeometry, geometry);
}
QByteArray Settings::windowState() {
    return QSettings().value(kWindowState).toByteArray();
}
void Settings::setWindowState(const QByteArray& state) {
    QSettings().setValue(kWindowState, state);
}

std::optional<kp::run::Backend> Settings::backend() {
    const QString id = QSettings().value(kBackend).toString();
    if (id.isEmpty()) return std::nullopt;
    try {
        return kp::run::parseRunBackend(id.toStdString());
    } catch (const kp::InputError&) {
        return std::nullopt; // written by another version, or by hand
    }
}
void Settings::setBackend(const kp::run::Backend& backend) {
    QSettings().setValue(kBackend, QString::fromStdString(backend.id()));
}
double Settings::timeLimitSeconds() {
    return QSettings().value(kTimeLimitSeconds, 30.0).toDouble();
}
void Settings::setTimeLimitSeconds(double seconds) {
    QSettings().setValue(kTimeLimitSeconds, seconds);
}

QString Settings::theme() {
    return QSettings().value(kTheme).toString();
}
void Settings::setTheme(const QString& theme) {
    QSettings().setValue(kTheme, theme);
}
QString Settings::language() {
    return QSettings().value(kLanguage).toString();
}
void Settings::setLanguage(const QString& code) {
    QSettings().setValue(kLanguage, code);
}

QStringList Settings::recentFiles() {
    return QSettings().value(kRecentFiles).toStringList();
}

QStringList Settings::addRecentFile(const QString& path) {
    QStringList recent = recentFiles();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecentFiles)
        recent.removeLast();
    QSettings().setValue(kRecentFiles, recent);
    return recent;
}
