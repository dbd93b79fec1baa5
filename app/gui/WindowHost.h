// The application's main window, and a new one in its place when the language changes. A window's words
// are translated as it is built, so a window in another language is a new window: it takes over the old
// one's playground (saved or not), layout, backend, results and timings (MainWindow::takeOver), and the
// old one goes. main() keeps its window here; the language tests drive it.
#pragma once

#include <QObject>
#include <memory>

class MainWindow;

class WindowHost : public QObject {
    Q_OBJECT
public:
    WindowHost();
    ~WindowHost() override;

    MainWindow* window() const { return window_.get(); }

signals:
    // The window was built anew in the language `code`: `window` is the one shown now.
    void windowReplaced(MainWindow* window, const QString& code);

private:
    void watch(MainWindow* window);
    void switchLanguage(const QString& code);

    std::unique_ptr<MainWindow> window_;
};
