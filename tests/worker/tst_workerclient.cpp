// Kernels that crash, hang or corrupt memory end the worker, never the app: every entry of the fault
// corpus (tests/worker/faults/corpus.json: out-of-bounds on CPU and GPU, endless loops, deep recursion,
// division by zero, huge arrays, bad launches, wrong arguments, malformed files, garbage source...) is
// run through the WorkerClient; the test checks the kind of outcome and its message, that this process
// goes on, and that a valid run right after it succeeds. CPU entries run in CI; CUDA entries need the
// GPU machine and skip elsewhere.
#include "core/Bytes.h"
#include "core/Error.h"
#include "core/cuda/Driver.h"
#include "core/cuda/Nvrtc.h"
#include "core/worker/WorkerClient.h"

#include <QtTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/resource.h>
#include <thread>

using namespace kp;

namespace {

const std::string kFaults = KP_SOURCE_DIR "/tests/worker/faults/";

std::string validPlayground() {
    return nlohmann::json{
        {"format", "kernelpad/1"},
        {"code", "__global__ void mul(float* d, const float* a, int n) {\n"
                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) d[i] = a[i] * 3;\n}\n"},
        {"kernel", "mul"},
        {"launch", {{"grid", "auto"}, {"block", {128}}}},
        {"args",
         {{{"name", "d"}, {"array", {{"dtype", "float32"}, {"shape", {1000}}}}, {"direction", "out"}},
          {{"name", "a"},
           {"array", {{"dtype", "float32"}, {"shape", {1000}}}},
           {"direction", "in"},
           {"init", {{"range", {{"start", 0}, {"step", 1}}}}}},
          {{"name", "n"}, {"scalar", {{"dtype", "int32"}}}, {"value", "size(a)"}}}}}
        .dump();
}

} // namespace

class TestWorkerClient : public QObject {
    Q_OBJECT
    worker::WorkerClient client_{KP_WORKER_PATH};

    void validRunSucceeds(const std::string& backend) {
        const auto result = client_.run({worker::RunRequest{validPlayground(), kFaults + "valid.kpad.json",
                                                            run::parseRunBackend(backend)}});
        QVERIFY2(result.ok(), result.message.c_str());
        const auto* d = launch::find(result.outputs, "d");
        QVERIFY(d);
        QCOMPARE(d->size(), std::size_t{1000});
        QCOMPARE(d->value(999), 2997.0);
        QCOMPARE(result.timings.backend.substr(0, backend.size()), backend);
    }

private slots:
    // An abort on the CPU is not only an assert(): a write past an array's end that damages memory ends
    // the same way. The message said "An assert() in the kernel that failed shows like this" of an
    // off-by-one write; it now names both and what tells them apart.
    // The app's workers run a few nice levels down, so that a kernel spinning on every core does not
    // freeze the window on a loaded machine; the worker keeps working at that priority.
    void workersStartedBelowThisProcessesPriority() {
        worker::WorkerClient lowered{KP_WORKER_PATH};
        lowered.setNiceIncrement(3);
        const auto result = lowered.run({worker::RunRequest{validPlayground(), kFaults + "valid.kpad.json",
                                                            run::parseRunBackend("cpu")}});
        QVERIFY2(result.ok(), result.message.c_str());
        QVERIFY(lowered.pid() > 0);
        errno = 0;
        const int ours = ::getpriority(PRIO_PROCESS, 0);
        const int theirs = ::getpriority(PRIO_PROCESS, static_cast<id_t>(lowered.pid()));
        QCOMPARE(errno, 0);
        QCOMPARE(theirs, std::min(19, ours + 3));
        QVERIFY(client_
                    .run({worker::RunRequest{validPlayground(), kFaults + "valid.kpad.json",
                                             run::parseRunBackend("cpu")}})
                    .ok());
        QCOMPARE(::getpriority(PRIO_PROCESS, static_cast<id_t>(client_.pid())), ours); // not asked: unchanged
    }

    void explainsAnAbortAsAnAssertOrDamagedMemory() {
        const std::string text = worker::explainCrash("SIGABRT (signal 6)", true, false);
        QVERIFY2(text.find("assert()") != std::string::npos &&
                     text.find("past an array's end") != std::string::npos &&
                     text.find("bounds checking on") != std::string::npos,
                 text.c_str());
        QVERIFY(worker::explainCrash("SIGABRT (signal 6)", true, true).find("past an array") ==
                std::string::npos);
        QVERIFY(worker::explainCrash("SIGABRT (signal 6)", false, false)
                    .empty()); // a GPU run's fault is an answer
    }

