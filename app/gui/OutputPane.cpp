#include "OutputPane.h"

#include "Appearance.h"
#include "ArrayPlot.h"
#include "ArrayTableModel.h"
#include "PlotExport.h"
#include "core/Error.h"
#include "core/io/CsvFile.h"
#include "core/io/FileBytes.h"
#include "core/io/NpyFile.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <filesystem>
#include <qcustomplot.h>
#include <span>

namespace {

Banner bannerOf(CheckSummary::State state) {
    switch (state) {
    case CheckSummary::State::Passed:
        return Banner::Passed;
    case CheckSummary::State::Failed:
        return Banner::Failed;
    case CheckSummary::State::NotChecked:
        break;
    }
    return Banner::Notice;
}

std::filesystem::path filePath(const QString& path) {
    return QFile::encodeName(path).toStdString();
}

QString extensionOf(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

} // namespace

OutputPane::OutputPane(const QString& name, const std::shared_ptr<const kp::model::Array>& array,
                       const std::shared_ptr<const kp::model::Array>& reference,
                       const kp::run::Tolerance& tolerance, const CheckSummary& summary, QWidget* parent)
    : QWidget(parent), name_(name), summary_(summary), summaryLabel_(new QLabel(summary.text, this)),
      windowLabel_(new QLabel(this)), goTo_(new QLineEdit(this)), model_(new ArrayTableModel(this)),
      table_(new QTableView(this)), plot_(new ArrayPlot(this)) {
    summaryLabel_->setWordWrap(true);
    setBanner(summaryLabel_, bannerOf(summary.state));
    summaryLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* saveArray = new QPushButton(tr("Save array…"), this);
    saveArray->setToolTip(tr("Save this output as .npy or .csv"));
    auto* savePlot = new QPushButton(tr("Save plot…"), this);
    savePlot->setToolTip(tr("Save the plot as .png, .svg or .pdf"));
    auto* top = new QHBoxLayout;
    model_->setArray(array, reference, tolerance);
    if (model_->totalRows() == 1 && model_->totalColumns() == 1) {
        // One number (a sum, a count): said first, in the line that is in view however little room the
        // results have; the table and the plot show it again.
        auto* value = new QLabel(QStringLiteral("%1 = %2").arg(
                                     name, model_->data(model_->index(0, 0), Qt::DisplayRole).toString()),
                                 this);
        value->setObjectName(QStringLiteral("oneValue"));
        QFont bold = value->font();
        bold.setBold(true);
        value->setFont(bold);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        oneValue_ = value;
        top->addWidget(value);
    }
    top->addWidget(summaryLabel_, 1);
    top->addWidget(saveArray);
    top->addWidget(savePlot);

    goTo_->setPlaceholderText(tr("Go to index: 12 or 3, 4"));
    goTo_->setToolTip(tr("An element's indices, one per dimension, or its flat index; Enter to go"));
    goTo_->setClearButtonEnabled(true);
    goTo_->setMinimumWidth(fontMetrics().horizontalAdvance(goTo_->placeholderText()) + 40);
    auto* navigation = new QHBoxLayout;
    navigation->addWidget(windowLabel_, 1);
    navigation->addWidget(goTo_);
    auto* tableSide = new QWidget(this);
    auto* tableLayout = new QVBoxLayout(tableSide);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addLayout(navigation);
    tableLayout->addWidget(table_, 1);

    // Fixed row heights: nothing is measured per row. The header is as wide as the last row's label,
    // which moving the window would otherwise widen under the user's eyes.
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    // Wide enough for a float32 in its shortest form; a 1-D array's column(s) take the rest.
    table_->horizontalHeader()->setDefaultSectionSize(
        fontMetrics().horizontalAdvance(QStringLiteral("-0.00012345678")) + 14);
    table_->horizontalHeader()->setStretchLastSection(array->shape().size() == 1);
    table_->setModel(model_);
    const QString widestRow = model_->rowLabel(std::max<qint64>(0, model_->totalRows() - 1));
    table_->verticalHeader()->setMinimumWidth(fontMetrics().horizontalAdvance(widestRow) + 16);
    table_->setWordWrap(false);

    plot_->setArrays(array, reference, tolerance);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(tableSide);
    splitter->addWidget(plot_);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(saveArray, &QPushButton::clicked, this, &OutputPane::saveArrayRequested);
    connect(savePlot, &QPushButton::clicked, this, &OutputPane::savePlotRequested);
    connect(goTo_, &QLineEdit::returnPressed, this, &OutputPane::goToTyped);
    connect(model_, &ArrayTableModel::windowMoved, this, &OutputPane::showWindow);
    connect(table_->verticalScrollBar(), &QScrollBar::valueChanged, this,
            [this] { followScroll(Qt::Vertical); });
    connect(table_->horizontalScrollBar(), &QScrollBar::valueChanged, this,
            [this] { followScroll(Qt::Horizontal); });
    showWindow();
}

QString OutputPane::windowText() const {
    return windowLabel_->text();
}

void OutputPane::showWindow() {
    const auto* array = model_->array();
    // The output's name first: with one output the results show no tab that would name it.
    QString text = QStringLiteral("%1 · %2 %3")
                       .arg(name_, QString::fromUtf8(kp::model::name(array->dtype())),
                            QString::fromStdString(kp::model::toString(array->shape())));
    if (model_->totalRows() > model_->rowCount())
        text += tr(" · rows %L1–%L2 of %L3")
                    .arg(model_->firstRow())
                    .arg(model_->firstRow() + model_->rowCount() - 1)
                    .arg(model_->totalRows());
    if (model_->totalColumns() > model_->columnCount())
        text += tr(" · columns %L1–%L2 of %L3")
                    .arg(model_->firstColumn())
                    .arg(model_->firstColumn() + model_->columnCount() - 1)
                    .arg(model_->totalColumns());
    if (!goToProblem_.isEmpty()) text += QStringLiteral(" · ") + goToProblem_;
    windowLabel_->setText(text);
    windowLabel_->setToolTip(model_->isWindowed()
                                 ? tr("Scrolling past the end of the rows shown moves on through "
                                      "the array; type an index to jump")
                                 : QString());
}

// Scrolled to the window's edge: move the window half its size on and keep the same rows in sight,
// so a big array scrolls through end to end.
void OutputPane::followScroll(Qt::Orientation orientation) {
    QScrollBar* bar =
        orientation == Qt::Vertical ? table_->verticalScrollBar() : table_->horizontalScrollBar();
    const bool vertical = orientation == Qt::Vertical;
    const qint64 first = vertical ? model_->firstRow() : model_->firstColumn();
    const qint64 shown = vertical ? model_->rowCount() : model_->columnCount();
    const qint64 total = vertical ? model_->totalRows() : model_->totalColumns();
    const qint64 half = (vertical ? ArrayTableModel::kWindowRows : ArrayTableModel::kWindowColumns) / 2;
    qint64 target = first;
    if (bar->value() == bar->maximum() && first + shown < total) target = first + half;
    if (bar->value() == bar->minimum() && first > 0) target = first - half;
    if (target == first) return;
    if (vertical)
        model_->moveWindow(target, model_->firstColumn());
    else
        model_->moveWindow(model_->firstRow(), target);
    const qint64 moved = (vertical ? model_->firstRow() : model_->firstColumn()) - first;
    bar->setValue(bar->value() - static_cast<int>(moved));
}

void OutputPane::goToTyped() {
    std::vector<std::size_t> index;
    const auto parts =
        goTo_->text().split(QRegularExpression(QStringLiteral("[\\s,\\[\\]()]+")), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        bool ok = false;
        const qulonglong i = part.toULongLong(&ok);
        if (!ok) {
            goToProblem_ = tr("'%1' is not an index").arg(part);
            showWindow();
            return;
        }
        index.push_back(i);
    }
    if (!index.empty()) goTo(index);
}

bool OutputPane::goTo(const std::vector<std::size_t>& typed) {
    const auto& shape = model_->array()->shape();
    std::vector<std::size_t> index = typed;
    if (index.size() == 1 && shape.size() > 1 && index[0] < model_->array()->size())
        index = kp::run::unravel(index[0], shape);
    bool inside = index.size() == shape.size();
    for (std::size_t d = 0; inside && d < shape.size(); ++d)
        inside = index[d] < shape[d];
    if (!inside) {
        QStringList given;
        for (std::size_t i : typed)
            given << QString::number(i);
        goToProblem_ =
            tr("no element [%1] in shape %2")
                .arg(given.join(QStringLiteral(", ")), QString::fromStdString(kp::model::toString(shape)));
        showWindow();
        return false;
    }
    goToProblem_.clear();
    const auto [row, column] = model_->cellOf(index);
    const bool rowShown = row >= model_->firstRow() && row < model_->firstRow() + model_->rowCount();
    const bool columnShown =
        column >= model_->firstColumn() && column < model_->firstColumn() + model_->columnCount();
    if (!rowShown || !columnShown)
        model_->moveWindow(rowShown ? model_->firstRow() : row - ArrayTableModel::kWindowRows / 2,
                           columnShown ? model_->firstColumn()
                                       : column - ArrayTableModel::kWindowColumns / 2);
    const QModelIndex cell = model_->index(static_cast<int>(row - model_->firstRow()),
                                           static_cast<int>(column - model_->firstColumn()));
    table_->setCurrentIndex(cell);
    table_->scrollTo(cell, QAbstractItemView::PositionAtCenter);
    showWindow();
    return true;
}

void OutputPane::saveArray(const QString& path) const {
    const QString extension = extensionOf(path);
    if (extension == QLatin1String("npy"))
        kp::io::writeNpy(filePath(path), *model_->array());
    else if (extension == QLatin1String("csv"))
        kp::io::writeCsv(filePath(path), *model_->array());
    else
        throw kp::InputError(tr("the file name should end in .npy or .csv").toStdString());
}

void OutputPane::savePlot(const QString& path) const {
    const QString extension = extensionOf(path);
    if (extension != QLatin1String("png") && extension != QLatin1String("svg") &&
        extension != QLatin1String("pdf"))
        throw kp::InputError(tr("the file name should end in .png, .svg or .pdf").toStdString());
    QCustomPlot* plot = plot_->customPlot();
    // The size on screen, or a readable one when the plot was never laid out (a hidden tab).
    const QSize size = exportSize(plot, QSize(320, 240), QSize(1000, 640));
    const QByteArray bytes = renderPlot(plot, extension, size, name_);
    if (bytes.isEmpty())
        throw kp::Error(tr("the plot could not be drawn as %1").arg(extension).toStdString());
    kp::io::writeFileAtomically(filePath(path),
                                std::as_bytes(std::span(bytes.constData(), std::size_t(bytes.size()))));
}
