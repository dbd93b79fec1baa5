#include "RecoveryStore.h"

#include "core/io/FileBytes.h"

#include <span>

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QRandomGenerator>
#include <QStandardPaths>

namespace {
QString defaultDirectory() {
    const QByteArray env = qgetenv("KERNELPAD_RECOVERY_DIR");
    if (!env.isEmpty()) return QString::fromLocal8Bit(env);
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/recovery");
}
} // namespace

RecoveryStore::RecoveryStore(QString directory) : directory_(directory.isEmpty() ? defaultDirectory() : std::move(directory)) {
    QDir().mkpath(directory_);
    id_ = QStringLiteral("session-%1-%2").arg(QCoreApplication::applicationPid()).arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
    lock_ = std::make_unique<QLockFile>(QDir(directory_).filePath(id_ + QStringLiteral(".lock")));
    lock_->setStaleLockTime(0); // stale only when its process is gone, however long it ran
    lock_->tryLock(0);
}

RecoveryStore::~RecoveryStore() = default;

QString RecoveryStore::file() const { return QDir(directory_).filePath(id_ + QStringLiteral(".json")); }

bool RecoveryStore::save(const QString& documentPath, const QString& text, QString* error) {
    const QJsonObject object{{QStringLiteral("document"), documentPath},
                             {QStringLiteral("text"), text},
                             {QStringLiteral("saved_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
    const QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Compact);
    try {
        kp::io::writeFileAtomically(file().toStdString(),
                                    std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

void RecoveryStore::clear() { QFile::remove(file()); }

QList<RecoveredSession> RecoveryStore::orphaned() const {
    QList<RecoveredSession> sessions;
    const QDir dir(directory_);
    for (const QString& name : dir.entryList({QStringLiteral("session-*.json")}, QDir::Files, QDir::Time)) {
        const QString id = name.chopped(5);
        if (id == id_) continue;
        QLockFile owner(dir.filePath(id + QStringLiteral(".lock")));
        owner.setStaleLockTime(0);
        // Held by a live process: that app is still running. A stale lock (its process gone) is taken.
        if (!owner.tryLock(0)) continue;
        owner.unlock();
        QFile in(dir.filePath(name));
        if (!in.open(QIODevice::ReadOnly)) continue;
        const QJsonObject object = QJsonDocument::fromJson(in.readAll()).object();
        if (!object.contains(QStringLiteral("text"))) continue;
        sessions.push_back({dir.filePath(name), object.value(QStringLiteral("document")).toString(),
                            object.value(QStringLiteral("text")).toString(),
                            QDateTime::fromString(object.value(QStringLiteral("saved_at")).toString(), Qt::ISODateWithMs)});
    }
    return sessions;
}

void RecoveryStore::discard(const RecoveredSession& session) {
    QFile::remove(session.recoveryFile);
    QFile::remove(session.recoveryFile.chopped(5) + QStringLiteral(".lock"));
}
