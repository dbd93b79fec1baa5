// What the run report says about one output's check against the reference, in the words the results
// view shows above that output: passed, "3 of 400 elements differ (...)", or "Not checked: <why>".
// Read from the report's "check" object (RunReport::toJson), so the view never re-runs the check.
#pragma once

#include <QCoreApplication>
#include <QString>
#include <nlohmann/json.hpp>
#include <string>

struct CheckSummary {
    enum class State { Passed, Failed, NotChecked };
    State state = State::NotChecked;
    QString text;

    // `report`: the whole timings.json object. `values`: the output's element count (times its
    // components for vector types), the "of 400" in the text.
    static CheckSummary of(const nlohmann::json& report, const std::string& output, std::size_t values,
                           bool vectorType = false);
    bool operator==(const CheckSummary&) const = default;

    // tr() with the context "CheckSummary", for lupdate and the translators alike.
    Q_DECLARE_TR_FUNCTIONS(CheckSummary)
};