    void faultCorpus_data() {
        QTest::addColumn<QString>("entry");
        std::ifstream in(kFaults + "corpus.json");
        const auto corpus = nlohmann::json::parse(in);
        QVERIFY(corpus.size() >= 30);
        for (const auto& e : corpus)
            QTest::newRow(e.at("name").get<std::string>().c_str()) << QString::fromStdString(e.dump());
    }

    void faultCorpus() {
        QFETCH(QString, entry);
        const auto e = nlohmann::json::parse(entry.toStdString());
        const auto backend = e.at("backend").get<std::string>();
        if (backend == "cuda" && !cuda::Driver::available())
            QSKIP("no CUDA device here: the GPU machine runs this entry");
        if (const double above = e.value("unless_memory_above", 0.0);
            above > 0 && static_cast<double>(availableMemoryBytes()) >= above)
            QSKIP("this machine has the memory for it: the refusal needs a smaller one");
        worker::RunRequest run;
        run.playground = e.contains("raw") ? e.at("raw").get<std::string>() : e.at("playground").dump();
        run.path = kFaults + "fault.kpad.json";
        run.checkBounds = e.value("check_bounds", false);
        worker::WorkerRequest request{run, e.value("time_limit", 0.0)};
        std::thread stopper;
        if (const double after = e.value("stop_after", 0.0); after > 0)
            stopper = std::thread([this, after] {
                std::this_thread::sleep_for(std::chrono::duration<double>(after));
                client_.stop();
            });
        // An unknown backend is refused where its text becomes a run::Backend, before any worker.
        worker::WorkerResult result;
        try {
            std::get<worker::RunRequest>(request.message).backend = run::parseRunBackend(backend);
            result = client_.run(request);
        } catch (const InputError& error) {
            result.outcome = worker::Outcome::Input;
            result.message = error.what();
        }
        if (stopper.joinable()) stopper.join();
        const auto expected = e.at("expect").get<std::string>();
        QVERIFY2(worker::name(result.outcome) == expected,
                 (std::string("got ") + std::string(worker::name(result.outcome)) + ": " + result.message)
                     .c_str());
        QVERIFY2(!result.message.empty(), "every failure says what happened");
        QVERIFY2(result.message.find(e.at("message").get<std::string>()) != std::string::npos,
                 result.message.c_str());
        if (expected == "compile")
            QVERIFY(!result.diagnostics.empty() || result.message.find("error") != std::string::npos);
        if (expected == "timed out") QVERIFY(result.seconds < request.timeLimitSeconds + 3);
        // This process goes on, and the next valid run works (on a fresh worker where the last one died).
        validRunSucceeds(backend == "cuda" ? "cuda" : "cpu");
    }

    void tenMegabyteSource() {
        std::string code = "__global__ void k(float* x) { x[blockIdx.x * blockDim.x + threadIdx.x] *= 5; }\n";
        const std::string filler =
            "// a line of commentary to make the source very long indeed .......................\n";
        while (code.size() < 10u << 20)
            code += filler;
        const auto playground = nlohmann::json{{"format", "kernelpad/1"},
                                               {"code", code},
                                               {"kernel", "k"},
                                               {"launch", {{"grid", {4}}, {"block", {64}}}},
                                               {"args",
                                                {{{"name", "x"},
                                                  {"array", {{"dtype", "float32"}, {"shape", {256}}}},
                                                  {"direction", "inout"},
                                                  {"init", "ones"}}}}};
        const auto result = client_.run({worker::RunRequest{playground.dump(), kFaults + "big.kpad.json"}});
        QVERIFY2(result.ok(), result.message.c_str());
        QCOMPARE(launch::find(result.outputs, "x")->value(255), 5.0);
    }

    void largeResultsTravelThroughSharedMemory() {
        // 64 Mi floats out: the result arrives as a mapping of the worker's shared memory.
        const auto playground = nlohmann::json{
            {"format", "kernelpad/1"},
            {"code",
             "__global__ void k(float* x) { x[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x; }"},
            {"kernel", "k"},
            {"launch", {{"grid", {1 << 18}}, {"block", {256}}}},
            {"args",
             {{{"name", "x"},
               {"array", {{"dtype", "float32"}, {"shape", {1 << 26}}}},
               {"direction", "out"}}}}};
        const auto result = client_.run({worker::RunRequest{playground.dump(), kFaults + "large.kpad.json"}});
        QVERIFY2(result.ok(), result.message.c_str());
        const auto* x = launch::find(result.outputs, "x");
        QCOMPARE(x->bytes(), std::size_t{256} << 20);
        QCOMPARE(x->value((std::size_t{1} << 26) - 1), double((1 << 18) - 1));
        // Writable (copy on write): the app may edit what came back.
        auto copy = *x;
        copy.setValue(0, 42);
        QCOMPARE(copy.value(0), 42.0);
    }

