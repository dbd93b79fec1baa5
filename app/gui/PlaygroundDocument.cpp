#include "PlaygroundDocument.h"

#include "ArgumentPanel.h"
#include "KernelEditor.h"
#include "LaunchPanel.h"
#include "ProgramPanel.h"
#include "Settings.h"
#include "core/io/FileBytes.h"
#include "core/io/PlaygroundFile.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSignalBlocker>
#include <QStandardPaths>
#include <span>

using namespace kp;

namespace {

QString fromUtf8(const std::string& text) {
    return QString::fromStdString(text);
}

bool isSourceName(const QString& path) {
    return path.endsWith(QStringLiteral(".cu")) || path.endsWith(QStringLiteral(".cuh"));
}

// A playground's name ends in .kpad.json (project-format.md): "p", "p.json" and "p.kpad" all become
// "p.kpad.json".
QString playgroundName(QString path) {
    if (path.endsWith(QStringLiteral(".kpad.json"))) return path;
    if (path.endsWith(QStringLiteral(".json"))) path.chop(5);
    if (path.endsWith(QStringLiteral(".kpad"))) path.chop(5);
    return path + QStringLiteral(".kpad.json");
}

bool sameFile(const QString& a, const QString& b) {
    const QFileInfo first(a), second(b);
    if (first.exists() && second.exists()) return first.canonicalFilePath() == second.canonicalFilePath();
    return first.absoluteFilePath() == second.absoluteFilePath();
}

std::span<const std::byte> bytesOf(const QByteArray& bytes) {
    return std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

} // namespace

PlaygroundDocument::PlaygroundDocument(KernelEditor* editor, const ArgumentPanel* arguments,
                                       const LaunchPanel* launch, const ProgramPanel* program,
                                       QWidget* window)
    : QObject(window), editor_(editor), arguments_(arguments), launch_(launch), program_(program),
      window_(window) {
    // Every few seconds, if the text changed: a crash or a kill loses at most that much.
    autosave_.setInterval(3000);
    connect(&autosave_, &QTimer::timeout, this, &PlaygroundDocument::autosave);
    autosave_.start();
}

model::Playground PlaygroundDocument::current() const {
    model::Playground playground = playground_;
    playground.code = editor_->text().toStdString();
    playground.source.reset();
    playground.args = arguments_->arguments();
    playground.launch = launch_->launch();
    playground.variables = program_->variables();
    playground.buffers = program_->buffers();
    playground.steps = program_->steps();
    return playground;
}

bool PlaygroundDocument::isModified() const {
    return editor_->isModified() || panelsModified_;
}

void PlaygroundDocument::setPanelsModified(bool modified) {
    panelsModified_ = modified;
    if (modified) changedSinceAutosave_ = true; // the arguments and launch are autosaved too
    emit modifiedChanged();
}

void PlaygroundDocument::markUnchanged() {
    changedSinceAutosave_ = false;
    setPanelsModified(false);
}

void PlaygroundDocument::textEdited() {
    changedSinceAutosave_ = true;
}

void PlaygroundDocument::renameKernel(const std::string& name) {
    playground_.kernel = name;
}

void PlaygroundDocument::storeSweep(const run::SweepSpec& spec, const run::SweepResult* result) {
    run::storeSweep(playground_, spec, result);
    setPanelsModified(true);
}

// ---- opening

bool PlaygroundDocument::open(const QString& path, QString* error) {
    model::Playground playground;
    QString sourcePath = path;
    QString playgroundPath;
    try {
        if (path.endsWith(QStringLiteral(".kpad.json"))) {
            // Read and checked by the core, as a run would read it; nothing is compiled or run.
            playground = io::readPlayground(path.toStdString());
            playgroundPath = QFileInfo(path).absoluteFilePath();
            sourcePath =
                playground.source ? fromUtf8(playground.resolve(*playground.source).string()) : QString();
        } else {
            playground.folder = QFileInfo(path).absolutePath().toStdString();
        }
        // Through the core's reader: a FIFO or a device named as the source is refused, never waited on.
        if (!sourcePath.isEmpty()) playground.code = io::readTextFile(sourcePath.toStdString());
    } catch (const std::exception& e) {
        *error = QString::fromUtf8(e.what());
        return false;
    }
    show(playground, playgroundPath, sourcePath);
    addRecent(QFileInfo(path).absoluteFilePath());
    emit logged(tr("Opened %1").arg(path));
    return true;
}

void PlaygroundDocument::showNew() {
    model::Playground blank;
    blank.code = "__global__ void kernel(float* out, const float* in, int n) {\n"
                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (i < n) out[i] = 2 * in[i];\n}\n";
    blank.kernel = "kernel";
    show(blank);
}

