// The samples browser: the samples that ship with Kernelpad (core/io/SampleCatalog), grouped and in
// teaching order, each by its title with its lesson's first paragraph below the list; activating one
// (double-click, Enter or Open) asks the main window to open it.
#pragma once

#include "core/io/SampleCatalog.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

class SamplesBrowser : public QWidget {
    Q_OBJECT
public:
    explicit SamplesBrowser(QWidget* parent = nullptr);
    // Lists the samples of `folder`; returns how many. A folder that cannot be read, or an index with
    // problems, says so above the list.
    int load(const QString& folder);
    static QString defaultFolder();
    // The playground of the sample named (folder name) or titled `name`, empty when there is none.
    QString pathOf(const QString& name) const;
    // Selects the sample whose playground is `path`; clears the selection and returns false when it is
    // not a sample's.
    bool select(const QString& path);

    QTreeWidget* list() const { return list_; }
    const kp::io::SampleCatalog& catalog() const { return catalog_; }

signals:
    void openRequested(const QString& path);

private:
    void showSelected();
    QTreeWidgetItem* itemOf(const QString& path) const;

    kp::io::SampleCatalog catalog_;
    QLabel* problems_;
    QTreeWidget* list_;
    QLabel* summary_;
    QPushButton* open_;
};
