// The editor of one kernel argument in the argument panel: for an array its dtype, shape, direction,
// init with its parameters and a preview (a table of the first values, a heat map for 2-D); for a
// scalar its value or binding (size(x), rows(x)...). A field with an error is marked and says why;
// the argument keeps its last valid value meanwhile, so nothing the user set is lost.
#pragma once

#include "core/model/KernelSignature.h"
#include "core/model/Playground.h"

#include <QGroupBox>
#include <QMap>
#include <filesystem>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QTableWidget;

class ArgumentEditor : public QGroupBox {
    Q_OBJECT
public:
    ArgumentEditor(const kp::model::ArgumentSpec& spec, const kp::model::Parameter& parameter,
                   std::filesystem::path folder, QWidget* parent = nullptr);

    const kp::model::ArgumentSpec& spec() const { return spec_; }
    // The problems of the fields, "shape: ..." one each; empty when every field is valid.
    QStringList problems() const;
    // Names of the other arguments, for checking a scalar's binding (size(x) needs an array x).
    void setArrayNames(const QStringList& names);

    QLineEdit* shapeEdit() const { return shape_; }
    QLineEdit* valueEdit() const { return value_; }
    QComboBox* initCombo() const { return init_; }
    QComboBox* directionCombo() const { return direction_; }
    QComboBox* dtypeCombo() const { return dtype_; }
    QLineEdit* initField(const QString& name) const { return initFields_.value(name); }
    QTableWidget* previewTable() const { return previewTable_; }
    QLabel* heatMap() const { return heatMap_; }
    QLabel* errorLabel() const { return error_; }
    // Regenerates the preview now (it follows edits after a short delay otherwise).
    void updatePreview();

signals:
    void changed(); // the user changed the spec (valid or not: problems() says)

private:
    void buildArray();
    void buildScalar();
    void readFields(); // fields -> spec_, marking the invalid ones
    void setProblem(QWidget* field, const QString& key, const QString& problem);
    void showProblems();

    kp::model::ArgumentSpec spec_;
    kp::model::Parameter parameter_;
    std::filesystem::path folder_;
    QStringList arrayNames_;
    QComboBox* dtype_ = nullptr;
    QLineEdit* shape_ = nullptr;
    QComboBox* direction_ = nullptr;
    QComboBox* init_ = nullptr;
    QStackedWidget* initPages_ = nullptr;
    QMap<QString, QLineEdit*> initFields_;
    QLineEdit* value_ = nullptr;
    QTableWidget* previewTable_ = nullptr;
    QLabel* heatMap_ = nullptr;
    QLabel* error_ = nullptr;
    QMap<QString, QString> problems_; // field key -> message
    bool updating_ = false;
};
