// The argument panel, driven by typing into its fields offscreen: it is built from the kernel's
// signature, keeps what the user set when the signature changes compatibly, marks a field with an
// error and says why while keeping the last valid value, and previews the values an init makes.
#include "ArgumentPanel.h"
#include "core/model/ArgumentFit.h"
#include "core/model/SignatureParser.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QtTest>

using namespace kp::model;

namespace {

KernelSignature kernelOf(const std::string& code) {
    return parseKernels(code).kernels.at(0);
}

void retype(QLineEdit* field, const QString& text) {
    field->selectAll();
    QTest::keyClicks(field, text);
}

} // namespace

class TestArgumentPanel : public QObject {
    Q_OBJECT
private slots:
    void buildsOneEditorPerParameter() {
        ArgumentPanel panel;
        panel.setKernel(kernelOf("__global__ void k(float* out, const float* in, int n) {}"), {}, ".");
        QCOMPARE(panel.count(), 3);
        QVERIFY(panel.problems().isEmpty());
        const auto args = panel.arguments();
        QCOMPARE(args[0].direction, std::optional(Direction::Out));
        QCOMPARE(toString(*args[2].value), std::string("size(out)"));
        QVERIFY(
            !panel.editorFor(QStringLiteral("in"))->dtypeCombo()->isEnabled()); // the signature says float
    }

    void badShapeIsMarkedAndTheLastGoodOneKept() {
        ArgumentPanel panel;
        panel.show();
        panel.setKernel(kernelOf("__global__ void k(float* x) {}"), {}, ".");
        QSignalSpy changed(&panel, &ArgumentPanel::argumentsChanged);
        ArgumentEditor* x = panel.editorFor(QStringLiteral("x"));
        retype(x->shapeEdit(), QStringLiteral("64, 32"));
        QCOMPARE(panel.arguments()[0].array().shape, (Shape{64, 32}));
        retype(x->shapeEdit(), QStringLiteral("64, x"));
        QVERIFY(changed.count() > 0);
        QCOMPARE(panel.problems().size(), 1);
        QVERIFY2(panel.problems().first().startsWith(
                     QStringLiteral("args[0] x: \"x\" is not a positive whole number")),
                 qPrintable(panel.problems().first()));
        QVERIFY(!x->errorLabel()->isHidden());
        QVERIFY(x->shapeEdit()->toolTip().contains(QStringLiteral("\"x\"")));
        QCOMPARE(panel.arguments()[0].array().shape,
                 (Shape{64})); // typed key by key, the last valid text was "64, "
        retype(x->shapeEdit(), QStringLiteral("64, 32"));
        QVERIFY(panel.problems().isEmpty());
        QVERIFY(x->errorLabel()->isHidden());
    }

    void fieldErrorsSayWhatIsWrong_data() {
        QTest::addColumn<int>("init");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("constant") << 2 << "constant"
                                  << "two"
                                  << "constant: \"two\" is not a number";
        QTest::newRow("seed") << 4 << "seed"
                              << "-1"
                              << "seed: \"-1\" is not a whole number";
        QTest::newRow("formula") << 6 << "formula"
                                 << "sin(i"
                                 << "formula";
        QTest::newRow("file outside") << 7 << "file"
                                      << "../../etc/passwd"
                                      << "..";
    }
    void fieldErrorsSayWhatIsWrong() {
        QFETCH(int, init);
        QFETCH(QString, field);
        QFETCH(QString, text);
        QFETCH(QString, message);
        ArgumentPanel panel;
        panel.show();
        panel.setKernel(kernelOf("__global__ void k(const float* x) {}"), {}, "/tmp");
        ArgumentEditor* x = panel.editorFor(QStringLiteral("x"));
        x->initCombo()->setCurrentIndex(init);
        retype(x->initField(field), text);
        QVERIFY(!panel.problems().isEmpty());
        QVERIFY2(panel.problems().join('\n').contains(message), qPrintable(panel.problems().join('\n')));
        QVERIFY(!x->initField(field)->toolTip().isEmpty());
    }

    void scalarBindingMustNameAnArray() {
        ArgumentPanel panel;
        panel.show();
        panel.setKernel(kernelOf("__global__ void k(float* x, int n) {}"), {}, ".");
        ArgumentEditor* n = panel.editorFor(QStringLiteral("n"));
        retype(n->valueEdit(), QStringLiteral("size(y)"));
        QVERIFY2(panel.problems().join('\n').contains(QStringLiteral("no array argument \"y\"")),
                 qPrintable(panel.problems().join('\n')));
        retype(n->valueEdit(), QStringLiteral("rows(x)"));
        QVERIFY(panel.problems().isEmpty());
        QCOMPARE(toString(*panel.arguments()[1].value), std::string("rows(x)"));
        retype(n->valueEdit(), QStringLiteral("12.5"));
        QCOMPARE(panel.arguments()[1].value->number, 12.5);
    }

