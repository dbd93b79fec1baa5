// The results view: tables show the arrays' values and highlight exactly the values that differ from
// the reference beyond the tolerance; plots get data (an envelope covering the array, a colour map);
// a 20M-element output shows without holding up the GUI thread and a 100M-element table scrolls to its
// end; arrays and plots save in every format, and a failed save says where. Drives real widgets offscreen.
#include "Appearance.h"
#include "ArrayPlot.h"
#include "ArrayTableModel.h"
#include "Envelope.h"
#include "OutputPane.h"
#include "ResultsView.h"
#include "core/io/CsvFile.h"
#include "core/io/NpyFile.h"
#include "core/run/RunReport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <functional>
#include <limits>
#include <qcustomplot.h>

using kp::launch::NamedArrays;
using kp::model::Array;
using kp::model::DType;
using kp::model::Shape;
using kp::run::Tolerance;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Array filled(DType dtype, Shape shape, const std::function<double(std::size_t, int)>& value) {
    Array a(dtype, std::move(shape));
    for (std::size_t i = 0; i < a.size(); ++i)
        for (int c = 0; c < kp::model::components(dtype); ++c)
            a.setValue(i, value(i, c), c);
    return a;
}

// The report a run with these checks writes (RunReport::toJson, as the CLI and the worker produce it).
nlohmann::json reportOf(const std::vector<kp::run::CheckResult>& checks,
                        const std::string& uncheckedBecause = {}) {
    const kp::launch::RunSetup setup;
    const kp::launch::RunResult result;
    kp::run::RunReport report;
    report.setup = &setup;
    report.result = &result;
    report.checks = checks;
    report.uncheckedBecause = uncheckedBecause;
    return report.toJson();
}

nlohmann::json checkedReport(const NamedArrays& outputs, const NamedArrays& reference,
                             const Tolerance& tolerance) {
    std::vector<kp::run::CheckResult> checks;
    for (const auto& [name, array] : outputs)
        if (const Array* expected = kp::launch::find(reference, name))
            checks.push_back(kp::run::check(name, array, *expected, tolerance));
    return reportOf(checks);
}

QByteArray head(const QString& path, int bytes) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(bytes) : QByteArray();
}

std::pair<double, double> finiteRange(const QCPGraph* graph) {
    double low = kInf, high = -kInf;
    for (const auto& point : *graph->data())
        if (std::isfinite(point.value)) {
            low = std::min(low, point.value);
            high = std::max(high, point.value);
        }
    return {low, high};
}

} // namespace

