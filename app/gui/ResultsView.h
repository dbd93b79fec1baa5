// The results of a run: a tab per output array with what the check against the reference said, a
// table that stays fast for 100M elements and a zoomable plot, and saving of arrays (.npy, .csv) and
// plots (.png, .svg, .pdf). The main window calls showRun() when a run ends.
#pragma once

#include "core/launch/RunResult.h"
#include "core/run/Check.h"

#include <QWidget>
#include <nlohmann/json.hpp>

class ArrayPlot;
class OutputPane;
class QLabel;
class QTabWidget;
class QTableView;

class ResultsView : public QWidget {
    Q_OBJECT
public:
    explicit ResultsView(QWidget* parent = nullptr);

    // One tab per output. `report` is the run's whole timings.json object: its "check" (or
    // "unchecked_because") gives each output's summary, and only the outputs it checked are compared
    // cell by cell with `reference` (same names), under the tolerance `check` and each dtype give
    // (run::toleranceFor). The arrays are kept, not copied,
    // when passed with std::move: copying 100M elements would hold up the GUI thread.
    void showRun(kp::launch::NamedArrays outputs, kp::launch::NamedArrays reference,
                 const kp::model::CheckSpec& check, const nlohmann::json& report);
    void clear();
    // Moves `other`'s outputs (their panes, arrays and verdicts) here: for a window built anew.
    void takeOver(ResultsView& other);
    // The outputs on view are not the last run's (it was refused or failed): `why` is said above them
    // until the next run's outputs replace them. Nothing is marked while nothing is shown.
    void markStale(const QString& why);
    QLabel* staleNote() const { return stale_; }

    int outputCount() const;
    // Null when there is no such output.
    OutputPane* pane(const QString& output) const;
    QTableView* table(const QString& output) const;
    ArrayPlot* plot(const QString& output) const;
    QTabWidget* tabs() const { return tabs_; }
    // What the last save said: an error (red) or where the file went.
    QLabel* message() const { return message_; }

    // By extension: .npy or .csv. False with `error` saying what failed and where; shown on the view too.
    bool exportArray(const QString& output, const QString& path, QString* error = nullptr);
    // By extension: .png, .svg or .pdf.
    bool exportPlot(const QString& output, const QString& path, QString* error = nullptr);
    // Ask for a file name, then export.
    void saveArrayAs(const QString& output);
    void savePlotAs(const QString& output);

private:
    bool report(bool ok, const QString& text, QString* error);
    QLabel* message_;
    QLabel* stale_;
    QLabel* placeholder_;
    QTabWidget* tabs_;
};
