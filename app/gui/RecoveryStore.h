// Autosave for crash recovery: the whole playground a window shows (its JSON, with the editor's text as its
// code) and the files it belongs to are saved atomically every few seconds into a recovery folder, one
// file per window. A session that ends normally removes its file; one that crashed or was killed
// (kill -9) leaves it behind with a stale lock, and the next start offers it back, losing at most the
// last few seconds. PlaygroundDocument autosaves and restores; the store only keeps the files.
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

class QLockFile;

struct RecoveredSession {
    QString recoveryFile; // where it was saved
    QString documentPath; // the file the text belongs to: the playground's, else the source's (empty: never
                          // saved)
    QString text;         // the editor's text
    QDateTime savedAt;
    QString playgroundPath; // the *.kpad.json it was opened from or saved to, empty for none
    QString sourcePath;     // the kernel's .cu file, empty for inline code
    QString folder;         // where the playground's relative paths resolve
    QString playground;     // the playground as JSON (project-format.md), its code inline; empty in a
                            // session an older Kernelpad saved, which kept only the text
};

class RecoveryStore {
public:
    // `directory` empty: $KERNELPAD_RECOVERY_DIR, else the app's data folder + /recovery.
    explicit RecoveryStore(QString directory = {});
    ~RecoveryStore();
    RecoveryStore(const RecoveryStore&) = delete;
    RecoveryStore& operator=(const RecoveryStore&) = delete;

    // Keeps `session` (its recoveryFile and savedAt are the store's to set). Atomic (temporary file, fsync,
    // rename): a failure leaves the previous recovery file as it was. False and `error` on failure.
    bool save(const RecoveredSession& session, QString* error = nullptr);
    // The text alone, as a session without a playground.
    bool save(const QString& documentPath, const QString& text, QString* error = nullptr);
    // The same save on the store's own thread: the write and its fsync, which take as long as the disk
    // does (hundreds of ms on a busy one), never hold up the GUI thread. A later call replaces a save not
    // yet started. `failed` is called on that thread with the error.
    using Failed = std::function<void(const QString& error)>;
    void saveInBackground(const RecoveredSession& session, Failed failed);
    // A normal end: nothing to recover from this session. A background save not yet started is dropped and
    // one under way is waited for, so that nothing writes the file again after it is gone.
    void clear();

    // Sessions of apps that ended without clear(): crashed, killed. Not this one's, not running ones'.
    QList<RecoveredSession> orphaned() const;
    // Forgets one (restored, or discarded by the person).
    static void discard(const RecoveredSession& session);

    const QString& directory() const noexcept { return directory_; }
    QString file() const; // this session's recovery file

private:
    QByteArray bytesOf(const RecoveredSession& session) const;
    bool write(const QByteArray& bytes, QString* error) const;
    void writeLoop();

    QString directory_;
    QString id_;
    std::unique_ptr<QLockFile> lock_;

    std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::optional<std::pair<QByteArray, Failed>> pending_;
    bool writing_ = false, quit_ = false;
    std::thread writer_; // started by the first background save
};