    // Compiling as you type: the kernel is compiled in the worker, not run, and its arguments need not
    // match yet (the user is still typing them).
    void inspectCompilesWithoutRunning_data() {
        QTest::addColumn<QString>("backend");
        QTest::newRow("cpu") << "cpu";
        QTest::newRow("cuda") << "cuda";
    }
    void inspectCompilesWithoutRunning() {
        QFETCH(QString, backend);
        if (backend == "cuda" && !cuda::Driver::available())
            QSKIP("no CUDA driver here: the CUDA row runs on the GPU machine");
        const auto playground =
            nlohmann::json{{"format", "kernelpad/1"},
                           {"code", "__global__ void k(float* x, int n) {\n"
                                    "    __shared__ float tile[256];\n"
                                    "    tile[threadIdx.x] = x[threadIdx.x];\n    __syncthreads();\n"
                                    "    x[threadIdx.x] = tile[255 - threadIdx.x] * n;\n}\n"},
                           {"kernel", "k"},
                           {"args", nlohmann::json::array()}};
        const worker::InspectRequest request{playground.dump(), kFaults + "inspect.kpad.json",
                                             run::parseRunBackend(backend.toStdString())};
        const auto result = client_.run({request});
        QVERIFY2(result.ok(), result.message.c_str());
        QVERIFY(result.inspection);
        QVERIFY(result.outputs.empty());
        const auto& inspection = *result.inspection;
        QVERIFY2(inspection.backend.starts_with(backend.toStdString()), inspection.backend.c_str());
        if (backend == "cpu") {
            QCOMPARE(inspection.limits, launch::LaunchLimits::cpu());
            QVERIFY(!inspection.attributes);
            QVERIFY2(inspection.execution.find("barrier") != std::string::npos, inspection.execution.c_str());
        } else {
            QVERIFY(inspection.attributes && inspection.device);
            QCOMPARE(inspection.attributes->staticSharedBytes, 1024);
            QVERIFY(inspection.attributes->registersPerThread > 0);
            QCOMPARE(inspection.limits, launch::LaunchLimits::of(*inspection.device));
        }
        QCOMPARE(run::Inspection::fromJson(inspection.toJson()), inspection);
    }

    void inspectReportsCompileErrorsOnTheirLine_data() { inspectCompilesWithoutRunning_data(); }
    void inspectReportsCompileErrorsOnTheirLine() {
        QFETCH(QString, backend);
        if (backend == "cuda" && !cuda::Driver::available())
            QSKIP("no CUDA driver here: the CUDA row runs on the GPU machine");
        const auto playground =
            nlohmann::json{{"format", "kernelpad/1"},
                           {"code", "__global__ void k(float* x) {\n    int i = threadIdx.x;\n"
                                    "    x[i] = undeclared_thing;\n}\n"},
                           {"kernel", "k"},
                           {"args", nlohmann::json::array()}};
        const worker::InspectRequest request{playground.dump(), kFaults + "inspect.kpad.json",
                                             run::parseRunBackend(backend.toStdString())};
        const auto result = client_.run({request});
        QCOMPARE(result.outcome, worker::Outcome::Compile);
        QVERIFY(!result.diagnostics.empty());
        QCOMPARE(result.diagnostics.front().line, 3);
        QVERIFY2(result.diagnostics.front().message.find("undeclared_thing") != std::string::npos,
                 result.diagnostics.front().message.c_str());
        validRunSucceeds("cpu");
    }

