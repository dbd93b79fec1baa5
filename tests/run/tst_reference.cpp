// run::runReference and the check against it: the playground's C++ reference compiled with the host
// compiler and called on copies of the inputs; its errors point at the reference's own file and line.
#include "core/io/PlaygroundFile.h"
#include "core/launch/CompileError.h"
#include "core/run/Reference.h"
#include "core/run/RunReport.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <optional>

using namespace kp;

namespace {
std::filesystem::path data() {
    return std::filesystem::path(KP_SOURCE_DIR) / "tests/run/data";
}
} // namespace

class TestReference : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;
    std::optional<cpu::HostCompiler> compiler_;

private slots:
    void initTestCase() {
        QVERIFY(cache_.isValid());
        compiler_.emplace(std::string(), cache_.path().toStdString());
    }

    void computesTheOutputsFromCopiesOfTheInputs() {
        const auto setup = launch::prepare(io::readPlayground(data() / "multiply.kpad.json"));
        const auto reference = run::runReference(setup, *compiler_);
        QCOMPARE(reference.outputs.size(), std::size_t{1});
        const auto* dest = reference.output("dest");
        QVERIFY(dest);
        const auto& a = setup.find("a")->array;
        const auto& b = setup.find("b")->array;
        for (std::size_t i = 0; i < 1000; ++i)
            QCOMPARE(dest->value(i),
                     static_cast<double>(static_cast<float>(a.value(i)) * static_cast<float>(b.value(i))));
        QVERIFY(reference.milliseconds >= 0);
        // The setup's own arrays are untouched: outputs are new arrays.
        QCOMPARE(setup.find("dest")->array.value(5), 0.0);
    }

    // In a sweep the calls read In arrays in place; a reference that writes one (valid C++: the
    // parameter is not const) is called again on copies, so every call starts from the same inputs.
    void aReferenceThatWritesItsInputsStillStartsFromThem() {
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        std::filesystem::copy_file(data() / "multiply.cu", folder / "multiply.cu");
        std::ofstream(folder / "writes.ref.cpp")
            << "void multiply_ref(float* dest, float* a, float* b, int n) {\n"
               "    for (int i = 0; i < n; ++i) { a[i] += 1; dest[i] = a[i] * b[i]; }\n}\n";
        auto playground = io::readPlayground(data() / "multiply.kpad.json");
        playground.folder = folder;
        playground.reference = model::ReferenceSpec{"writes.ref.cpp", "multiply_ref", {}};
        const auto setup = launch::prepare(playground);
        const auto copies = run::runReference(setup, *compiler_, 3, 1, false);
        const auto inPlace = run::runReference(setup, *compiler_, 3, 1, true);
        QCOMPARE(inPlace.samplesMs.size(), std::size_t{3});
        QVERIFY(*inPlace.output("dest") == *copies.output("dest"));
        const auto& a = setup.find("a")->array;
        const auto& b = setup.find("b")->array;
        QCOMPARE(
            inPlace.output("dest")->value(9),
            static_cast<double>((static_cast<float>(a.value(9)) + 1.0f) * static_cast<float>(b.value(9))));

        // One that only reads them gives what copies give.
        const auto plain = launch::prepare(io::readPlayground(data() / "multiply.kpad.json"));
        QVERIFY(*run::runReference(plain, *compiler_, 2, 1, true).output("dest") ==
                *run::runReference(plain, *compiler_).output("dest"));
    }

    void checkPassesAgainstItselfAndFailsAgainstAWrongReference() {
        const auto setup = launch::prepare(io::readPlayground(data() / "multiply.kpad.json"));
        const auto good = run::runReference(setup, *compiler_);
        launch::RunResult result;
        result.backend = "test";
        result.outputs.emplace_back("dest", good.output("dest")->copyTo(model::heapAllocator()));
        const auto same = run::checkAgainst(setup, result, good);
        QCOMPARE(same.size(), std::size_t{1});
        QVERIFY(same[0].passed);

        const auto wrongSetup = launch::prepare(io::readPlayground(data() / "wrong_reference.kpad.json"));
        const auto wrong = run::runReference(wrongSetup, *compiler_);
        const auto checks = run::checkAgainst(setup, result, wrong);
        QVERIFY(!checks[0].passed);
        QCOMPARE(checks[0].mismatches, std::size_t{1000});
        QVERIFY2(std::abs(checks[0].maxAbs - 1.0) < 1e-4,
                 std::to_string(checks[0].maxAbs).c_str()); // + 1.0f, in float
        const run::RunReport report{&setup, &result, &wrong, false, checks, {}};
        const auto json = report.toJson();
        QCOMPARE(json["check"]["passed"].get<bool>(), false);
        QCOMPARE(json["check"]["mismatches"].get<std::size_t>(), std::size_t{1000});
        QVERIFY(json.contains("reference_ms"));
        QCOMPARE(json["check"]["outputs"][0]["first"].size(), std::size_t{10});
    }

    void compileErrorsPointIntoTheReferenceFile() {
        const auto setup = launch::prepare(io::readPlayground(data() / "broken_reference.kpad.json"));
        try {
            (void)run::runReference(setup, *compiler_);
            QFAIL("a broken reference compiled");
        } catch (const launch::CompileError& e) {
            QVERIFY(!e.diagnostics().empty());
            const auto& first = e.diagnostics().front();
            QCOMPARE(first.file, std::string("broken.ref.cpp"));
            QCOMPARE(first.line, 4);
            QVERIFY2(first.message.find("not declared") != std::string::npos ||
                         first.message.find("undeclared") != std::string::npos,
                     first.message.c_str());
            QCOMPARE(first.column, 50); // dest[i] = a[i] * c[i]: the c
        }
    }

    void aParameterListThatDiffersIsReported() {
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        std::filesystem::copy_file(data() / "multiply.cu", folder / "multiply.cu");
        std::ofstream(folder / "short.ref.cpp")
            << "void multiply_ref(float* dest, const float* a) { dest[0] = a[0]; }\n";
        auto playground = io::readPlayground(data() / "multiply.kpad.json");
        playground.folder = folder;
        playground.reference = model::ReferenceSpec{"short.ref.cpp", "multiply_ref", {}};
        const auto setup = launch::prepare(playground);
        try {
            (void)run::runReference(setup, *compiler_);
            QFAIL("a reference with 2 parameters was called with 4");
        } catch (const launch::CompileError& e) {
            QVERIFY2(std::string(e.what()).find("takes 2 parameters but the kernel multiply takes 4") !=
                         std::string::npos,
                     e.what());
        }
    }

    void aFunctionNameThatIsNotAnIdentifierIsRefused() {
        auto playground = io::readPlayground(data() / "multiply.kpad.json");
        playground.reference->function = "multiply_ref); system(\"rm -rf /\"";
        const auto setup = launch::prepare(playground);
        QVERIFY_THROWS_EXCEPTION(launch::SetupError, run::runReference(setup, *compiler_));
    }
};

QTEST_APPLESS_MAIN(TestReference)
#include "tst_reference.moc"
