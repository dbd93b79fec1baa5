// The samples browser: every playground under the samples folder by its title, with the first lines of
// its lesson as a tooltip; activating one asks the main window to open it.
#pragma once

#include <QTreeWidget>

class SamplesBrowser : public QTreeWidget {
    Q_OBJECT
public:
    explicit SamplesBrowser(QWidget* parent = nullptr);
    // Lists the playgrounds (*.kpad.json) under `folder`, one per sample folder; returns how many.
    int load(const QString& folder);
    // The samples folder: $KERNELPAD_SAMPLES_DIR, the installed share/kernelpad/samples beside the
    // program, else the source tree's.
    static QString defaultFolder();
    // The path of the sample titled or named `name` (folder name), empty when there is none.
    QString pathOf(const QString& name) const;

signals:
    void openRequested(const QString& path);
};