void PlaygroundDocument::show(const model::Playground& playground, const QString& playgroundPath,
                              const QString& sourcePath) {
    playgroundPath_ = playgroundPath;
    sourcePath_ = sourcePath;
    playground_ = playground;
    if (playground_.code) {
        const QSignalBlocker block(editor_);
        editor_->setText(fromUtf8(*playground_.code));
    }
    editor_->setModified(false);
    if (playground_.folder.empty()) playground_.folder = QDir::currentPath().toStdString();
    emit opened();
}

void PlaygroundDocument::restore(const RecoveredSession& session) {
    if (!showRestored(session)) {
        // Only the text was kept: it comes back into its file as that file is on disk, so that a save
        // keeps the settings it holds; without its file, into an untitled playground.
        QString error;
        if (session.documentPath.isEmpty() || !QFileInfo(session.documentPath).isFile() ||
            !open(session.documentPath, &error)) {
            if (!session.documentPath.isEmpty())
                emit logged(
                    tr("%1 cannot be opened (%2): the restored text is untitled, save it under a name.")
                        .arg(session.documentPath, error.isEmpty() ? tr("it is not there") : error));
            model::Playground untitled;
            untitled.code = session.text.toStdString();
            show(untitled);
        }
        editor_->setText(session.text);
    }
    setPanelsModified(true); // restored, not saved
    changedSinceAutosave_ = true;
    autosaveNow(); // this window holds it now: the crashed session's file can go
    RecoveryStore::discard(session);
    emit logged(tr("Restored the playground %1 saved at %2")
                    .arg(session.documentPath.isEmpty() ? tr("untitled") : session.documentPath,
                         session.savedAt.toLocalTime().toString(QStringLiteral("HH:mm:ss"))));
}

// The whole playground of a session, where it kept one that reads.
bool PlaygroundDocument::showRestored(const RecoveredSession& session) {
    if (session.playground.isEmpty()) return false;
    const QString folder = session.folder.isEmpty() ? QDir::currentPath() : session.folder;
    const QString name = session.playgroundPath.isEmpty()
                             ? QDir(folder).filePath(QStringLiteral("untitled.kpad.json"))
                             : session.playgroundPath;
    try {
        model::Playground playground =
            io::parsePlayground(session.playground.toStdString(), name.toStdString());
        // Autosaved with its code inline; a playground that names its source goes on naming it.
        if (!session.playgroundPath.isEmpty() && !session.sourcePath.isEmpty())
            playground.source = QFileInfo(name).dir().relativeFilePath(session.sourcePath).toStdString();
        show(playground, session.playgroundPath, session.sourcePath);
        return true;
    } catch (const std::exception& e) {
        emit logged(tr("The restored playground did not read (%1): only its text is restored.")
                        .arg(QString::fromUtf8(e.what())));
        return false;
    }
}

// ---- saving

bool PlaygroundDocument::save() {
    // A sample is not saved over (the next student would find it changed, or it is read-only where
    // Kernelpad is installed): the copy goes in the user's documents, Kernelpad/<sample>.kpad.json.
    if (currentFile().isEmpty() || isInstalledSample()) {
        const QString suggested =
            currentFile().isEmpty()
                ? QString()
                : QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                      .filePath(QStringLiteral("Kernelpad/") + QFileInfo(currentFile()).fileName());
        if (!suggested.isEmpty()) QDir().mkpath(QFileInfo(suggested).path());
        const QString path =
            askSavePath_
                ? askSavePath_(suggested)
                : QFileDialog::getSaveFileName(
                      window_, suggested.isEmpty() ? tr("Save As") : tr("Save Your Copy of the Sample"),
                      suggested, tr("Playgrounds (*.kpad.json);;CUDA source (*.cu)"));
        return !path.isEmpty() && saveTo(path, path);
    }
    // A lone source keeps its name, whatever its ending.
    if (playgroundPath_.isEmpty()) return saveKernelSource(sourcePath_, sourcePath_);
    return saveTo(playgroundPath_, playgroundPath_);
}

