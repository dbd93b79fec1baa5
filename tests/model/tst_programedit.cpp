// model::ProgramEdit: the step list's edits on a program as a tree of steps, where a step is, and a single
// launch made into a program.
#include "core/model/ProgramEdit.h"

#include <QtTest>

using namespace kp::model;

namespace {

Step set(const std::string& name) {
    return Step{SetStep{{{name, "1"}}, nlohmann::json::object()}, "", nlohmann::json::object()};
}

Parameter parameter(const std::string& name, const std::string& type, bool pointer, bool isConst = false) {
    Parameter p;
    p.name = name;
    p.typeText = type;
    p.pointer = pointer;
    p.isConst = isConst;
    return p;
}

Step loop(std::vector<Step> steps) {
    RepeatStep r;
    r.times = "2";
    r.steps = std::move(steps);
    return Step{r, "", nlohmann::json::object()};
}

// The names the set steps give, depth first, with a loop's in brackets: "a [b c] d".
std::string shape(const std::vector<Step>& steps) {
    std::string text;
    for (const auto& step : steps) {
        if (!text.empty()) text += ' ';
        if (const auto* s = std::get_if<SetStep>(&step.action)) text += s->variables.front().first;
        if (const auto* r = std::get_if<RepeatStep>(&step.action)) text += "[" + shape(r->steps) + "]";
    }
    return text;
}

} // namespace

class TestProgramEdit : public QObject {
    Q_OBJECT

private slots:
    void namesPathsAsTheFileDoes() {
        QCOMPARE(jsonPath({2, 0}), std::string("steps[2].steps[0]"));
        QCOMPARE(stepPathIn("steps[2].steps[1].launch.args[0]: there is no buffer"),
                 std::optional(StepPath{2, 1}));
        QCOMPARE(stepPathIn("at steps[3] (copy a to b), the kernel"), std::optional(StepPath{3}));
        QCOMPARE(stepPathIn("args[1]: wrong"), std::nullopt);
    }

    void insertsAfterTheSelectionOrInsideALoop() {
        std::vector<Step> steps{set("a"), loop({set("b")}), set("d")};
        QCOMPARE(insertStep(steps, {0}, set("x")), (StepPath{1}));
        QCOMPARE(shape(steps), std::string("a x [b] d"));
        QCOMPARE(insertStep(steps, {2}, set("y")), (StepPath{2, 1})); // a loop: at its end
        QCOMPARE(shape(steps), std::string("a x [b y] d"));
        QCOMPARE(insertStep(steps, {}, set("z")), (StepPath{4}));
        QCOMPARE(shape(steps), std::string("a x [b y] d z"));
    }

    void duplicatesAndRemoves() {
        std::vector<Step> steps{set("a"), loop({set("b")})};
        QCOMPARE(duplicateStep(steps, {1, 0}), (StepPath{1, 1}));
        QCOMPARE(shape(steps), std::string("a [b b]"));
        QCOMPARE(removeStep(steps, {1, 1}), (StepPath{1, 0}));
        QCOMPARE(removeStep(steps, {1, 0}), (StepPath{1})); // the loop is empty: select it
        QCOMPARE(shape(steps), std::string("a []"));
        QCOMPARE(removeStep(steps, {0}), (StepPath{0}));
        QCOMPARE(shape(steps), std::string("[]"));
    }

    // Up and down swap neighbours; next to a loop a step goes into it, at a loop's edge out of it.
    void movesInAndOutOfLoops() {
        std::vector<Step> steps{set("a"), loop({set("b"), set("c")}), set("d")};
        StepPath at = moveStep(steps, {0}, false); // a enters the loop at its start
        QCOMPARE(at, (StepPath{0, 0}));
        QCOMPARE(shape(steps), std::string("[a b c] d"));
        at = moveStep(steps, at, true); // at the loop's top: out, before it
        QCOMPARE(at, (StepPath{0}));
        QCOMPARE(shape(steps), std::string("a [b c] d"));
        at = moveStep(steps, {2}, true); // d enters the loop at its end
        QCOMPARE(at, (StepPath{1, 2}));
        QCOMPARE(shape(steps), std::string("a [b c d]"));
        at = moveStep(steps, at, true); // inside: swaps with c
        QCOMPARE(at, (StepPath{1, 1}));
        QCOMPARE(shape(steps), std::string("a [b d c]"));
        QCOMPARE(moveStep(steps, {0}, true), (StepPath{0})); // the first step cannot go higher
        at = moveStep(steps, {1, 2}, false);                 // c at the loop's bottom: out, after it
        QCOMPARE(at, (StepPath{2}));
        QCOMPARE(shape(steps), std::string("a [b d] c"));
    }

    // A new step names the playground's own arguments where the kernel's parameters are called the same.
    void aNewLaunchNamesTheArguments() {
        Playground p;
        ArgumentSpec a;
        a.name = "in";
        a.type = ArraySpec{};
        ArgumentSpec n;
        n.name = "n";
        n.type = ScalarSpec{};
        p.args = {a, n};
        KernelSignature k;
        k.name = "scale";
        k.parameters = {parameter("in", "float*", true), parameter("out", "float*", true),
                        parameter("n", "int", false)};
        const Step step = newStep(StepKind::Launch, p, {k});
        const auto& launch = std::get<LaunchStep>(step.action);
        QCOMPARE(launch.kernel, std::string("scale"));
        QCOMPARE(launch.args, (std::vector<std::string>{"in", "in", "n"}));
        QVERIFY(launch.grid.empty()); // auto
    }

    // "Make it a program": the launch becomes the first step, with the same grid, block and arguments; an
    // array whose direction came from the kernel's const keeps it.
    void aSingleLaunchBecomesTheFirstStep() {
        Playground p;
        p.kernel = "saxpy";
        p.launch.autoGrid = false;
        p.launch.grid = {64, 1, 1};
        p.launch.block = {128, 2, 1};
        p.launch.sharedBytes = 512;
        ArgumentSpec x, y;
        x.name = "x";
        x.type = ArraySpec{};
        y.name = "y";
        y.type = ArraySpec{};
        p.args = {x, y};
        KernelSignature k;
        k.name = "saxpy";
        k.parameters = {parameter("x", "const float*", true, true), parameter("y", "float*", true)};
        const Playground program = asProgram(p, k);
        QVERIFY(program.isProgram());
        QVERIFY(program.kernel.empty());
        const auto& launch = std::get<LaunchStep>(program.steps.front().action);
        QCOMPARE(launch.kernel, std::string("saxpy"));
        QCOMPARE(launch.grid, (std::vector<std::string>{"64"}));
        QCOMPARE(launch.block, (std::vector<std::string>{"128", "2"}));
        QCOMPARE(launch.sharedBytes, std::string("512"));
        QCOMPARE(launch.args, (std::vector<std::string>{"x", "y"}));
        QCOMPARE(program.args[0].direction, std::optional(Direction::In));
        QCOMPARE(program.args[1].direction, std::optional(Direction::InOut));
    }
};

QTEST_APPLESS_MAIN(TestProgramEdit)
#include "tst_programedit.moc"