    // The compiled-code view's request: the worker compiles for the chosen architecture and sends the PTX,
    // the kernels' resources and the SASS (or why there is none), all of which survive the trip.
    void disassembleSendsTheCompiledCode() {
        if (!cuda::Nvrtc::available()) QSKIP(cuda::Nvrtc::unavailableReason().c_str());
        worker::DisassembleRequest request{validPlayground(), kFaults + "valid.kpad.json"};
        request.arch = "sm_80";
        request.lineInfo = true;
        const auto result = client_.run({request});
        QVERIFY2(result.ok(), result.message.c_str());
        QVERIFY(result.compiledCode);
        const auto& code = *result.compiledCode;
        QCOMPARE(code.arch, std::string("sm_80"));
        QCOMPARE(code.kernel, std::string("_Z3mulPfPKfi"));
        QCOMPARE(code.sourceName, std::string("<code>"));
        QVERIFY(code.ptx.hasSourceLines());
        QVERIFY(!code.ptx.linesFrom(3).empty()); // d[i] = a[i] * 3
        QCOMPARE(code.kernels.size(), std::size_t{1});
        QVERIFY(code.kernels[0].registers > 0);
        QVERIFY(code.sass.empty() != code.sassUnavailable.empty()); // SASS, or why not
        // Without line info, and with the worker's default architecture.
        request.arch.clear();
        request.lineInfo = false;
        const auto plain = client_.run({request});
        QVERIFY2(plain.ok(), plain.message.c_str());
        QVERIFY(plain.compiledCode && !plain.compiledCode->ptx.hasSourceLines());
        QVERIFY(plain.compiledCode->arch.starts_with("sm_"));
    }

    void disassembleReportsWhatIsWrong() {
        if (!cuda::Nvrtc::available()) QSKIP(cuda::Nvrtc::unavailableReason().c_str());
        const auto broken =
            nlohmann::json{{"format", "kernelpad/1"},
                           {"code", "__global__ void k(float* x) {\n    x[0] = undeclared_thing;\n}\n"},
                           {"kernel", "k"},
                           {"args", nlohmann::json::array()}};
        worker::DisassembleRequest request{broken.dump(), kFaults + "inspect.kpad.json"};
        request.arch = "sm_90";
        const auto compile = client_.run({request});
        QCOMPARE(compile.outcome, worker::Outcome::Compile);
        QVERIFY(!compile.compiledCode);
        QVERIFY(!compile.diagnostics.empty());
        QCOMPARE(compile.diagnostics.front().line, 2);
        request.playground = validPlayground();
        request.arch = "compute_90";
        const auto arch = client_.run({request});
        QCOMPARE(arch.outcome, worker::Outcome::Input);
        QVERIFY2(arch.message.find("arch: \"compute_90\" is not a real GPU architecture") !=
                     std::string::npos,
                 arch.message.c_str());
        validRunSucceeds("cpu");
    }

    // printf from a kernel reaches the app, and so does the text of a failed assert, although the worker
    // dies of it.
    // A sweep runs in the worker and sends each row as it is measured, then the whole result.
    void sweepSendsItsRowsAsTheyCome() {
        worker::SweepRequest sweep{validPlayground(), kFaults + "valid.kpad.json"};
        sweep.spec = run::SweepSpec::fromJson(
            {{"from", 1000}, {"to", 100000}, {"steps", 3}, {"backends", {"cpu", "cpu:1"}}, {"repeat", 2}});
        worker::WorkerRequest request{sweep};
        std::vector<run::SweepRow> rows;
        std::size_t lastTotal = 0;
        request.onSweepRow = [&](const run::SweepRow& row, std::size_t done, std::size_t total) {
            rows.push_back(row);
            QCOMPARE(done, rows.size());
            lastTotal = total;
        };
        const auto result = client_.run(request);
        QVERIFY2(result.ok(), result.message.c_str());
        QVERIFY(result.sweep);
        QCOMPARE(rows.size(), std::size_t{6});
        QCOMPARE(lastTotal, std::size_t{6});
        QCOMPARE(result.sweep->rows, rows);
        QCOMPARE(result.sweep->rows.back().elements, std::uint64_t{100000});
        for (const auto& row : rows)
            QVERIFY2(row.ran() && row.kernelMs.size() == 2, row.error.c_str());
        // A bad spec is the user's input, said with its path.
        auto& backwards = std::get<worker::SweepRequest>(request.message).spec;
        backwards = {};
        backwards.from = 10;
        backwards.to = 1;
        const auto bad = client_.run(request);
        QCOMPARE(int(bad.outcome), int(worker::Outcome::Input));
        QVERIFY2(bad.message.starts_with("sweep.to:"), bad.message.c_str());
    }

