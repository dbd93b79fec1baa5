// SampleCatalog: samples in index.json's groups and order, unlisted samples after them by name, every
// index problem reported with its place while what is usable is still listed, broken samples listed with
// their problem, lesson summaries, lookups by name and title, and where the samples folder is.
#include "../TestSupport.h"
#include "core/Error.h"
#include "core/io/SampleCatalog.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using kp::test::writeText;

namespace {

std::string playgroundJson(const std::string& title, const std::string& lesson) {
    nlohmann::json playground = {
        {"format", "kernelpad/1"},
        {"title", title},
        {"code", "extern \"C\" __global__ void k(float* a) { a[threadIdx.x] = 1; }"},
        {"kernel", "k"},
        {"launch", {{"grid", {1, 1, 1}}, {"block", {4, 1, 1}}}},
        {"args", {{{"name", "a"}, {"array", {{"dtype", "float32"}, {"shape", {4}}}}, {"direction", "out"}}}}};
    if (!lesson.empty()) playground["lesson"] = lesson;
    return playground.dump();
}

// Creates the folders `path` needs.
void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    writeText(path, text);
}

std::vector<std::string> namesOf(const kp::io::SampleCatalog& catalog) {
    std::vector<std::string> names;
    for (const auto& sample : catalog.samples)
        names.push_back(sample.name);
    return names;
}

} // namespace

class TestSampleCatalog : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> dir_;
    fs::path folder() const { return dir_->path().toStdString(); }

    void addSample(const std::string& name, const std::string& title, const std::string& lesson = {},
                   const std::string& lessonText = {}) {
        write(folder() / name / (name + ".kpad.json"), playgroundJson(title, lesson));
        if (!lessonText.empty()) write(folder() / name / lesson, lessonText);
    }

