// Autosave for crash recovery: the editor's text (and which file it belongs to) is saved atomically
// every few seconds into a recovery folder, one file per running app. A session that ends normally
// removes its file; one that crashed or was killed (kill -9) leaves it behind with a stale lock, and the
// next start offers to restore it, losing at most the last few seconds.
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>
#include <memory>

class QLockFile;

struct RecoveredSession {
    QString recoveryFile;  // where it was saved
    QString documentPath;  // the file the text belongs to (empty: never saved)
    QString text;
    QDateTime savedAt;
};

class RecoveryStore {
public:
    // `directory` empty: $KERNELPAD_RECOVERY_DIR, else the app's data folder + /recovery.
    explicit RecoveryStore(QString directory = {});
    ~RecoveryStore();
    RecoveryStore(const RecoveryStore&) = delete;
    RecoveryStore& operator=(const RecoveryStore&) = delete;

    // Atomic (temporary file, fsync, rename): a failure leaves the previous recovery file as it was. False and `error` on failure.
    bool save(const QString& documentPath, const QString& text, QString* error = nullptr);
    // A normal end: nothing to recover from this session.
    void clear();

    // Sessions of apps that ended without clear(): crashed, killed. Not this one's, not running ones'.
    QList<RecoveredSession> orphaned() const;
    // Forgets one (restored or declined).
    static void discard(const RecoveredSession& session);

    const QString& directory() const noexcept { return directory_; }
    QString file() const; // this session's recovery file

private:
    QString directory_;
    QString id_;
    std::unique_ptr<QLockFile> lock_;
};
