// The Sweep dock: what to sweep (problem size or block size, from, to, steps, log or linear, repeats,
// the kernel's FLOPs as a formula of n) and on which backends, a Run/Stop button with progress, the
// plots (SweepPlots) drawn as the rows arrive, and the exports. RunController runs the sweep through
// the worker; MainWindow keeps the settings and the results with the playground.
#pragma once

#include "SweepPlots.h"
#include "core/model/Playground.h"
#include "core/run/Sweep.h"
#include "core/run/SweepResult.h"

#include <QWidget>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;

class PlaygroundDocument;
class RunController;

class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);

    // The backends to offer, by id ("cuda:0", "cpu", "cpu:1", "reference") with what to call them; the
    // ids in `checked` are ticked.
    void setBackends(const std::vector<std::pair<std::string, QString>>& backends,
                     const std::vector<std::string>& checked);
    std::vector<std::string> checkedBackends() const;

    // The playground's stored sweep settings and results; the backends offered: each CUDA device the
    // toolbar's `chooser` offers, the CPU backend on all cores and on one, and the playground's reference.
    // Returns why the stored sweep did not read (the defaults are shown then), empty when it did.
    QString showStored(const kp::model::Playground& playground, const QComboBox& chooser);
    // Shows the sweeps `runs` makes as they go, and keeps the settings (and the rows, once measured) in
    // `document`'s playground.
    void follow(RunController* runs, PlaygroundDocument* document);

    // Shows a spec's settings. Its backends, when it names any, are the ones ticked.
    void setSpec(const kp::run::SweepSpec& spec);
    // The settings as a spec; none, with the reason in `error` ("To: 10 is below From"), when they are wrong.
    std::optional<kp::run::SweepSpec> spec(QString* error) const;

    // A new sweep of `total` rows starts: the plots empty and fill as rows arrive.
    void begin(const kp::run::SweepResult& header, std::size_t total);
    void addRow(const kp::run::SweepRow& row, std::size_t done, std::size_t total);
    // The sweep ended: with its whole result, or with what happened (`message`) and the rows so far.
    void finish(const kp::run::SweepResult& result, const QString& message = {});
    // Stopped, crashed or refused: the rows so far stay, marked as cut short.
    void cutShort(const QString& message);
    void setRunning(bool running);
    bool running() const { return running_; }

    // What the plots need before a sweep's first row: its spec and the backends by name.
    kp::run::SweepResult header(const kp::run::SweepSpec& spec) const;
    QString fromText() const; // From and To as typed
    QString toText() const;

    // The results as they are now (the rows so far during a sweep).
    const kp::run::SweepResult& result() const { return result_; }
    void showResult(const kp::run::SweepResult& result); // a stored sweep, on opening a playground
    void clearResult();

    SweepPlots* plots() const { return plots_; }
    QComboBox* parameterBox() const { return parameter_; }
    QComboBox* scaleBox() const { return scale_; }
    QLineEdit* fromEdit() const { return from_; }
    QLineEdit* toEdit() const { return to_; }
    QSpinBox* stepsSpin() const { return steps_; }
    QSpinBox* repeatSpin() const { return repeat_; }
    QLineEdit* flopsEdit() const { return flops_; }
    QListWidget* backendList() const { return backends_; }
    QPushButton* runButton() const { return run_; }
    QProgressBar* progress() const { return progress_; }
    QString statusText() const;

signals:
    void runRequested();
    void stopRequested();
    void settingsChanged(); // the user changed a setting: the playground has changed

private:
    void parameterChanged();
    void exportPicture();
    void exportCsv();
    void showStatus(const QString& text);

    QComboBox* parameter_;
    QComboBox* scale_;
    QLineEdit* from_;
    QLineEdit* to_;
    QSpinBox* steps_;
    QSpinBox* repeat_;
    QLineEdit* flops_;
    QListWidget* backends_;
    QPushButton* run_;
    QPushButton* exportPicture_;
    QPushButton* exportCsv_;
    QProgressBar* progress_;
    QLabel* status_;
    SweepPlots* plots_;
    kp::run::SweepResult result_;
    std::string array_; // the swept array, kept from the spec shown
    int warmup_ = 1;
    bool running_ = false;
    bool loading_ = false; // setSpec is filling the fields: not the user's change
};
