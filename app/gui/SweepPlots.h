// A sweep's results drawn three ways, a tab each: the time against the parameter with the spread of the
// repeats and where the GPU starts to beat the CPU; the throughput; and a roofline. The main window feeds
// it each sweep (SweepResult.h holds the figures and the words); the plots export as pictures or CSV.
#pragma once

#include "core/run/SweepResult.h"

#include <QWidget>
#include <cstdint>
#include <optional>

class QComboBox;
class QLabel;
class QCustomPlot;
class QTabWidget;

class SweepPlots : public QWidget {
    Q_OBJECT
public:
    enum class Throughput { ElementsPerSecond, GigabytesPerSecond };

    explicit SweepPlots(QWidget* parent = nullptr);

    // Redraws every plot; rows that did not run are left out (the caption says which).
    void setResult(const kp::run::SweepResult& result);
    void clear();
    const kp::run::SweepResult& result() const { return result_; }

    // The roofline's point for each backend: its row at this parameter value, none where it did not run
    // there. Before a choice, or for a value no row has, each backend's largest point that ran.
    void setCurrentValue(std::int64_t value);
    std::optional<std::int64_t> currentValue() const { return currentValue_; }

    void setThroughput(Throughput unit);
    Throughput throughput() const;

    // Where the first GPU starts to beat the preferred CPU backend, kernel only and with the copies, as
    // the time plot says it: one line each.
    QString crossoverText() const;

    QTabWidget* tabs() const { return tabs_; }
    QCustomPlot* timePlot() const { return time_; }
    // The note under the plots when no GPU took part, with the command that sweeps `file` on one.
    QLabel* cpuOnlyNote() const { return cpuOnly_; }
    void setPlaygroundFile(const QString& file);
    QCustomPlot* throughputPlot() const { return throughput_; }
    QCustomPlot* rooflinePlot() const { return roofline_; }
    QComboBox* throughputBox() const { return unit_; }
    QComboBox* pointBox() const { return point_; }

    // The current tab's plot as .png, .svg or .pdf, chosen by the extension; false with a reason in `error`.
    bool exportPlot(const QString& path, QString* error);
    // The result as SweepResult::toCsv writes it.
    bool exportCsv(const QString& path, QString* error);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void drawTime();
    void drawCrossovers();
    void drawThroughput();
    QString rooflineTitle() const;
    void drawRoofline();
    QString drawRooflinePoints();
    void drawRoofs(double lowestIntensity, double highestIntensity, double lowestGflops,
                   double highestGflops);
    void fillPointBox();
    const kp::run::SweepRow* currentRow(const std::string& backendId) const;
    QString kernelName() const;

    kp::run::SweepResult result_;
    std::optional<std::int64_t> currentValue_;
    QStringList verdicts_;
    QTabWidget* tabs_;
    QLabel* cpuOnly_ = nullptr;
    QString kernelFile_;
    QCustomPlot* time_;
    QCustomPlot* throughput_;
    QCustomPlot* roofline_;
    QComboBox* unit_;
    QComboBox* point_;
};
