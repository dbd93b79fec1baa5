// After a crash or a kill: offers back, one by one, the sessions that did not end normally (RecoveryStore),
// and puts each restored one in a window: the first one's while it is unused, else a window of its own.
// MainWindow::start() and offerRecovery() use it.
#pragma once

#include "RecoveryStore.h"

#include <QCoreApplication>
#include <functional>

class MainWindow;

// What a person answers when a crashed session is offered back.
enum class RecoveryAnswer {
    Restore, // into a window: the whole playground, modified and not saved
    Keep,    // left in the recovery folder: offered again at the next start
    Discard, // removed for good
};

class RecoveryOffer {
    Q_DECLARE_TR_FUNCTIONS(RecoveryOffer)
public:
    using Question = std::function<RecoveryAnswer(const RecoveredSession&)>;

    explicit RecoveryOffer(MainWindow& window) : window_(window) {}

    // Opens `file` (the command line's) whatever is restored; `fallback` only when neither gives the
    // window anything to show. A session of `file` is restored over it. `ask` decides for each session
    // (default: a question box). Returns how many were restored.
    int start(const QString& file, const QString& fallback, const Question& ask);

private:
    RecoveryAnswer askInBox(const RecoveredSession& session);
    MainWindow* windowFor(const RecoveredSession& session);

    MainWindow& window_;
    bool used_ = false; // the first window shows something already
};
