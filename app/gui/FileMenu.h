// The File menu: new, open, open recent, save, save as, the timings' exports and quit. MainWindow puts
// it in its menu bar; it acts on the window's PlaygroundDocument and asks the window to open a file.
#pragma once

#include <QMenu>

class PlaygroundDocument;
class QMainWindow;
class TimingsView;

class FileMenu : public QMenu {
    Q_OBJECT
public:
    FileMenu(PlaygroundDocument* document, TimingsView* timings, QMainWindow* window);

signals:
    void openRequested(const QString& path); // the document's changes are saved or discarded already

private:
    void open();
    void saveAs();
    void rebuildRecent();
    void exportPlot();
    void exportHistory();

    PlaygroundDocument* document_;
    TimingsView* timings_;
    QMainWindow* window_;
    QMenu* recent_;
};
