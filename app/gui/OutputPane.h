// One output in the results view: what the check said about it, its table (moved through a window for
// big arrays) beside its plot, and buttons that ask to save the array or the plot. ResultsView holds
// one per tab, opens the file dialogs and shows what went wrong.
#pragma once

#include "CheckSummary.h"
#include "core/model/Array.h"
#include "core/run/Check.h"

#include <QWidget>
#include <memory>
#include <vector>

class ArrayPlot;
class ArrayTableModel;
class QLabel;
class QLineEdit;
class QTableView;

class OutputPane : public QWidget {
    Q_OBJECT
public:
    // `reference` may be null: nothing is highlighted then.
    OutputPane(const QString& name, const std::shared_ptr<const kp::model::Array>& array,
               const std::shared_ptr<const kp::model::Array>& reference, const kp::run::Tolerance& tolerance,
               const CheckSummary& summary, QWidget* parent = nullptr);

    const QString& name() const { return name_; }
    const CheckSummary& summary() const { return summary_; }
    QLabel* summaryLabel() const { return summaryLabel_; }
    // "total = 8386048" before the summary, for an output of one number; null otherwise.
    QLabel* oneValueLabel() const { return oneValue_; }
    QTableView* table() const { return table_; }
    ArrayTableModel* model() const { return model_; }
    ArrayPlot* plot() const { return plot_; }
    // The line above the table: dtype, shape and which part of a big array the table shows.
    QString windowText() const;

    // Brings the element at `index` (one index per dimension, or a flat index) into the table, moving
    // its window if needed, and selects it. False, with the reason beside the table, when there is none.
    bool goTo(const std::vector<std::size_t>& index);

    // By the file's extension: .npy or .csv (kp::io); .png, .svg or .pdf. Throw kp::Error naming
    // what failed; a failed write leaves an existing file as it was.
    void saveArray(const QString& path) const;
    void savePlot(const QString& path) const;

signals:
    void saveArrayRequested();
    void savePlotRequested();

private:
    void followScroll(Qt::Orientation orientation);
    void goToTyped();
    void showWindow();

    QString name_;
    CheckSummary summary_;
    QLabel* summaryLabel_;
    QLabel* windowLabel_;
    QLabel* oneValue_ = nullptr;
    QLineEdit* goTo_;
    ArrayTableModel* model_;
    QTableView* table_;
    ArrayPlot* plot_;
    QString goToProblem_;
};