bool PlaygroundDocument::saveTo(const QString& requested, const QString& confirmed) {
    if (isSourceName(requested)) return saveKernelSource(requested, confirmed);
    const QString path = QFileInfo(playgroundName(requested)).absoluteFilePath();
    model::Playground playground = current();
    // A playground that names its .cu is written with it; one with inline code keeps it inline. Saved
    // where it was, the source stays where it is; saved elsewhere, the source goes beside it.
    QString source;
    if (playground_.source && !sourcePath_.isEmpty()) {
        const bool samePlace = !playgroundPath_.isEmpty() && sameFile(path, playgroundPath_);
        source = samePlace ? sourcePath_ : QFileInfo(path).dir().filePath(QFileInfo(sourcePath_).fileName());
        playground.source = QFileInfo(path).dir().relativeFilePath(source).toStdString();
        playground.code.reset();
    }
    for (const QString& file : {path, source})
        if (!file.isEmpty() && !mayReplace(file, confirmed)) {
            emit message(tr("Not saved: %1 was kept as it is. Save under another name.").arg(file), 0);
            return false;
        }
    try {
        if (source.isEmpty())
            io::writePlayground(playground, path.toStdString());
        else
            io::writePlayground(playground, path.toStdString(), source.toStdString(),
                                editor_->text().toStdString());
    } catch (const std::exception& e) {
        const QString why = QString::fromUtf8(e.what());
        say(source.isEmpty()
                ? tr("Could not save the playground %1: %2. The file on disk is unchanged.").arg(path, why)
                : tr("Could not save the playground %1 with its kernel source %2: %3. "
                     "Both files on disk are unchanged.")
                      .arg(path, source, why));
        return false;
    }
    playgroundPath_ = path;
    playground.folder = QFileInfo(path).absolutePath().toStdString();
    playground_ = playground;
    if (playground.source) {
        sourcePath_ = QFileInfo(source).absoluteFilePath();
        playground_.code = editor_->text().toStdString();
        saved(sourcePath_);
    }
    saved(path);
    editor_->setModified(false);
    setPanelsModified(false);
    forgetAutosave();
    addRecent(path);
    emit message(path == QFileInfo(requested).absoluteFilePath()
                     ? tr("Saved %1").arg(path)
                     : tr("Saved the playground as %1: a playground's name ends in .kpad.json").arg(path),
                 4000);
    return true;
}

bool PlaygroundDocument::saveKernelSource(const QString& path, const QString& confirmed) {
    if (!mayReplace(path, confirmed)) {
        emit message(tr("Not saved: %1 was kept as it is. Save under another name.").arg(path), 0);
        return false;
    }
    if (!saveSource(path)) return false;
    sourcePath_ = QFileInfo(path).absoluteFilePath();
    saved(sourcePath_);
    if (!playgroundPath_.isEmpty() &&
        QFileInfo(playgroundPath_).absolutePath() != QFileInfo(path).absolutePath())
        playgroundPath_.clear();
    editor_->setModified(false);
    // A .cu file holds only the text: changed arguments or launch stay to be saved with the playground,
    // or, with no playground, are said to be left out.
    QString note;
    if (panelsModified_ && playgroundPath_.isEmpty()) {
        note = tr(" (the arguments and launch are not in a .cu file: save as .kpad.json to keep them)");
        setPanelsModified(false);
    }
    emit modifiedChanged();
    if (!isModified()) forgetAutosave();
    addRecent(sourcePath_);
    emit message(tr("Saved %1").arg(path) + note, note.isEmpty() ? 4000 : 10000);
    return true;
}

