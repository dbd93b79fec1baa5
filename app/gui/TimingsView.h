// The timings of runs: bars for copy in, kernel, copy out and the CPU reference or backend of the latest
// run, each at its median with the spread of the repeats; for a program, a timeline of its steps (a bar
// each, loops holding their steps' time, and each one's share); its bandwidth and GFLOP/s against the
// device's peak; and the session's history, so a student sees "my change made it 3x faster". The main window
// feeds it each finished run's report (RunReport::toJson).
#pragma once

#include "core/run/Timing.h"

#include <QWidget>
#include <nlohmann/json.hpp>
#include <optional>

class QCheckBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableView;
class TimingHistoryModel;

class TimingsView : public QWidget {
    Q_OBJECT
public:
    explicit TimingsView(QWidget* parent = nullptr);

    // Shows the run's bars and appends it to the history (a program's under a label of its own: `label`
    // says what a student changes in a single launch). A malformed report (no kernel_ms, a time that
    // is text) is not added: the view says what is wrong instead, and returns false.
    bool addRun(const nlohmann::json& report, const QString& label = {}, std::optional<double> flops = {});
    // The device the runs are on; 0 = unknown. CPU runs are never compared with it.
    void setDevicePeak(double bandwidthGBs, double gflops);
    void clearHistory();
    // The runs `other` holds, with its latest run's bars: for a window built anew in another language.
    void takeOver(const TimingsView& other);
    int historySize() const;

    QCustomPlot* barsPlot() const { return bars_; }
    // A program's timeline: a bar per step of the latest run, hidden for a single launch.
    QCustomPlot* stepsPlot() const { return steps_; }
    QCustomPlot* historyPlot() const { return historyPlot_; }
    TimingHistoryModel* history() const { return history_; }
    QCheckBox* logScaleBox() const { return logScale_; }
    QPushButton* clearButton() const { return clear_; }
    // What the latest run took and achieved, or why its report could not be shown.
    QString summaryText() const;
    // The latest run against the previous run of the same kernel ("3.0x faster"); empty for a first run.
    QString lastChangeText() const;

    // The bars as .png, .svg or .pdf, chosen by the extension; false with a reason in `error`.
    bool exportPlot(const QString& path, QString* error);
    // The history as CSV: a header line, then one line per run.
    bool exportHistoryCsv(const QString& path, QString* error);

private:
    void showLatest();
    void showRejected(const QString& reason);
    void clearBars();
    void drawBars(const kp::run::RunTimings& run);
    void drawSteps(const kp::run::RunTimings& run);
    void setBarsTitle(const QString& text);
    void drawHistory();
    void placeHistoryLegend(bool shown);
    void applyScale();

    QLabel* summary_;
    QCustomPlot* bars_;
    QCustomPlot* steps_;
    QCustomPlot* historyPlot_;
    QTableView* table_;
    QCheckBox* logScale_;
    QPushButton* clear_;
    TimingHistoryModel* history_;
    kp::run::DevicePeak peak_;
    std::optional<double> latestFlops_;
    std::vector<double> barExtents_; // every bar's fastest and slowest repeat: what the value axis must show
    bool userChoseScale_ = false;    // once the student picks a scale, new runs leave it alone
};