private slots:
    void init() { dir_ = std::make_unique<QTemporaryDir>(); }

    void listsTheIndexGroupsInTheirOrder() {
        addSample("b_first", "First");
        addSample("a_second", "Second");
        addSample("c_third", "Third");
        write(folder() / "index.json",
              "{\"groups\": [{\"title\": \"Basics\", \"samples\": [\"b_first\", \"a_second\"]},"
              " {\"title\": \"More\", \"samples\": [\"c_third\"]}]}");
        const auto catalog = kp::io::readSampleCatalog(folder());
        QCOMPARE(namesOf(catalog), (std::vector<std::string>{"b_first", "a_second", "c_third"}));
        QCOMPARE(catalog.samples[0].group, std::string("Basics"));
        QCOMPARE(catalog.samples[1].group, std::string("Basics"));
        QCOMPARE(catalog.samples[2].group, std::string("More"));
        QCOMPARE(catalog.samples[0].title, std::string("First"));
        QCOMPARE(catalog.samples[0].playground, folder() / "b_first" / "b_first.kpad.json");
        QVERIFY(catalog.problems.empty());
    }

    void putsUnlistedSamplesAfterTheIndexByName() {
        addSample("zeta", "Z");
        addSample("alpha", "A");
        addSample("listed", "L");
        write(folder() / "index.json", "{\"groups\": [{\"title\": \"Basics\", \"samples\": [\"listed\"]}]}");
        const auto catalog = kp::io::readSampleCatalog(folder());
        QCOMPARE(namesOf(catalog), (std::vector<std::string>{"listed", "alpha", "zeta"}));
        QCOMPARE(catalog.samples[1].group, std::string("More samples"));
    }

    void withoutAnIndexListsByName() {
        addSample("b", "B");
        addSample("a", "A");
        fs::create_directories(folder() / "not_a_sample"); // no playground: not listed
        const auto catalog = kp::io::readSampleCatalog(folder());
        QCOMPARE(namesOf(catalog), (std::vector<std::string>{"a", "b"}));
        QVERIFY(catalog.problems.empty());
    }

    void reportsIndexProblemsWithTheirPlace_data() {
        QTest::addColumn<QString>("index");
        QTest::addColumn<QString>("problem");
        QTest::newRow("not JSON") << "{\"groups\": ["
                                  << "index.json: not a JSON object with a \"groups\" array";
        QTest::newRow("no groups") << "{\"samples\": []}"
                                   << "index.json: not a JSON object with a \"groups\" array";
        QTest::newRow("group without title")
            << "{\"groups\": [{\"samples\": [\"a\"]}]}"
            << "index.json: groups[0]: needs a \"title\" string and a \"samples\" array";
        QTest::newRow("name not a string") << "{\"groups\": [{\"title\": \"G\", \"samples\": [\"a\", 3]}]}"
                                           << "index.json: groups[0].samples[1]: not a folder name";
        QTest::newRow("missing folder")
            << "{\"groups\": [{\"title\": \"G\", \"samples\": [\"a\", \"gone\"]}]}"
            << "index.json: \"gone\" (group \"G\") has no folder with a playground";
    }
    void reportsIndexProblemsWithTheirPlace() {
        QFETCH(QString, index);
        QFETCH(QString, problem);
        addSample("a", "A");
        write(folder() / "index.json", index.toStdString());
        const auto catalog = kp::io::readSampleCatalog(folder());
        QCOMPARE(catalog.problems.size(), std::size_t{1});
        QVERIFY2(catalog.problems[0].starts_with(problem.toStdString()), catalog.problems[0].c_str());
        // What can be used still is: the sample is listed either way.
        QCOMPARE(namesOf(catalog), std::vector<std::string>{"a"});
    }

    void listsABrokenSampleWithItsProblem() {
        addSample("good", "Good");
        write(folder() / "broken" / "broken.kpad.json", "{\"format\": \"kernelpad/1\", \"kernel\": 3}");
        const auto catalog = kp::io::readSampleCatalog(folder());
        QCOMPARE(namesOf(catalog), (std::vector<std::string>{"broken", "good"}));
        QCOMPARE(catalog.samples[0].title, std::string("broken"));
        QVERIFY2(catalog.samples[0].problem.find("broken.kpad.json") != std::string::npos,
                 catalog.samples[0].problem.c_str());
        QVERIFY(catalog.samples[1].problem.empty());
    }

    void saysWhenALessonIsMissing() {
        addSample("a", "A", "README.md");
        const auto catalog = kp::io::readSampleCatalog(folder());
        QCOMPARE(catalog.samples[0].problem, std::string("lesson: README.md cannot be read"));
        QCOMPARE(catalog.samples[0].lesson, folder() / "a" / "README.md");
    }

    void readsTheLessonsFirstParagraph() {
        addSample("a", "A", "README.md",
                  "# A\n\nDoubles every element\nof a 4x4 array.\n\n## What it shows\nMore.\n");
        const auto catalog = kp::io::readSampleCatalog(folder());
        QCOMPARE(catalog.samples[0].summary, std::string("Doubles every element of a 4x4 array."));
        QVERIFY(catalog.samples[0].problem.empty());
    }

    void summarisesMarkdown_data() {
        QTest::addColumn<QString>("markdown");
        QTest::addColumn<QString>("summary");
        QTest::newRow("title then paragraph") << "# T\n\nOne two.\nThree.\n\nNext."
                                              << "One two. Three.";
        QTest::newRow("no title") << "First line\nsecond\n"
                                  << "First line second";
        QTest::newRow("heading ends it") << "# T\nText\n## H\nMore"
                                         << "Text";
        QTest::newRow("CRLF and indent") << "# T\r\n\r\n  Hello  \r\n world\r\n"
                                         << "Hello world";
        QTest::newRow("only headings") << "# T\n## H\n"
                                       << "";
        QTest::newRow("empty") << ""
                               << "";
    }
    void summarisesMarkdown() {
        QFETCH(QString, markdown);
        QFETCH(QString, summary);
        QCOMPARE(QString::fromStdString(kp::io::lessonSummary(markdown.toStdString())), summary);
    }

    void findsByNameThenTitle() {
        addSample("doublify", "Double an array");
        addSample("other", "doublify"); // a title equal to another's name: the name wins
        const auto catalog = kp::io::readSampleCatalog(folder());
        QCOMPARE(catalog.find("doublify")->name, std::string("doublify"));
        QCOMPARE(catalog.find("Double an array")->name, std::string("doublify"));
        QCOMPARE(catalog.find("nothing"), nullptr);
        QCOMPARE(catalog.names(), std::string("doublify, other"));
    }

    void rejectsAFolderThatIsNotOne() {
        const fs::path missing = folder() / "nowhere";
        try {
            (void)kp::io::readSampleCatalog(missing);
            QFAIL("no InputError");
        } catch (const kp::InputError& e) {
            QVERIFY2(std::string(e.what()).find(missing.string()) != std::string::npos, e.what());
        }
    }

    void findsTheSamplesFolder() {
        qputenv("KERNELPAD_SAMPLES_DIR", dir_->path().toUtf8());
        QCOMPARE(kp::io::defaultSamplesFolder(), folder());
        qunsetenv("KERNELPAD_SAMPLES_DIR");
        // A build tree has no share/kernelpad beside it, so the source tree's samples are found.
        QCOMPARE(kp::io::defaultSamplesFolder(), fs::path(KP_SOURCE_DIR) / "samples");
    }
};

QTEST_APPLESS_MAIN(TestSampleCatalog)
#include "tst_samplecatalog.moc"