    void compatibleSignatureChangeKeepsWhatWasSet() {
        ArgumentPanel panel;
        panel.setKernel(kernelOf("__global__ void k(float* x, int n) {}"), {}, ".");
        retype(panel.editorFor(QStringLiteral("x"))->shapeEdit(), QStringLiteral("77"));
        // A parameter added and the array renamed: its shape stays, the binding follows the rename.
        panel.setKernel(kernelOf("__global__ void k(float* data, int n, float scale) {}"), {}, ".");
        QCOMPARE(panel.count(), 3);
        QCOMPARE(panel.arguments()[0].array().shape, (Shape{77}));
        QCOMPARE(toString(*panel.arguments()[1].value), std::string("size(data)"));
    }

    void anotherPlaygroundsArgumentsReplaceTheShownOnes() {
        // Two playgrounds with the same signature: opening the second shows its arguments, not the first's.
        ArgumentPanel panel;
        const auto kernel = kernelOf("__global__ void k(float* x) {}");
        panel.setKernel(kernel, fitArguments(kernel, {}, 10), ".");
        panel.setKernel(kernel, fitArguments(kernel, {}, 20), ".");
        QCOMPARE(panel.arguments()[0].array().shape, (Shape{20}));
        panel.setKernel(kernel, {}, "."); // a reparse of the same text keeps them
        QCOMPARE(panel.arguments()[0].array().shape, (Shape{20}));
    }

    void previewShowsTheInitsValues() {
        ArgumentPanel panel;
        panel.show();
        panel.setKernel(kernelOf("__global__ void k(const float* x) {}"), {}, ".");
        ArgumentEditor* x = panel.editorFor(QStringLiteral("x"));
        x->initCombo()->setCurrentIndex(3); // range
        retype(x->initField(QStringLiteral("start")), QStringLiteral("5"));
        retype(x->initField(QStringLiteral("step")), QStringLiteral("2"));
        retype(x->shapeEdit(), QStringLiteral("8, 4"));
        x->updatePreview();
        QCOMPARE(x->previewTable()->rowCount(), 8);
        QCOMPARE(x->previewTable()->columnCount(), 4);
        QCOMPARE(x->previewTable()->item(1, 2)->text(), QStringLiteral("17")); // 5 + 2 * (1*4 + 2)
        QVERIFY(!x->heatMap()->isHidden());
        QVERIFY(!x->heatMap()->pixmap().isNull());
        panel.resize(420, 420);
        QTest::qWait(50); // the editors are shown by a queued call
        panel.grab().save(QStringLiteral("/tmp/kernelpad_arguments.png"));
    }

    // A formula over a big array shows its first values: "sin(i*0.1)" was taken for a formula of n (the
    // 'n' of sin) and its preview left blank; a formula of n shows the values n gives.
    void aFormulaPreviewsItsFirstValuesOfABigArray() {
        ArgumentPanel panel;
        panel.show();
        panel.setKernel(kernelOf("__global__ void k(const float* x) {}"), {}, ".");
        ArgumentEditor* x = panel.editorFor(QStringLiteral("x"));
        retype(x->shapeEdit(), QStringLiteral("4194304"));
        x->initCombo()->setCurrentIndex(static_cast<int>(InitSpec::Kind::Formula));
        retype(x->initField(QStringLiteral("formula")), QStringLiteral("sin(i*0.1)"));
        x->updatePreview();
        QVERIFY(x->previewTable()->rowCount() > 10);
        QVERIFY(std::abs(x->previewTable()->item(10, 0)->text().toDouble() - std::sin(1.0)) < 1e-5);
        retype(x->initField(QStringLiteral("formula")), QStringLiteral("i / n"));
        x->updatePreview();
        QVERIFY(x->previewTable()->rowCount() > 10);
        QVERIFY(std::abs(x->previewTable()->item(1, 0)->text().toDouble() * 4194304 - 1.0) < 1e-4);
        QVERIFY(x->errorLabel()->text().isEmpty());
    }
};

QTEST_MAIN(TestArgumentPanel)
#include "tst_argumentpanel.moc"
