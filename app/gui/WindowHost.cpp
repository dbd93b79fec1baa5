#include "WindowHost.h"

#include "Language.h"
#include "MainWindow.h"

WindowHost::WindowHost() : window_(std::make_unique<MainWindow>()) {
    watch(window_.get());
}

WindowHost::~WindowHost() = default;

void WindowHost::watch(MainWindow* window) {
    // Queued: the old window is deleted here, after the menu click that asked has returned.
    connect(window, &MainWindow::languageSwitchRequested, this, &WindowHost::switchLanguage,
            Qt::QueuedConnection);
}

void WindowHost::switchLanguage(const QString& code) {
    if (!Language::install(code)) return;
    auto next = std::make_unique<MainWindow>();
    watch(next.get());
    next->takeOver(*window_);
    next->show();
    window_ = std::move(next); // the old window goes without asking: the new one holds its playground
    emit windowReplaced(window_.get(), code);
}
