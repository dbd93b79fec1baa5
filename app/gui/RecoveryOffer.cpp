#include "RecoveryOffer.h"

#include "MainWindow.h"
#include "PlaygroundDocument.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace {

bool sameFile(const QString& a, const QString& b) {
    const QFileInfo first(a), second(b);
    if (first.exists() && second.exists()) return first.canonicalFilePath() == second.canonicalFilePath();
    return first.absoluteFilePath() == second.absoluteFilePath();
}

} // namespace

int RecoveryOffer::start(const QString& file, const QString& fallback, const Question& ask) {
    used_ = !file.isEmpty() && window_.openFile(file);
    int restored = 0;
    // One by one: each asked, and nothing removed that the person did not restore or discard.
    for (const auto& session : window_.recovery().orphaned()) {
        switch (ask ? ask(session) : askInBox(session)) {
        case RecoveryAnswer::Restore:
            windowFor(session)->restore(session);
            ++restored;
            break;
        case RecoveryAnswer::Keep:
            break;
        case RecoveryAnswer::Discard:
            RecoveryStore::discard(session);
            break;
        }
    }
    if (!used_ && !fallback.isEmpty()) window_.openFile(fallback);
    return restored;
}

RecoveryAnswer RecoveryOffer::askInBox(const RecoveredSession& session) {
    QMessageBox box(
        QMessageBox::Question, tr("Restore"),
        tr("Kernelpad did not close properly. Restore the playground you were editing%1, saved at %2?")
            .arg(session.documentPath.isEmpty() ? QString() : tr(" in %1").arg(session.documentPath),
                 session.savedAt.toLocalTime().toString(QStringLiteral("HH:mm:ss"))),
        QMessageBox::NoButton, &window_);
    QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
    QPushButton* keep = box.addButton(tr("Keep for Later"), QMessageBox::RejectRole);
    box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.setDefaultButton(restore);
    box.setEscapeButton(keep);
    box.exec();
    if (box.clickedButton() == restore) return RecoveryAnswer::Restore;
    return box.clickedButton() == keep ? RecoveryAnswer::Keep : RecoveryAnswer::Discard;
}

MainWindow* RecoveryOffer::windowFor(const RecoveredSession& session) {
    const QString current = window_.currentFile();
    if (!used_ ||
        (!session.documentPath.isEmpty() && !current.isEmpty() && sameFile(session.documentPath, current))) {
        used_ = true;
        return &window_;
    }
    // The first window shows something already: the session gets its own, which answers questions as
    // that one does.
    auto* window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->document()->setSaveQuestion(window_.document()->saveQuestion());
    window->document()->setOverwriteQuestion(window_.document()->overwriteQuestion());
    window->show();
    return window;
}