class TestResultsView : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // The table's cell for (row, column) of the whole table, moving the window to it.
    static QModelIndex cell(ArrayTableModel& model, qint64 row, qint64 column) {
        model.moveWindow(row, column);
        return model.index(int(row - model.firstRow()), int(column - model.firstColumn()));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // %L1 writes 20,000,000
    }

    void tableShowsTheArraysValues_data() {
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QList<int>>("shape");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("columns");
        QTest::newRow("1-D float32") << int(DType::Float32) << QList<int>{7} << 7 << 1;
        QTest::newRow("2-D int32") << int(DType::Int32) << QList<int>{3, 5} << 3 << 5;
        QTest::newRow("1-D float4: a column per component") << int(DType::Float4) << QList<int>{6} << 6 << 4;
        QTest::newRow("2-D int2") << int(DType::Int2) << QList<int>{2, 3} << 2 << 6;
        QTest::newRow("float16") << int(DType::Float16) << QList<int>{9} << 9 << 1;
        QTest::newRow("3-D float64: rows are (i, j)") << int(DType::Float64) << QList<int>{2, 3, 4} << 6 << 4;
        QTest::newRow("uint8") << int(DType::UInt8) << QList<int>{300} << 300 << 1;
    }
    void tableShowsTheArraysValues() {
        QFETCH(int, dtype);
        QFETCH(QList<int>, shape);
        QFETCH(int, rows);
        QFETCH(int, columns);
        const auto type = DType(dtype);
        Shape dims;
        for (int d : shape)
            dims.push_back(std::size_t(d));
        const int parts = kp::model::components(type);
        auto array = std::make_shared<const Array>(filled(type, dims, [&](std::size_t i, int c) {
            return double(i * std::size_t(parts) + std::size_t(c)) * 0.75 - 3;
        }));
        ArrayTableModel model;
        QTableView view;
        view.setModel(&model);
        model.setArray(array);
        QCOMPARE(model.rowCount(), rows);
        QCOMPARE(model.columnCount(), columns);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < columns; ++c) {
                // Independently of the model: row-major, components side by side in the last dimension.
                const std::size_t element =
                    dims.size() == 1 ? std::size_t(r) : std::size_t(r) * dims.back() + std::size_t(c / parts);
                const int component = dims.size() == 1 ? c : c % parts;
                const QModelIndex index = model.index(r, c);
                QCOMPARE(model.data(index, ArrayTableModel::ValueRole).toDouble(),
                         array->value(element, component));
                QCOMPARE(model.data(index).toString().toDouble(), array->value(element, component));
                QCOMPARE(model.data(index, ArrayTableModel::MismatchRole).toBool(), false);
                QVERIFY(!model.data(index, Qt::BackgroundRole).isValid());
            }
        if (dims.size() == 3)
            QCOMPARE(model.headerData(5, Qt::Vertical).toString(), QStringLiteral("[1, 2]"));
        if (parts == 4 && dims.size() == 1)
            QCOMPARE(model.headerData(3, Qt::Horizontal).toString(), QStringLiteral("w"));
        if (parts == 2 && dims.size() == 2)
            QCOMPARE(model.headerData(3, Qt::Horizontal).toString(), QStringLiteral("1.y"));
    }

    void tableWritesValuesAsTheirDtypeHoldsThem() {
        Array floats(DType::Float32, {2});
        floats.setValue(0, 0.1);
        floats.setValue(1, kNaN);
        Array longs(DType::Int64, {1});
        longs.as<std::int64_t>()[0] = 9007199254740993; // 2^53 + 1: a double would print ...992
        ArrayTableModel model;
        model.setArray(std::make_shared<const Array>(floats));
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("0.1"));
        QCOMPARE(model.data(model.index(1, 0)).toString(), QStringLiteral("nan"));
        model.setArray(std::make_shared<const Array>(longs));
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("9007199254740993"));
    }

    void highlightsExactlyTheValuesThatDiffer_data() {
        QTest::addColumn<double>("actual");
        QTest::addColumn<double>("expected");
        QTest::addColumn<bool>("differs");
        QTest::newRow("equal") << 2.0 << 2.0 << false;
        QTest::newRow("within tolerance") << 100.0 << 100.0005 << false;
        QTest::newRow("beyond tolerance") << 2.5 << 2.0 << true;
        QTest::newRow("NaN and NaN") << kNaN << kNaN << false;
        QTest::newRow("NaN and a number") << kNaN << 1.0 << true;
        QTest::newRow("same infinity") << kInf << kInf << false;
        QTest::newRow("opposite infinities") << kInf << -kInf << true;
    }
    void highlightsExactlyTheValuesThatDiffer() {
        QFETCH(double, actual);
        QFETCH(double, expected);
        QFETCH(bool, differs);
        // The odd value sits at [2, 1].y of a 4 x 3 float2 array; everything else matches.
        const Tolerance tolerance{1e-5, 1e-8};
        auto values = [](std::size_t i, int c) { return double(i) + 0.5 * c; };
        Array out = filled(DType::Float2, {4, 3}, values);
        Array ref = filled(DType::Float2, {4, 3}, values);
        out.setValue(7, actual, 1);
        ref.setValue(7, expected, 1);
        ArrayTableModel model;
        model.setArray(std::make_shared<const Array>(out), std::make_shared<const Array>(ref), tolerance);
        QVERIFY(model.hasReference());
        int highlighted = 0;
        for (int r = 0; r < model.rowCount(); ++r)
            for (int c = 0; c < model.columnCount(); ++c) {
                const QModelIndex index = model.index(r, c);
                const bool marked = model.data(index, ArrayTableModel::MismatchRole).toBool();
                QCOMPARE(model.data(index, Qt::BackgroundRole).isValid(), marked);
                QCOMPARE(model.data(index, Qt::ToolTipRole).isValid(), marked);
                if (marked) {
                    QCOMPARE(r, 2);
                    QCOMPARE(c, 3); // element [2, 1], component y
                    ++highlighted;
                }
            }
        QCOMPARE(highlighted, differs ? 1 : 0);
        if (differs && std::isfinite(actual))
            QCOMPARE(model.data(model.index(2, 3), Qt::ToolTipRole).toString(),
                     QStringLiteral("expected 2 (off by 0.5)"));
    }

    void summarySaysWhatTheCheckFound_data() {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<int>("state");
        QTest::addColumn<QString>("text");
        QTest::newRow("passed") << "passed" << int(CheckSummary::State::Passed)
                                << "Matches the reference (largest difference 0, relative 0)";
        QTest::newRow("failed")
            << "failed" << int(CheckSummary::State::Failed)
            << "3 of 400 elements differ (largest difference 0.5, relative 0.25); first at "
               "[10]: 3.5 where the reference has 3";
        // A GPU run without a reference function is compared with the CPU backend, and says so.
        QTest::newRow("passed, against the CPU backend")
            << "passed cpu" << int(CheckSummary::State::Passed)
            << "Matches the CPU backend's run of the kernel (largest difference 0, relative 0)";
        QTest::newRow("failed, against the CPU backend")
            << "failed cpu" << int(CheckSummary::State::Failed)
            << "3 of 400 elements differ (largest difference 0.5, relative 0.25); first at [10]: 3.5 where "
               "the CPU backend has 3";
        QTest::newRow("unchecked") << "unchecked" << int(CheckSummary::State::NotChecked)
                                   << "Not checked: the reference failed to compile";
        QTest::newRow("output not in the check")
            << "other" << int(CheckSummary::State::NotChecked)
            << "Not checked: the playground's check does not include this output";
        QTest::newRow("no report") << "none" << int(CheckSummary::State::NotChecked)
                                   << "Not checked: the run had no reference to compare with";
    }
    void summarySaysWhatTheCheckFound() {
        QFETCH(QString, scenario);
        QFETCH(int, state);
        QFETCH(QString, text);
        Array out = filled(DType::Float32, {400}, [](std::size_t i, int) { return double(i % 7); });
        Array ref = out;
        for (std::size_t i : {10u, 20u, 30u})
            out.setValue(i, ref.value(i) + 0.5);
        const NamedArrays outputs{{"out", out}}, reference{{"out", ref}};
        nlohmann::json report;
        if (scenario.startsWith("passed")) report = checkedReport(reference, reference, {});
        if (scenario.startsWith("failed")) report = checkedReport(outputs, reference, {});
        if (scenario.endsWith(" cpu")) report["check"]["against"] = "cpu";
        if (scenario == "unchecked") report = reportOf({}, "the reference failed to compile");
        if (scenario == "other") report = reportOf({kp::run::check("another", out, ref, {})});
        ResultsView view;
        view.showRun(scenario.startsWith("passed") ? reference : outputs, reference, {}, report);
        QCOMPARE(view.outputCount(), 1);
        const OutputPane* pane = view.pane(QStringLiteral("out"));
        QVERIFY(pane);
        QCOMPARE(int(pane->summary().state), state);
        QCOMPARE(pane->summaryLabel()->text(), text);
        // Only what the report checked is compared cell by cell.
        const bool failed = scenario.startsWith("failed");
        QCOMPARE(pane->model()->hasReference(), failed || scenario.startsWith("passed"));
        QCOMPARE(pane->model()->data(pane->model()->index(10, 0), ArrayTableModel::MismatchRole).toBool(),
                 failed);
        QCOMPARE(view.tabs()->tabBar()->tabTextColor(0) == colorsOf(currentAppearance()).error, failed);
    }

    // A kernel that takes slots with atomicAdd: its output holds the reference's values in another order.
    // Declared a multiset, the check passes and no cell is marked; with one wrong value, exactly that
    // cell is marked, beside the reference value it was matched with. A range marks what lies outside.
    void unorderedOutputsMarkWhatTheCheckCounted() {
        Array ref = filled(DType::Int32, {300}, [](std::size_t i, int) { return double(i * 7 % 300); });
        Array out =
            filled(DType::Int32, {300}, [](std::size_t i, int) { return double((299 - i) * 7 % 300); });
        kp::model::CheckSpec spec;
        spec.unordered["kept"] = {kp::model::UnorderedSpec::Kind::Multiset};
        const auto reportFor = [&](const Array& output) {
            return reportOf({kp::run::checkOutput(spec, "kept", output, ref)});
        };
        const auto markedCells = [](const OutputPane& pane) {
            std::vector<int> rows;
            for (int r = 0; r < pane.model()->rowCount(); ++r)
                if (pane.model()->data(pane.model()->index(r, 0), ArrayTableModel::MismatchRole).toBool())
                    rows.push_back(r);
            return rows;
        };
        {
            ResultsView view;
            view.showRun({{"kept", out}}, {{"kept", ref}}, spec, reportFor(out));
            const OutputPane* pane = view.pane(QStringLiteral("kept"));
            QVERIFY(pane);
            QCOMPARE(int(pane->summary().state), int(CheckSummary::State::Passed));
            QCOMPARE(pane->summaryLabel()->text(),
                     QStringLiteral("Matches the reference (largest difference 0, relative 0), "
                                    "compared in any order"));
            QVERIFY(markedCells(*pane).empty());
        }
        out.setValue(5, 1000); // a value the reference does not hold
        {
            ResultsView view;
            view.showRun({{"kept", out}}, {{"kept", ref}}, spec, reportFor(out));
            const OutputPane* pane = view.pane(QStringLiteral("kept"));
            QCOMPARE(int(pane->summary().state), int(CheckSummary::State::Failed));
            QVERIFY2(pane->summaryLabel()->text().startsWith(QStringLiteral("1 of 300 elements differ")),
                     qPrintable(pane->summaryLabel()->text()));
            QCOMPARE(markedCells(*pane), std::vector<int>{5});
            // It meets the one reference value left without a partner: the 258 it replaced.
            QCOMPARE(pane->model()->data(pane->model()->index(5, 0), Qt::ToolTipRole).toString(),
                     QStringLiteral("expected 258 (off by 742)"));
        }
        spec.unordered["kept"] = {kp::model::UnorderedSpec::Kind::Range, 0, 299};
        {
            ResultsView view;
            view.showRun({{"kept", out}}, {{"kept", ref}}, spec, reportFor(out));
            const OutputPane* pane = view.pane(QStringLiteral("kept"));
            QCOMPARE(pane->summaryLabel()->text(),
                     QStringLiteral("1 of 300 values lie outside [0, 299]; first at [5]: 1000"));
            QCOMPARE(markedCells(*pane), std::vector<int>{5});
        }
    }

    void linePlotShowsValuesReferenceAndMismatches() {
        Array out =
            filled(DType::Float32, {500}, [](std::size_t i, int) { return std::sin(double(i) * 0.05); });
        Array ref = out;
        out.setValue(123, 3.0);
        out.setValue(321, kNaN); // NaN against a number: marked at the expected value
        const NamedArrays outputs{{"y", out}}, reference{{"y", ref}};
        ResultsView view;
        view.showRun(outputs, reference, {}, checkedReport(outputs, reference, {}));
        ArrayPlot* plot = view.plot(QStringLiteral("y"));
        QVERIFY(plot);
        QVERIFY(plot->isReady()); // small arrays are prepared at once
        QVERIFY(plot->valuesGraph() && plot->referenceGraph() && plot->mismatchGraph());
        QVERIFY(plot->valuesGraph()->data()->size() >= 500);
        QVERIFY(plot->referenceGraph()->data()->size() >= 500);
        QList<double> marked;
        for (const auto& point : *plot->mismatchGraph()->data())
            if (std::isfinite(point.value)) marked << point.key;
        QCOMPARE(marked, (QList<double>{123, 321}));
        const auto [low, high] = finiteRange(plot->valuesGraph());
        QCOMPARE(high, 3.0);
        QVERIFY(low < -0.99);
        QVERIFY(!plot->colorMap());
    }

    // One number is written in the middle of the plot, whole: placed in the axis rect, which is a sliver
    // with the axes hidden, a 12-digit total was cut to three digits at the plot's left edge.
    void oneValueIsWrittenWholeInThePlot() {
        const Array total = filled(DType::Int64, {1}, [](std::size_t, int) { return 549231001600.0; });
        const NamedArrays outputs{{"total", total}}, reference{{"total", total}};
        ResultsView view;
        view.resize(1200, 500);
        view.show();
        view.showRun(outputs, reference, {}, checkedReport(outputs, reference, {}));
        ArrayPlot* plot = view.plot(QStringLiteral("total"));
        QVERIFY(plot && plot->isReady());
        QCOMPARE(plot->drawing(), ArrayPlot::Drawing::OneValue);
        QCustomPlot* custom = plot->customPlot();
        custom->replot();
        QVERIFY(custom->itemCount() >= 1);
        auto* value = qobject_cast<QCPItemText*>(custom->item(0));
        QVERIFY(value);
        QCOMPARE(value->text(), QStringLiteral("549231001600"));
        QVERIFY(!value->clipToAxisRect());
        const QPointF at = value->position->pixelPosition();
        QVERIFY2(std::abs(at.x() - custom->width() / 2.0) < 2, qPrintable(QString::number(at.x())));
        const int half = QFontMetrics(value->font()).horizontalAdvance(value->text()) / 2;
        QVERIFY(at.x() - half >= 0 && at.x() + half <= custom->width());
        view.grab().save(QStringLiteral("/tmp/kernelpad_one_value.png"));
    }

    // A histogram's 256 bins were drawn as a line from bin to bin; a short integer output is now bars
    // (filled steps centred on each index), its reference outlined the same way.
    void countsAreDrawnAsBars() {
        const Array bins =
            filled(DType::UInt32, {256}, [](std::size_t i, int) { return double((i * 37) % 101); });
        const NamedArrays outputs{{"bins", bins}}, reference{{"bins", bins}};
        ResultsView view;
        view.showRun(outputs, reference, {}, checkedReport(outputs, reference, {}));
        ArrayPlot* plot = view.plot(QStringLiteral("bins"));
        QVERIFY(plot && plot->isReady());
        QCOMPARE(plot->drawing(), ArrayPlot::Drawing::Bars);
        QCOMPARE(plot->valuesGraph()->lineStyle(), QCPGraph::lsStepCenter);
        QVERIFY(plot->valuesGraph()->brush().style() != Qt::NoBrush);
        QCOMPARE(plot->referenceGraph()->lineStyle(), QCPGraph::lsStepCenter);
        // Floats, and long integer arrays, stay lines.
        const NamedArrays wave{
            {"y", filled(DType::Float32, {256}, [](std::size_t i, int) { return double(i); })}};
        view.showRun(wave, {}, {}, checkedReport(wave, {}, {}));
        QCOMPARE(view.plot(QStringLiteral("y"))->drawing(), ArrayPlot::Drawing::Line);
        QCOMPARE(view.plot(QStringLiteral("y"))->valuesGraph()->lineStyle(), QCPGraph::lsLine);
    }

    // A result that is one number (a reduction's total) got an empty plot with five identical axis
    // labels; it is now the number itself, beside the reference's.
    void oneNumberIsShownAsANumber() {
        const Array total = filled(DType::Int32, {1}, [](std::size_t, int) { return 262571.0; });
        const Array expected = filled(DType::Int32, {1}, [](std::size_t, int) { return 262570.0; });
        const NamedArrays outputs{{"total", total}}, reference{{"total", expected}};
        ResultsView view;
        view.showRun(outputs, reference, {}, checkedReport(outputs, reference, {}));
        ArrayPlot* plot = view.plot(QStringLiteral("total"));
        QVERIFY(plot && plot->isReady());
        QCOMPARE(plot->drawing(), ArrayPlot::Drawing::OneValue);
        QVERIFY(!plot->customPlot()->xAxis->visible() && !plot->customPlot()->yAxis->visible());
        QStringList texts;
        for (int i = 0; i < plot->customPlot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot->customPlot()->item(i))) texts << text->text();
        QVERIFY2(texts.contains(QStringLiteral("262571")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY2(texts.join(QLatin1Char('|')).contains(QStringLiteral("262570")),
                 qPrintable(texts.join('|')));
        // A longer array afterwards gets its axes back.
        const NamedArrays wave{
            {"y", filled(DType::Float32, {64}, [](std::size_t i, int) { return double(i); })}};
        view.showRun(wave, {}, {}, checkedReport(wave, {}, {}));
        QVERIFY(view.plot(QStringLiteral("y"))->customPlot()->xAxis->visible());
        QCOMPARE(view.plot(QStringLiteral("y"))->customPlot()->itemCount(), 0);
    }

    // One number is also said first in the pane's top line, the line in view however little room the
    // results have (a laptop under 30 lines of code, presentation): `total = 262571`. A single output
    // shows no tab bar, so its name heads the line above the table; two outputs are tabs again.
    void oneNumberLeadsThePaneAndOneOutputHasNoTab() {
        const Array total = filled(DType::Int32, {1}, [](std::size_t, int) { return 262571.0; });
        const Array expected = filled(DType::Int32, {1}, [](std::size_t, int) { return 262570.0; });
        const NamedArrays outputs{{"total", total}}, reference{{"total", expected}};
        ResultsView view;
        view.resize(700, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showRun(outputs, reference, {}, checkedReport(outputs, reference, {}));
        QTest::qWait(20);
        const OutputPane* pane = view.pane(QStringLiteral("total"));
        QVERIFY(pane && pane->oneValueLabel());
        QCOMPARE(pane->oneValueLabel()->text(), QStringLiteral("total = 262571"));
        QVERIFY(pane->oneValueLabel()->isVisible());
        QVERIFY(pane->oneValueLabel()->geometry().top() <= pane->summaryLabel()->geometry().top() + 10);
        QVERIFY2(pane->windowText().startsWith(QStringLiteral("total · int32 (1,)")),
                 qPrintable(pane->windowText()));
        QVERIFY(!view.tabs()->tabBar()->isVisible());

        const NamedArrays two{
            {"sum", filled(DType::Float32, {1}, [](std::size_t, int) { return 0.25; })},
            {"y", filled(DType::Float32, {64}, [](std::size_t i, int) { return double(i); })}};
        view.showRun(two, {}, {}, checkedReport(two, {}, {}));
        QTest::qWait(20);
        QVERIFY(view.tabs()->tabBar()->isVisible());
        QCOMPARE(view.pane(QStringLiteral("sum"))->oneValueLabel()->text(), QStringLiteral("sum = 0.25"));
        QVERIFY(!view.pane(QStringLiteral("y"))->oneValueLabel()); // a line of 64 is no one number
        QVERIFY2(view.pane(QStringLiteral("y"))->windowText().startsWith(QStringLiteral("y · float32 (64,)")),
                 qPrintable(view.pane(QStringLiteral("y"))->windowText()));
    }

    void colorMapShowsA2DArrayAndItsMismatches() {
        Array out = filled(DType::Float32, {30, 40},
                           [](std::size_t i, int) { return double(i % 40) - std::floor(double(i) / 40.0); });
        Array ref = out;
        out.setValue(5 * 40 + 7, 1000); // [5, 7]
        const NamedArrays outputs{{"m", out}}, reference{{"m", ref}};
        ResultsView view;
        view.showRun(outputs, reference, {}, checkedReport(outputs, reference, {}));
        ArrayPlot* plot = view.plot(QStringLiteral("m"));
        QVERIFY(plot->colorMap() && plot->mismatchMap());
        QVERIFY(!plot->valuesGraph());
        QCPColorMapData* cells = plot->colorMap()->data();
        QCOMPARE(cells->keySize(), 40);
        QCOMPARE(cells->valueSize(), 30);
        QCOMPARE(cells->cell(3, 2), 3.0 - 2.0); // column 3, row 2
        QCOMPARE(cells->cell(7, 5), 1000.0);
        QCOMPARE(plot->colorMap()->dataRange().upper, 1000.0);
        QCPColorMapData* mismatches = plot->mismatchMap()->data();
        int opaque = 0;
        for (int r = 0; r < 30; ++r)
            for (int c = 0; c < 40; ++c)
                opaque += mismatches->alpha(c, r) > 0;
        QCOMPARE(opaque, 1);
        QCOMPARE(int(mismatches->alpha(7, 5)), 255);
        // A lone mismatch is circled too: one cell of a big map is smaller than a pixel.
        QCOMPARE(plot->mismatchGraph()->data()->size(), 1);
        QCOMPARE(plot->mismatchGraph()->data()->begin()->key, 7.0);
        QCOMPARE(plot->mismatchGraph()->data()->begin()->value, 5.0);
    }

    void colorMapOfABigArrayIsAtMost1024CellsAcross() {
        // 2000 x 3000: blocks of 2 x 3 elements, their mean in each cell.
        Array big = filled(DType::Float32, {2000, 3000}, [](std::size_t i, int) { return double(i % 3000); });
        ArrayPlot plot;
        plot.setArrays(std::make_shared<const Array>(std::move(big)));
        QTRY_VERIFY_WITH_TIMEOUT(plot.isReady(), 60000);
        QCPColorMapData* cells = plot.colorMap()->data();
        QCOMPARE(cells->keySize(), 1000);
        QCOMPARE(cells->valueSize(), 1000);
        QCOMPARE(cells->cell(0, 0), 1.0);        // mean of columns 0, 1, 2
        QCOMPARE(cells->cell(999, 999), 2998.0); // of 2997, 2998, 2999
        QVERIFY2(plot.statusText().contains(QStringLiteral("2 × 3")), qPrintable(plot.statusText()));
    }

    void threeDimensionalArraysShowOneSlice() {
        Array cube = filled(DType::Int32, {3, 4, 5}, [](std::size_t i, int) { return double(i); });
        ArrayPlot plot;
        plot.setArrays(std::make_shared<const Array>(cube));
        QCOMPARE(plot.colorMap()->data()->cell(4, 3), 19.0);
        plot.setSlice(2);
        QCOMPARE(plot.slice(), 2);
        QCOMPARE(plot.colorMap()->data()->cell(4, 3), 59.0);
    }

    void envelopeSamplesCoverEveryRange_data() {
        QTest::addColumn<double>("from");
        QTest::addColumn<double>("to");
        QTest::newRow("all") << 0.0 << 999999.0;
        QTest::newRow("a few elements") << 500000.0 << 500100.0;
        QTest::newRow("raw level") << 123456.0 << 300000.0;
        QTest::newRow("middle level") << 1000.0 << 900000.0;
        QTest::newRow("past the end") << 999000.0 << 2000000.0;
    }
    void envelopeSamplesCoverEveryRange() {
        QFETCH(double, from);
        QFETCH(double, to);
        auto array = std::make_shared<const Array>(filled(DType::Float32, {1000000}, [](std::size_t i, int) {
            return std::sin(double(i) * 0.001) * double(i % 977) + (i == 654321 ? 5000.0 : 0.0);
        }));
        const auto envelope = Envelope::ofValues(array, 0);
        QVERIFY(envelope);
        const auto samples = envelope->sample(from, to, 2000);
        QVERIFY(!samples.keys.empty());
        QVERIFY(samples.keys.size() <= 4000 + 4);
        QVERIFY(std::is_sorted(samples.keys.begin(), samples.keys.end()));
        double low = kInf, high = -kInf, sampledLow = kInf, sampledHigh = -kInf;
        const auto last = std::min<std::size_t>(array->size() - 1, std::size_t(to));
        for (auto i = std::size_t(from); i <= last; ++i) {
            low = std::min(low, array->value(i));
            high = std::max(high, array->value(i));
        }
        for (double v : samples.values) {
            sampledLow = std::min(sampledLow, v);
            sampledHigh = std::max(sampledHigh, v);
        }
        // Buckets reach a little past the range's ends, never short of it.
        QVERIFY(sampledLow <= low);
        QVERIFY(sampledHigh >= high);
    }

    void largeOutputShowsWithoutHoldingUpTheGuiThread() {
        constexpr std::size_t n = 20'000'000;
        Array out = filled(DType::Float32, {n}, [](std::size_t i, int) { return double(i % 1000) * 0.001; });
        Array ref = out;
        out.setValue(12'345'678, -7.0);
        out.setValue(19'999'999, 9.0);
        NamedArrays reference{{"big", ref}};
        NamedArrays outputs{{"big", out}};
        const nlohmann::json report = checkedReport(outputs, reference, {});
        ResultsView view;
        view.resize(1200, 700);
        view.show();
        QElapsedTimer clock;
        clock.start();
        view.showRun(std::move(outputs), std::move(reference), {}, report);
        const qint64 showMs = clock.elapsed();
        ArrayPlot* plot = view.plot(QStringLiteral("big"));
        QVERIFY(plot);
        // The envelope is built in a thread and swapped in by an event: never inside showRun.
        QVERIFY(!plot->isReady());
        QVERIFY(plot->statusText().startsWith(QStringLiteral("Preparing")));
        QElapsedTimer sinceTick;
        qint64 worstGap = 0;
        QTimer ticker;
        ticker.setInterval(5);
        connect(&ticker, &QTimer::timeout, this, [&] { worstGap = std::max(worstGap, sinceTick.restart()); });
        sinceTick.start();
        ticker.start();
        QTRY_VERIFY_WITH_TIMEOUT(plot->isReady(), 120000);
        const qint64 readyMs = clock.elapsed();
        ticker.stop();
        qInfo("20M float32 with reference: showRun %lld ms, plot ready after %lld ms, longest event-loop gap "
              "%lld ms",
              showMs, readyMs, worstGap);
        const auto [low, high] = finiteRange(plot->valuesGraph());
        QCOMPARE(low, -7.0);
        QCOMPARE(high, 9.0);
        QVERIFY(plot->valuesGraph()->data()->size() <= 4002);
        bool markedAtTheEnd = false;
        for (const auto& point : *plot->mismatchGraph()->data())
            markedAtTheEnd |= point.value == 9.0;
        QVERIFY(markedAtTheEnd);
        plot->customPlot()->replot();
        QVERIFY(view.grab().toImage().save(QStringLiteral("/tmp/results_large.png")));
        // The costliest resample: just under 128 elements per point, all read from the arrays.
        clock.restart();
        plot->customPlot()->xAxis->setRange(1'000'000, 1'000'000 + 2000 * 127);
        qInfo("resampling 254,000 elements read one by one: %lld ms", clock.elapsed());
        // Zoomed in far enough, every element is drawn at its own index.
        plot->customPlot()->xAxis->setRange(12'345'600, 12'345'700);
        const auto zoomed = plot->valuesGraph()->data();
        QVERIFY(zoomed->size() >= 100 && zoomed->size() <= 104);
        QCOMPARE(zoomed->findBegin(12'345'678, false)->value, -7.0);

        // The table scrolls on past its window, and jumps to the last element.
        OutputPane* pane = view.pane(QStringLiteral("big"));
        QTableView* table = pane->table();
        QCOMPARE(pane->model()->rowCount(), int(ArrayTableModel::kWindowRows));
        table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum());
        QCOMPARE(pane->model()->firstRow(), ArrayTableModel::kWindowRows / 2);
        QVERIFY(table->verticalScrollBar()->value() < table->verticalScrollBar()->maximum());
        QVERIFY(pane->goTo({n - 1}));
        QCOMPARE(pane->model()->firstRow(), qint64(n) - ArrayTableModel::kWindowRows);
        QCOMPARE(table->currentIndex().data(ArrayTableModel::ValueRole).toDouble(), 9.0);
        QCOMPARE(table->model()->headerData(table->currentIndex().row(), Qt::Vertical).toString(),
                 QStringLiteral("19999999"));
        QVERIFY(table->currentIndex().data(ArrayTableModel::MismatchRole).toBool());
        QVERIFY2(pane->windowText().contains(QStringLiteral("rows 19,900,000–19,999,999 of 20,000,000")),
                 qPrintable(pane->windowText()));
        QVERIFY(!pane->goTo({n}));
        QVERIFY2(pane->windowText().contains(QStringLiteral("no element [20000000]")),
                 qPrintable(pane->windowText()));
    }

    void hundredMillionElementTableScrollsToItsEnd_data() {
        QTest::addColumn<int>("dtype");
        QTest::newRow("int8") << int(DType::Int8);
        QTest::newRow("float32") << int(DType::Float32);
    }
    void hundredMillionElementTableScrollsToItsEnd() {
        QFETCH(int, dtype);
        constexpr std::size_t n = 100'000'000;
        Array array(DType(dtype), {n});
        array.setValue(n - 1, 42);
        auto shared = std::make_shared<const Array>(std::move(array));
        QElapsedTimer clock;
        clock.start();
        ArrayTableModel model;
        model.setArray(shared);
        QTableView table;
        table.verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        table.resize(500, 400);
        table.setModel(&model);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        const qint64 setMs = clock.restart();
        model.moveWindow(qint64(n), 0);
        table.scrollToBottom();
        QCoreApplication::processEvents();
        const qint64 scrollMs = clock.elapsed();
        qInfo("100M %s: model set and shown in %lld ms, scrolled to the end in %lld ms",
              QTest::currentDataTag(), setMs, scrollMs);
        const QModelIndex last = table.indexAt(QPoint(1, table.viewport()->height() - 2));
        QCOMPARE(model.headerData(last.row(), Qt::Vertical).toString(), QStringLiteral("99999999"));
        QCOMPARE(last.data(ArrayTableModel::ValueRole).toDouble(), 42.0);
    }

    void savedArraysReadBack_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("dtype");
        QTest::newRow("npy float32 2-D") << "a.npy" << int(DType::Float32);
        QTest::newRow("csv float32 2-D") << "a.csv" << int(DType::Float32);
        QTest::newRow("npy int4") << "b.npy" << int(DType::Int4);
        QTest::newRow("csv float4") << "b.csv" << int(DType::Float4);
    }
    void savedArraysReadBack() {
        QFETCH(QString, file);
        QFETCH(int, dtype);
        const auto type = DType(dtype);
        const Shape shape = kp::model::components(type) > 1 ? Shape{5} : Shape{3, 4};
        const Array out =
            filled(type, shape, [](std::size_t i, int c) { return double(i) * 1.25 - double(c); });
        ResultsView view;
        view.showRun({{"out", out}}, {}, {}, {});
        const QString path = dir_.filePath(file);
        QString error;
        QVERIFY2(view.exportArray(QStringLiteral("out"), path, &error), qPrintable(error));
        const Array back = file.endsWith(QLatin1String(".npy"))
                               ? kp::io::asVectorType(kp::io::readNpy(path.toStdString()), type, "back")
                               : kp::io::readCsv(path.toStdString(), type, shape);
        QVERIFY(back == out);
        QVERIFY(view.message()->text().contains(path));
    }

    void savedPlotsAreTheirFormat_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("magic");
        QTest::addColumn<bool>("twoDimensional");
        QTest::newRow("png line") << "p.png" << QByteArray("\x89PNG\r\n", 6) << false;
        QTest::newRow("svg line") << "p.svg" << QByteArray("<?xml") << false;
        QTest::newRow("pdf line") << "p.pdf" << QByteArray("%PDF-") << false;
        QTest::newRow("png colour map") << "m.png" << QByteArray("\x89PNG\r\n", 6) << true;
        QTest::newRow("svg colour map") << "m.svg" << QByteArray("<?xml") << true;
        QTest::newRow("pdf colour map") << "m.pdf" << QByteArray("%PDF-") << true;
    }
    void savedPlotsAreTheirFormat() {
        QFETCH(QString, file);
        QFETCH(QByteArray, magic);
        QFETCH(bool, twoDimensional);
        const Shape shape = twoDimensional ? Shape{20, 30} : Shape{200};
        const Array out =
            filled(DType::Float64, shape, [](std::size_t i, int) { return std::cos(double(i) * 0.1); });
        ResultsView view;
        view.resize(900, 500);
        view.show();
        view.showRun({{"out", out}}, {}, {}, {});
        const QString path = dir_.filePath(file);
        QString error;
        QVERIFY2(view.exportPlot(QStringLiteral("out"), path, &error), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 1000);
        QCOMPARE(head(path, int(magic.size())), magic);
        if (file.endsWith(QLatin1String(".svg"))) {
            QFile svg(path);
            QVERIFY(svg.open(QIODevice::ReadOnly));
            QVERIFY(svg.readAll().contains("<svg"));
        }
    }

    void failedSavesNameThePathAndKeepTheResults_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("plot");
        QTest::addColumn<QString>("reason");
        QTest::newRow("array into a missing folder") << "missing/out.npy" << false << "";
        QTest::newRow("plot into a missing folder") << "missing/out.pdf" << true << "";
        QTest::newRow("array as .txt") << "out.txt" << false << ".npy or .csv";
        QTest::newRow("plot as .jpg") << "out.jpg" << true << ".png, .svg or .pdf";
    }
    void failedSavesNameThePathAndKeepTheResults() {
        QFETCH(QString, path);
        QFETCH(bool, plot);
        path = dir_.filePath(path);
        QFETCH(QString, reason);
        const Array out = filled(DType::Float32, {10}, [](std::size_t i, int) { return double(i); });
        ResultsView view;
        view.show();
        view.showRun({{"out", out}}, {}, {}, {});
        QString error;
        const bool saved = plot ? view.exportPlot(QStringLiteral("out"), path, &error)
                                : view.exportArray(QStringLiteral("out"), path, &error);
        QVERIFY(!saved);
        QVERIFY2(error.contains(path), qPrintable(error));
        QVERIFY2(error.contains(reason), qPrintable(error));
        QVERIFY(view.message()->isVisible());
        QCOMPARE(view.message()->text(), error);
        QCOMPARE(view.outputCount(), 1);
        QVERIFY(view.table(QStringLiteral("out")));
        QVERIFY(!QFileInfo::exists(path));
    }

    void emptyArraysShowAsEmpty_data() {
        QTest::addColumn<QList<int>>("shape");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("columns");
        QTest::newRow("(0,)") << QList<int>{0} << 0 << 1;
        QTest::newRow("(3, 0)") << QList<int>{3, 0} << 3 << 0;
        QTest::newRow("(0, 4)") << QList<int>{0, 4} << 0 << 4;
        QTest::newRow("(2, 0, 3)") << QList<int>{2, 0, 3} << 0 << 3;
    }
    void emptyArraysShowAsEmpty() {
        QFETCH(QList<int>, shape);
        QFETCH(int, rows);
        QFETCH(int, columns);
        Shape dims;
        for (int d : shape)
            dims.push_back(std::size_t(d));
        const Array empty(DType::Float32, dims);
        ResultsView view;
        view.show();
        view.showRun({{"e", empty}}, {{"e", empty}}, {}, checkedReport({{"e", empty}}, {{"e", empty}}, {}));
        QCOMPARE(view.table(QStringLiteral("e"))->model()->rowCount(), rows);
        QCOMPARE(view.table(QStringLiteral("e"))->model()->columnCount(), columns);
        QVERIFY(view.plot(QStringLiteral("e"))->isReady());
        QCOMPARE(view.plot(QStringLiteral("e"))->statusText(),
                 QStringLiteral("An empty array: nothing to plot"));
        view.plot(QStringLiteral("e"))->resetZoom();
        QVERIFY(view.plot(QStringLiteral("e"))->customPlot()->xAxis->range().upper < 1e6);
    }

    void smallArraysArePreparedAtOnce() {
        // The largest array the plot prepares on the GUI thread, with a reference: this is what it costs.
        auto array =
            std::make_shared<const Array>(filled(DType::Float32, {ArrayPlot::kBackgroundFrom - 1},
                                                 [](std::size_t i, int) { return double(i % 100); }));
        ArrayPlot plot;
        QElapsedTimer clock;
        clock.start();
        plot.setArrays(array, array);
        qInfo("%zu float32 with a reference prepared on the GUI thread in %lld ms", array->size(),
              clock.elapsed());
        QVERIFY(plot.isReady());
        QVERIFY(plot.valuesGraph()->data()->size() > 0);
    }

    void clearLeavesNothingShown() {
        ResultsView view;
        view.showRun({{"a", Array(DType::Float32, {3})}, {"b", Array(DType::Int8, {2, 2})}}, {}, {}, {});
        QCOMPARE(view.outputCount(), 2);
        QVERIFY(view.table(QStringLiteral("b")));
        view.clear();
        QCOMPARE(view.outputCount(), 0);
        QVERIFY(!view.table(QStringLiteral("a")));
        QVERIFY(!view.plot(QStringLiteral("b")));
    }

    void screenshots() {
        Array wave =
            filled(DType::Float32, {400}, [](std::size_t i, int) { return std::sin(double(i) * 0.04) * 2; });
        Array waveRef = wave;
        for (std::size_t i : {60u, 61u, 62u, 250u})
            wave.setValue(i, wave.value(i) + 0.6);
        Array image = filled(DType::Float32, {64, 96}, [](std::size_t i, int) {
            const double r = std::floor(double(i) / 96.0) - 32, c = double(i % 96) - 48;
            return std::exp(-(r * r + c * c) / 400.0);
        });
        Array imageRef = image;
        image.setValue(20 * 96 + 30, 2.0);
        const NamedArrays outputs{{"wave", wave}, {"image", image}, {"unchecked", imageRef}},
            reference{{"wave", waveRef}, {"image", imageRef}};
        ResultsView view;
        view.resize(1200, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showRun(outputs, reference, {}, checkedReport(outputs, reference, {}));
        for (const auto& [file, tab] :
             {std::pair{"/tmp/results_1d.png", 0}, std::pair{"/tmp/results_2d.png", 1},
              std::pair{"/tmp/results_2d_unchecked.png", 2}}) {
            view.tabs()->setCurrentIndex(tab);
            QVERIFY(view.pane(view.tabs()->tabText(tab))->goTo({tab == 0 ? 60u : 20u * 96 + 30}));
            QCOMPARE(view.pane(view.tabs()->tabText(tab))
                         ->table()
                         ->currentIndex()
                         .data(ArrayTableModel::MismatchRole)
                         .toBool(),
                     tab < 2);
            QTest::qWait(50);
            view.plot(view.tabs()->tabText(tab))->customPlot()->replot();
            const QImage shot = view.grab().toImage();
            QVERIFY(!shot.isNull());
            QVERIFY(shot.save(QString::fromLatin1(file)));
        }
    }
};

QTEST_MAIN(TestResultsView)
#include "tst_resultsview.moc"
