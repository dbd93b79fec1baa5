// CompileCache through the Compiler with the real NVRTC: an unchanged compile is a hit, in memory and
// across restarts; any change misses; a damaged entry on disk is never loaded. Each test has its own folder.
#include "core/cuda/CompileCache.h"
#include "core/cuda/Compiler.h"
#include "core/cuda/Nvrtc.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

using kp::cuda::CompileCache;
using kp::cuda::CompileOptions;
using kp::cuda::Compiler;
using kp::cuda::CompileResult;
using Hit = CompileResult::CacheHit;

Q_DECLARE_METATYPE(CompileOptions)

namespace {

// The unused variable gives a warning, which must come back on every hit.
constexpr const char* kSource =
    "template <typename T> __global__ void scale(T* p, T by) { int unused; p[0] *= by; }\n";

CompileOptions baseOptions() {
    CompileOptions options;
    options.arch = "compute_80";
    options.nameExpressions = {"scale<float>"};
    return options;
}

std::string readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The files in `folder`, not its subfolders.
std::vector<std::filesystem::path> entryFiles(const std::string& folder) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        if (entry.is_regular_file()) files.push_back(entry.path());
    return files;
}

double medianMilliseconds(const std::function<void()>& run, int times) {
    std::vector<double> samples;
    for (int i = 0; i < times; ++i) {
        const auto start = std::chrono::steady_clock::now();
        run();
        samples.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

} // namespace

class TestCompileCache : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!kp::cuda::Nvrtc::available()) QSKIP(kp::cuda::Nvrtc::unavailableReason().c_str());
    }

    void secondCompileHitsMemory() {
        QTemporaryDir dir;
        CompileCache cache(dir.path().toStdString());
        const Compiler compiler(&cache);
        const auto first = compiler.compile(kSource, "k.cu", baseOptions());
        const auto second = compiler.compile(kSource, "k.cu", baseOptions());
        QVERIFY(first.ok);
        QCOMPARE(first.fromCache, Hit::None);
        QCOMPARE(second.fromCache, Hit::Memory);
        QCOMPARE(second.ptx, first.ptx);
        QCOMPARE(second.diagnostics.size(), std::size_t{1});
        QVERIFY(second.diagnostics == first.diagnostics);
        QVERIFY(second.loweredNames == first.loweredNames);
        QVERIFY(second.milliseconds < first.milliseconds);
        qInfo("compile %.2f ms, memory hit %.4f ms", first.milliseconds, second.milliseconds);
    }

    void newCacheOnTheSameFolderHitsDisk() {
        QTemporaryDir dir;
        CompileResult first;
        {
            CompileCache cache(dir.path().toStdString());
            first = Compiler(&cache).compile(kSource, "k.cu", baseOptions());
        }
        CompileCache restarted(dir.path().toStdString());
        const auto second = Compiler(&restarted).compile(kSource, "k.cu", baseOptions());
        QCOMPARE(second.fromCache, Hit::Disk);
        QVERIFY(second.ok);
        QCOMPARE(second.arch, first.arch);
        QCOMPARE(second.ptx, first.ptx);
        QCOMPARE(second.log, first.log);
        QVERIFY(second.diagnostics == first.diagnostics);
        QVERIFY(second.loweredNames == first.loweredNames);
        QCOMPARE(Compiler(&restarted).compile(kSource, "k.cu", baseOptions()).fromCache, Hit::Memory);
    }

    void keepsCubinAcrossRestarts() {
        QTemporaryDir dir;
        auto options = baseOptions();
        options.arch = "sm_80";
        CompileResult first;
        {
            CompileCache cache(dir.path().toStdString());
            first = Compiler(&cache).compile(kSource, "k.cu", options);
        }
        CompileCache restarted(dir.path().toStdString());
        const auto second = Compiler(&restarted).compile(kSource, "k.cu", options);
        QCOMPARE(second.fromCache, Hit::Disk);
        QVERIFY(!first.cubin.empty());
        QVERIFY(second.cubin == first.cubin);
    }

    void anyChangeMisses_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<CompileOptions>("options");
        const QString source = kSource;
        const auto base = baseOptions();
        auto with = [&](auto change) {
            auto options = base;
            change(options);
            return options;
        };
        QTest::newRow("source") << source + "\n// edited\n"
                                << "k.cu" << base;
        QTest::newRow("file name") << source << "other.cu" << base;
        QTest::newRow("arch") << source << "k.cu" << with([](auto& o) { o.arch = "compute_86"; });
        QTest::newRow("define") << source << "k.cu" << with([](auto& o) { o.defines["N"] = "1"; });
        QTest::newRow("define value") << source << "k.cu" << with([](auto& o) { o.defines["N"] = "2"; });
        QTest::newRow("include dir") << source << "k.cu"
                                     << with([](auto& o) { o.includeDirs = {"/nonexistent"}; });
        QTest::newRow("standard") << source << "k.cu" << with([](auto& o) { o.standard = "c++20"; });
        QTest::newRow("line info") << source << "k.cu" << with([](auto& o) { o.lineInfo = true; });
        QTest::newRow("fast math") << source << "k.cu" << with([](auto& o) { o.fastMath = true; });
        QTest::newRow("raw option") << source << "k.cu" << with([](auto& o) { o.extraOptions = {"-G"}; });
        QTest::newRow("name expression")
            << source << "k.cu" << with([](auto& o) { o.nameExpressions.push_back("scale<double>"); });
    }

    void anyChangeMisses() {
        QFETCH(QString, source);
        QFETCH(QString, fileName);
        QFETCH(CompileOptions, options);
        QTemporaryDir dir;
        CompileCache cache(dir.path().toStdString());
        const Compiler compiler(&cache);
        QVERIFY(compiler.compile(kSource, "k.cu", baseOptions()).ok);
        const auto changed = compiler.compile(source.toStdString(), fileName.toStdString(), options);
        QVERIFY(changed.ok);
        QCOMPARE(changed.fromCache, Hit::None);
        QCOMPARE(compiler.compile(source.toStdString(), fileName.toStdString(), options).fromCache,
                 Hit::Memory);
    }

    void editedHeaderMisses() {
        QTemporaryDir dir;
        const auto header = std::filesystem::path(dir.path().toStdString()) / "factor.cuh";
        writeAll(header, "#define FACTOR 2\n");
        const auto sourcePath = (std::filesystem::path(dir.path().toStdString()) / "k.cu").string();
        const std::string source =
            "#include \"factor.cuh\"\nextern \"C\" __global__ void k(int* p) { p[0] = FACTOR; }\n";
        CompileCache cache(dir.path().toStdString() + "/cache");
        const Compiler compiler(&cache);
        CompileOptions options;
        options.arch = "compute_80";
        const auto first = compiler.compile(source, sourcePath, options);
        QVERIFY2(first.ok, first.log.c_str());
        QCOMPARE(compiler.compile(source, sourcePath, options).fromCache, Hit::Memory);
        writeAll(header, "#define FACTOR 3\n");
        const auto edited = compiler.compile(source, sourcePath, options);
        QCOMPARE(edited.fromCache, Hit::None);
        QVERIFY(edited.ptx != first.ptx);
    }

    void failedCompileIsNotCached() {
        QTemporaryDir dir;
        CompileCache cache(dir.path().toStdString());
        const Compiler compiler(&cache);
        const std::string broken = "__global__ void k() { nope(); }\n";
        QVERIFY(!compiler.compile(broken, "k.cu", baseOptions()).ok);
        const auto again = compiler.compile(broken, "k.cu", baseOptions());
        QVERIFY(!again.ok);
        QCOMPARE(again.fromCache, Hit::None);
        QVERIFY(!again.diagnostics.empty());
        QVERIFY(entryFiles(dir.path().toStdString()).empty());
    }

    // Each damage is done to the one entry on disk; a fresh cache must notice it, compile again and
    // leave a sound entry behind.
    void damagedEntryIsRecompiled_data() {
        QTest::addColumn<QString>("damage");
        QTest::newRow("byte flipped in payload") << "payload";
        QTest::newRow("byte flipped in header") << "header";
        QTest::newRow("truncated") << "truncate";
        QTest::newRow("cut to half the header") << "short";
        QTest::newRow("empty file") << "empty";
        QTest::newRow("grown by a byte") << "append";
        QTest::newRow("another key's entry") << "swap";
    }

    void damagedEntryIsRecompiled() {
        QFETCH(QString, damage);
        QTemporaryDir dir;
        const auto folder = dir.path().toStdString();
        {
            CompileCache cache(folder);
            QVERIFY(Compiler(&cache).compile(kSource, "k.cu", baseOptions()).ok);
            CompileCache elsewhere(folder + "/other");
            QVERIFY(Compiler(&elsewhere).compile(kSource, "other.cu", baseOptions()).ok);
        }
        const auto target = entryFiles(folder).at(0);
        const auto otherEntry = entryFiles(folder + "/other").at(0);
        auto bytes = readAll(target);
        if (damage == "payload")
            bytes[bytes.size() / 2 + 30] = static_cast<char>(bytes[bytes.size() / 2 + 30] ^ 0x20);
        if (damage == "header") bytes[20] = static_cast<char>(bytes[20] ^ 0x01);
        if (damage == "truncate") bytes.resize(bytes.size() - 10);
        if (damage == "short") bytes.resize(24);
        if (damage == "empty") bytes.clear();
        if (damage == "append") bytes.push_back('x');
        if (damage == "swap") bytes = readAll(otherEntry); // sound, but for another key
        writeAll(target, bytes);

        CompileCache fresh(folder);
        const auto result = Compiler(&fresh).compile(kSource, "k.cu", baseOptions());
        QVERIFY(result.ok);
        QCOMPARE(result.fromCache, Hit::None);
        QVERIFY(result.ptx.find(".entry") != std::string::npos);
        CompileCache afterRepair(folder);
        QCOMPARE(Compiler(&afterRepair).compile(kSource, "k.cu", baseOptions()).fromCache, Hit::Disk);
    }

    void memoryStaysWithinItsBudget() {
        QTemporaryDir dir;
        CompileCache measure(dir.path().toStdString() + "/measure");
        QVERIFY(Compiler(&measure).compile(kSource, "a.cu", baseOptions()).ok);
        const auto oneEntry = measure.memoryBytes();
        QVERIFY(oneEntry > 0);

        CompileCache cache(dir.path().toStdString() + "/small", oneEntry + oneEntry / 2);
        const Compiler compiler(&cache);
        QVERIFY(compiler.compile(kSource, "a.cu", baseOptions()).ok);
        QVERIFY(compiler.compile(kSource, "b.cu", baseOptions()).ok);
        QVERIFY(cache.memoryBytes() <= oneEntry + oneEntry / 2);
        QCOMPARE(compiler.compile(kSource, "b.cu", baseOptions()).fromCache, Hit::Memory);
        QCOMPARE(compiler.compile(kSource, "a.cu", baseOptions()).fromCache, Hit::Disk); // evicted, not lost
    }

    void concurrentCompilesAgree() {
        QTemporaryDir dir;
        CompileCache cache(dir.path().toStdString());
        const Compiler compiler(&cache);
        std::vector<CompileResult> results(8);
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < results.size(); ++i)
            threads.emplace_back([&, i] { results[i] = compiler.compile(kSource, "k.cu", baseOptions()); });
        for (auto& thread : threads)
            thread.join();
        for (const auto& result : results) {
            QVERIFY(result.ok);
            QCOMPARE(result.ptx, results[0].ptx);
        }
        QCOMPARE(entryFiles(dir.path().toStdString()).size(),
                 std::size_t{1}); // no temporary file left behind
    }

    // Targets: a memory hit under 0.1 ms, a disk hit under 2 ms. Asserted with slack for loaded CI machines.
    void hitsAreFast() {
        QTemporaryDir dir;
        CompileCache cache(dir.path().toStdString());
        const Compiler compiler(&cache);
        const auto compiled = compiler.compile(kSource, "k.cu", baseOptions());
        const double memory =
            medianMilliseconds([&] { compiler.compile(kSource, "k.cu", baseOptions()); }, 200);
        const double disk = medianMilliseconds(
            [&] {
                cache.clearMemory();
                compiler.compile(kSource, "k.cu", baseOptions());
            },
            50);
        qInfo("compile %.1f ms; median memory hit %.4f ms, disk hit %.4f ms (entry %zu bytes of PTX)",
              compiled.milliseconds, memory, disk, compiled.ptx.size());
        QVERIFY(memory < 1.0);
        QVERIFY(disk < 20.0);
    }

    void defaultFolderFollowsTheEnvironment_data() {
        QTest::addColumn<QByteArray>("kernelpadDir");
        QTest::addColumn<QByteArray>("xdgCache");
        QTest::addColumn<QByteArray>("home");
        QTest::addColumn<QString>("expected");
        QTest::newRow("KERNELPAD_CACHE_DIR first")
            << QByteArray("/kp") << QByteArray("/xdg") << QByteArray("/home/u") << "/kp/compile";
        QTest::newRow("then XDG_CACHE_HOME")
            << QByteArray() << QByteArray("/xdg") << QByteArray("/home/u") << "/xdg/kernelpad/compile";
        QTest::newRow("then ~/.cache")
            << QByteArray() << QByteArray() << QByteArray("/home/u") << "/home/u/.cache/kernelpad/compile";
    }

    void defaultFolderFollowsTheEnvironment() {
        QFETCH(QByteArray, kernelpadDir);
        QFETCH(QByteArray, xdgCache);
        QFETCH(QByteArray, home);
        QFETCH(QString, expected);
        const auto saved =
            std::array{qgetenv("KERNELPAD_CACHE_DIR"), qgetenv("XDG_CACHE_HOME"), qgetenv("HOME")};
        const auto set = [](const char* name, const QByteArray& value) {
            if (value.isEmpty())
                qunsetenv(name);
            else
                qputenv(name, value);
        };
        set("KERNELPAD_CACHE_DIR", kernelpadDir);
        set("XDG_CACHE_HOME", xdgCache);
        set("HOME", home);
        const auto folder = CompileCache::defaultDirectory();
        set("KERNELPAD_CACHE_DIR", saved[0]);
        set("XDG_CACHE_HOME", saved[1]);
        set("HOME", saved[2]);
        QCOMPARE(QString::fromStdString(folder.string()), expected);
    }

    void keyIsStableAndHex() {
        const auto key = CompileCache::Key::of("input");
        QVERIFY(key == CompileCache::Key::of("input"));
        QVERIFY(!(key == CompileCache::Key::of("input2")));
        QCOMPARE(key.hex().size(), std::size_t{32});
        QVERIFY(key.hex().find_first_not_of("0123456789abcdef") == std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestCompileCache)
#include "tst_compilecache.moc"