    void stoppingASweepKeepsTheRowsSoFar() {
        worker::SweepRequest sweep{validPlayground(), kFaults + "valid.kpad.json"};
        sweep.spec = run::SweepSpec::fromJson({{"scale", "linear"},
                                               {"from", 1000},
                                               {"to", 2000000},
                                               {"steps", 200},
                                               {"backends", {"cpu:1"}},
                                               {"repeat", 20}});
        worker::WorkerRequest request{sweep};
        std::vector<run::SweepRow> rows;
        request.onSweepRow = [&](const run::SweepRow& row, std::size_t done, std::size_t) {
            rows.push_back(row);
            if (done == 3) client_.stop();
        };
        const auto result = client_.run(request);
        QCOMPARE(int(result.outcome), int(worker::Outcome::Stopped));
        QVERIFY(!result.sweep);
        QVERIFY2(rows.size() >= 3 && rows.size() < 200, std::to_string(rows.size()).c_str());
        validRunSucceeds("cpu"); // a fresh worker for the next request
    }

    void printedOutputComesBack() {
        const auto playground = [](const std::string& body) {
            return nlohmann::json{
                {"format", "kernelpad/1"},
                {"code", "#include <cassert>\n__global__ void k(int* x) {\n" + body + "\n}\n"},
                {"kernel", "k"},
                {"launch", {{"grid", {1}}, {"block", {2}}}},
                {"args",
                 {{{"name", "x"}, {"array", {{"dtype", "int32"}, {"shape", {2}}}}, {"direction", "inout"}}}}}
                .dump();
        };
        const auto printed = client_.run({worker::RunRequest{
            playground("printf(\"hello from thread %d\\n\", (int)threadIdx.x);"), kFaults + "p.kpad.json"}});
        QVERIFY2(printed.ok(), printed.message.c_str());
        QVERIFY2(printed.output.find("hello from thread 0") != std::string::npos, printed.output.c_str());
        QVERIFY2(printed.output.find("hello from thread 1") != std::string::npos, printed.output.c_str());

        const auto failed = client_.run(
            {worker::RunRequest{playground("assert(x[threadIdx.x] == 42);"), kFaults + "a.kpad.json"}});
        // The kernel's process ends; the worker reports it as the kernel's fault and stays.
        QCOMPARE(failed.outcome, worker::Outcome::Fault);
        QVERIFY2(failed.message.find("the kernel k crashed with SIGABRT") != std::string::npos,
                 failed.message.c_str());
        // (The text is the condition as the CPU backend compiled it: the split kernel names threadIdx
        // otherwise.)
        QVERIFY2(failed.output.find("<code>:3") != std::string::npos &&
                     failed.output.find("== 42") != std::string::npos,
                 failed.output.c_str());
        // The next request prints only its own output.
        const auto quiet = client_.run({worker::RunRequest{validPlayground(), kFaults + "valid.kpad.json"}});
        QVERIFY2(quiet.ok(), quiet.message.c_str());
        QVERIFY2(quiet.output.find("hello") == std::string::npos &&
                     quiet.output.find("42") == std::string::npos,
                 quiet.output.c_str());
    }

    void missingWorkerIsNamed() {
        worker::WorkerClient missing("/nonexistent/kernelpad-worker");
        const auto result = missing.run({worker::RunRequest{validPlayground(), kFaults + "valid.kpad.json"}});
        QCOMPARE(result.outcome, worker::Outcome::Worker);
        QVERIFY2(result.message.find("/nonexistent/kernelpad-worker is missing") != std::string::npos,
                 result.message.c_str());
    }

    void workerOfAnotherVersionIsNamed() {
        // A stand-in that greets with another protocol version.
        QTemporaryDir dir;
        const auto script = dir.filePath("kernelpad-worker").toStdString();
        {
            std::ofstream out(script);
            out << "#!/usr/bin/env python3\nimport json, os, socket, struct\n"
                   "s = socket.socket(fileno=3)\nh = json.dumps({'type': 'hello', 'protocol': 99, 'version': "
                   "'9.9'}).encode()\n"
                   "s.sendall(b'KPW1' + struct.pack('<I', len(h)) + h)\ns.recv(1)\n";
        }
        std::filesystem::permissions(script, std::filesystem::perms::owner_all);
        worker::WorkerClient other(script);
        const auto result = other.run({worker::RunRequest{validPlayground(), kFaults + "valid.kpad.json"}});
        QCOMPARE(result.outcome, worker::Outcome::Worker);
        QVERIFY2(result.message.find("protocol 99") != std::string::npos &&
                     result.message.find("9.9") != std::string::npos,
                 result.message.c_str());
    }
};

QTEST_APPLESS_MAIN(TestWorkerClient)
#include "tst_workerclient.moc"
