#include "CheckSummary.h"

#include <QCoreApplication>

namespace {

QString number(double value) {
    return QString::number(value, 'g', 4);
}

QString indexText(const nlohmann::json& index) {
    QStringList parts;
    for (const auto& i : index)
        parts << QString::number(i.get<qulonglong>());
    return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

// An output held to a range of values ({"min": a, "max": b} in the report): the reference plays no part.
CheckSummary fromRange(const nlohmann::json& c, const nlohmann::json& range, std::size_t values) {
    const QString bounds =
        QStringLiteral("[%1, %2]").arg(number(range.value("min", 0.0)), number(range.value("max", 0.0)));
    if (c.value("passed", false))
        return {CheckSummary::State::Passed, CheckSummary::tr("Every value lies within %1").arg(bounds)};
    QString text = CheckSummary::tr("%L1 of %L2 values lie outside %3")
                       .arg(c.value("mismatches", std::size_t(0)))
                       .arg(values)
                       .arg(bounds);
    const auto first = c.find("first");
    if (first != c.end() && first->is_array() && !first->empty())
        text += CheckSummary::tr("; first at %1: %2")
                    .arg(indexText(first->front().at("index")),
                         number(first->front().at("actual").get<double>()));
    return {CheckSummary::State::Failed, text};
}

// `againstCpu`: a GPU run without a reference function, compared with the same kernel on the CPU backend.
CheckSummary fromOutput(const nlohmann::json& c, std::size_t values, bool vectorType, bool againstCpu) {
    const auto unordered = c.find("unordered");
    if (unordered != c.end() && unordered->is_object()) return fromRange(c, *unordered, values);
    const QString maxima = CheckSummary::tr("largest difference %1, relative %2")
                               .arg(number(c.value("max_abs", 0.0)), number(c.value("max_rel", 0.0)));
    // Order not defined by the kernel: the values were matched by rank, as the playground declares.
    QString order;
    if (unordered != c.end() && *unordered == "multiset")
        order = CheckSummary::tr(", compared in any order");
    else if (unordered != c.end() && *unordered == "multiset_per_row")
        order = CheckSummary::tr(", compared row by row, in any order within each row");
    if (c.value("passed", false))
        return {CheckSummary::State::Passed,
                (againstCpu ? CheckSummary::tr("Matches the CPU backend's run of the kernel (%1)").arg(maxima)
                            : CheckSummary::tr("Matches the reference (%1)").arg(maxima)) +
                    order};
    const auto mismatches = c.value("mismatches", std::size_t(0));
    QString text = (vectorType ? CheckSummary::tr("%L1 of %L2 values differ (%3)")
                               : CheckSummary::tr("%L1 of %L2 elements differ (%3)"))
                       .arg(mismatches)
                       .arg(values)
                       .arg(maxima);
    const auto first = c.find("first");
    if (first != c.end() && first->is_array() && !first->empty()) {
        const auto& m = first->front();
        text += (againstCpu ? CheckSummary::tr("; first at %1: %2 where the CPU backend has %3")
                            : CheckSummary::tr("; first at %1: %2 where the reference has %3"))
                    .arg(indexText(m.at("index")), number(m.at("actual").get<double>()),
                         number(m.at("expected").get<double>()));
    }
    return {CheckSummary::State::Failed, text + order};
}

} // namespace

CheckSummary CheckSummary::of(const nlohmann::json& report, const std::string& output, std::size_t values,
                              bool vectorType) {
    const auto check = report.find("check");
    if (check == report.end() || !check->is_object()) {
        const auto why = report.find("unchecked_because");
        if (why != report.end() && why->is_string())
            return {State::NotChecked,
                    tr("Not checked: %1").arg(QString::fromStdString(why->get<std::string>()))};
        return {State::NotChecked, tr("Not checked: the run had no reference to compare with")};
    }
    try {
        for (const auto& c : check->value("outputs", nlohmann::json::array()))
            if (c.value("output", std::string()) == output)
                return fromOutput(c, values, vectorType, check->value("against", std::string()) == "cpu");
    } catch (const nlohmann::json::exception& e) {
        return {
            State::NotChecked,
            tr("Not checked: the run report's check is unreadable (%1)").arg(QString::fromUtf8(e.what()))};
    }
    return {State::NotChecked, tr("Not checked: the playground's check does not include this output")};
}
