#include "RecoveryStore.h"

#include "core/io/FileBytes.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <span>

namespace {
QString defaultDirectory() {
    const QByteArray env = qgetenv("KERNELPAD_RECOVERY_DIR");
    if (!env.isEmpty()) return QString::fromLocal8Bit(env);
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           QStringLiteral("/recovery");
}
} // namespace

RecoveryStore::RecoveryStore(QString directory)
    : directory_(directory.isEmpty() ? defaultDirectory() : std::move(directory)) {
    QDir().mkpath(directory_);
    kp::io::removeStaleTemporaries(directory_.toStdString()); // autosaves cut short by a kill
    id_ = QStringLiteral("session-%1-%2")
              .arg(QCoreApplication::applicationPid())
              .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
    lock_ = std::make_unique<QLockFile>(QDir(directory_).filePath(id_ + QStringLiteral(".lock")));
    lock_->setStaleLockTime(0); // stale only when its process is gone, however long it ran
    lock_->tryLock(0);
}

RecoveryStore::~RecoveryStore() {
    {
        const std::lock_guard lock(mutex_);
        quit_ = true; // a save under way finishes; one not started is the session's last and still written
    }
    wake_.notify_all();
    if (writer_.joinable()) writer_.join();
}

QString RecoveryStore::file() const {
    return QDir(directory_).filePath(id_ + QStringLiteral(".json"));
}

bool RecoveryStore::save(const QString& documentPath, const QString& text, QString* error) {
    RecoveredSession session;
    session.documentPath = documentPath;
    session.text = text;
    return save(session, error);
}

bool RecoveryStore::save(const RecoveredSession& session, QString* error) {
    return write(bytesOf(session), error);
}

void RecoveryStore::saveInBackground(const RecoveredSession& session, Failed failed) {
    QByteArray bytes = bytesOf(session);
    {
        const std::lock_guard lock(mutex_);
        pending_.emplace(std::move(bytes), std::move(failed));
        if (!writer_.joinable()) writer_ = std::thread([this] { writeLoop(); });
    }
    wake_.notify_one();
}

void RecoveryStore::writeLoop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return quit_ || pending_; });
        if (!pending_) return; // quit, nothing left
        auto [bytes, failed] = std::move(*pending_);
        pending_.reset();
        writing_ = true;
        lock.unlock();
        QString error;
        if (!write(bytes, &error) && failed) failed(error);
        lock.lock();
        writing_ = false;
        idle_.notify_all();
    }
}

QByteArray RecoveryStore::bytesOf(const RecoveredSession& session) const {
    QJsonObject object{
        {QStringLiteral("document"), session.documentPath},
        {QStringLiteral("text"), session.text},
        {QStringLiteral("saved_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
    // The playground as its own JSON text, not as a nested object: Qt's JSON would turn 64-bit seeds into
    // doubles.
    if (!session.playground.isEmpty()) {
        object.insert(QStringLiteral("playground"), session.playground);
        object.insert(QStringLiteral("playground_path"), session.playgroundPath);
        object.insert(QStringLiteral("source_path"), session.sourcePath);
        object.insert(QStringLiteral("folder"), session.folder);
    }
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

bool RecoveryStore::write(const QByteArray& bytes, QString* error) const {
    try {
        kp::io::writeFileAtomically(
            file().toStdString(),
            std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

void RecoveryStore::clear() {
    std::unique_lock lock(mutex_);
    pending_.reset();
    idle_.wait(lock, [this] { return !writing_; });
    QFile::remove(file());
}

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
        const auto bytes = kp::io::readFileIfPresent(dir.filePath(name).toStdString());
        if (!bytes) continue;
        const QJsonObject object = QJsonDocument::fromJson(QByteArray::fromStdString(*bytes)).object();
        if (!object.contains(QStringLiteral("text"))) continue;
        const auto member = [&](const char* key) { return object.value(QLatin1String(key)).toString(); };
        sessions.push_back({dir.filePath(name), member("document"), member("text"),
                            QDateTime::fromString(member("saved_at"), Qt::ISODateWithMs),
                            member("playground_path"), member("source_path"), member("folder"),
                            member("playground")});
    }
    return sessions;
}

void RecoveryStore::discard(const RecoveredSession& session) {
    QFile::remove(session.recoveryFile);
    QFile::remove(session.recoveryFile.chopped(5) + QStringLiteral(".lock"));
}