bool PlaygroundDocument::mayReplace(const QString& path, const QString& confirmed) {
    const QFileInfo info(path);
    if (!info.exists()) return true;
    for (const QString& ours : {playgroundPath_, sourcePath_, confirmed})
        if (!ours.isEmpty() && sameFile(ours, path)) return true;
    if (written_.contains(info.canonicalFilePath())) return true;
    if (askOverwrite_) return askOverwrite_(path);
    return QMessageBox::question(
               window_, tr("Replace file"),
               tr("%1 already exists, and this playground was not opened from it. Replace it?").arg(path),
               QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
}

void PlaygroundDocument::saved(const QString& path) {
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (!canonical.isEmpty() && !written_.contains(canonical)) written_.push_back(canonical);
    trusted_.trust(path); // the user wrote it
}

bool PlaygroundDocument::saveSource(const QString& path) {
    // Written to a temporary file, synced, then renamed over the old one. Not QSaveFile: Qt 6.4's
    // commits a file cut short when the disk takes only part of a write (found by the test).
    try {
        io::writeFileAtomically(path.toStdString(), bytesOf(editor_->text().toUtf8()));
    } catch (const std::exception& e) {
        emit message(tr("Could not save %1: %2. The file on disk is unchanged.")
                         .arg(path, QString::fromUtf8(e.what())),
                     0);
        return false;
    }
    if (playgroundPath_.isEmpty()) sourcePath_ = path;
    return true;
}

bool PlaygroundDocument::maybeSave() {
    if (!isModified()) return true;
    const auto answer =
        askSave_ ? askSave_()
                 : QMessageBox::question(
                       window_, tr("Unsaved changes"),
                       isInstalledSample()
                           ? tr("Your changes to the sample %1 are not saved. Save them as a copy "
                                "of your own? (The sample itself stays as it came.)")
                                 .arg(QFileInfo(currentFile()).fileName())
                           : tr("%1 has changes that are not saved. Save them?")
                                 .arg(currentFile().isEmpty() ? tr("The playground") : currentFile()),
                       QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save) return save();
    return answer == QMessageBox::Discard;
}

void PlaygroundDocument::addRecent(const QString& path) {
    Settings::addRecentFile(path);
    emit recentFilesChanged();
}

// A failed save is said in the status bar and kept in the log.
void PlaygroundDocument::say(const QString& text) {
    emit message(text, 0);
    emit logged(text);
}

// ---- trust

bool PlaygroundDocument::isTrusted() const {
    // The samples come with Kernelpad.
    return trusted_.isTrusted(currentFile()) || isInstalledSample();
}

bool PlaygroundDocument::isInstalledSample() const {
    const QString samples = QDir(samplesFolder_).canonicalPath();
    return !samples.isEmpty() && !currentFile().isEmpty() &&
           QFileInfo(currentFile()).canonicalFilePath().startsWith(samples + QLatin1Char('/'));
}

// ---- autosave

// The whole playground, so that a crash (or a window built anew) gives back its arguments, launch and file
// names as well.
RecoveredSession PlaygroundDocument::session() const {
    RecoveredSession session;
    session.playgroundPath = playgroundPath_;
    session.sourcePath = sourcePath_;
    session.documentPath = currentFile();
    session.folder = QString::fromStdString(playground_.folder.string());
    session.text = editor_->text();
    session.playground = QString::fromStdString(io::serializePlayground(current()));
    return session;
}

void PlaygroundDocument::carryOver(PlaygroundDocument& from) {
    const RecoveredSession session = from.session();
    const bool modified = from.isModified();
    from.endSession(); // its autosave is this document's from here on
    QString error;
    if (!modified && !session.documentPath.isEmpty() && open(session.documentPath, &error)) return;
    if (!showRestored(session)) {
        model::Playground untitled;
        untitled.code = session.text.toStdString();
        show(untitled);
        editor_->setText(session.text);
    }
    if (!modified) {
        markUnchanged();
        return;
    }
    setPanelsModified(true);
    changedSinceAutosave_ = true;
    autosaveNow(); // the other window's autosave is gone already
}

void PlaygroundDocument::autosave() {
    if (!changedSinceAutosave_) return;
    // Written on the store's thread; a failure comes back here, and the next tick tries again.
    recovery_.saveInBackground(session(), [this](const QString& error) {
        QMetaObject::invokeMethod(
            this,
            [this, error] {
                changedSinceAutosave_ = true;
                emit message(tr("Autosave failed: %1").arg(error), 5000);
            },
            Qt::QueuedConnection);
    });
    changedSinceAutosave_ = false;
}

void PlaygroundDocument::autosaveNow() {
    QString error;
    if (recovery_.save(session(), &error))
        changedSinceAutosave_ = false;
    else
        emit message(tr("Autosave failed: %1").arg(error), 5000);
}

void PlaygroundDocument::forgetAutosave() {
    // Saved: a crash from here on loses nothing, so there is nothing to offer back.
    recovery_.clear();
    changedSinceAutosave_ = false;
}

void PlaygroundDocument::endSession() {
    autosave_.stop();
    recovery_.clear();
}
