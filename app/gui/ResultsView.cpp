#include "ResultsView.h"

#include "Appearance.h"
#include "ArrayPlot.h"
#include "OutputPane.h"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace {

// Names the reference arrays of the outputs the report checked: the others are shown, not compared.
bool wasChecked(const nlohmann::json& report, const std::string& output) {
    const auto check = report.find("check");
    if (check == report.end() || !check->is_object()) return false;
    const auto outputs = check->find("outputs");
    if (outputs == check->end() || !outputs->is_array()) return false;
    for (const auto& c : *outputs)
        if (c.is_object() && c.value("output", std::string()) == output) return true;
    return false;
}

// The file name from a save dialog with the extension of the chosen filter when it has none.
QString withExtension(QString path, const QString& filter) {
    if (!QFileInfo(path).suffix().isEmpty()) return path;
    const qsizetype star = filter.indexOf(QLatin1String("*."));
    return star < 0 ? path : path + filter.mid(star + 1, filter.indexOf(QLatin1Char(')'), star) - star - 1);
}

} // namespace

ResultsView::ResultsView(QWidget* parent)
    : QWidget(parent), message_(new QLabel(this)), stale_(new QLabel(this)), placeholder_(new QLabel(this)),
      tabs_(new QTabWidget(this)) {
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->hide();
    stale_->setObjectName(QStringLiteral("staleResults"));
    stale_->setWordWrap(true);
    setBanner(stale_, Banner::Failed, 4);
    stale_->hide();
    placeholder_->setText(tr("Run a kernel to see its outputs here."));
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setEnabled(false);
    tabs_->setDocumentMode(true);
    // One output needs no tab: its name heads its pane (OutputPane), and on a laptop the tab bar's line
    // is what kept the table's first row out of view under 30 lines of code.
    tabs_->setTabBarAutoHide(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(stale_);
    layout->addWidget(message_);
    layout->addWidget(placeholder_, 1);
    layout->addWidget(tabs_, 1);
    clear();
}

void ResultsView::clear() {
    while (tabs_->count() > 0) {
        QWidget* tab = tabs_->widget(0);
        tabs_->removeTab(0);
        delete tab;
    }
    tabs_->hide();
    placeholder_->show();
    message_->hide();
    stale_->hide();
}

void ResultsView::takeOver(ResultsView& other) {
    clear();
    while (other.tabs_->count() > 0) {
        auto* pane = qobject_cast<OutputPane*>(other.tabs_->widget(0));
        const QString title = other.tabs_->tabText(0);
        const QString tip = other.tabs_->tabToolTip(0);
        const QColor colour = other.tabs_->tabBar()->tabTextColor(0);
        other.tabs_->removeTab(0);
        if (!pane) continue;
        pane->disconnect(&other); // its save buttons spoke to the other view
        connect(pane, &OutputPane::saveArrayRequested, this, [this, title] { saveArrayAs(title); });
        connect(pane, &OutputPane::savePlotRequested, this, [this, title] { savePlotAs(title); });
        const int tab = tabs_->addTab(pane, title);
        tabs_->setTabToolTip(tab, tip);
        tabs_->tabBar()->setTabTextColor(tab, colour);
    }
    other.clear();
    placeholder_->setVisible(tabs_->count() == 0);
    tabs_->setVisible(tabs_->count() > 0);
}

void ResultsView::markStale(const QString& why) {
    if (tabs_->count() == 0) return;
    stale_->setText(tr("These outputs are from an earlier run: %1").arg(why));
    stale_->show();
}

// The arrays are moved from, through structured bindings, which clang-tidy 14 does not follow.
void ResultsView::showRun(kp::launch::NamedArrays outputs,   // NOLINT(performance-unnecessary-value-param)
                          kp::launch::NamedArrays reference, // NOLINT(performance-unnecessary-value-param)
                          const kp::model::CheckSpec& check, const nlohmann::json& report) {
    clear();
    for (auto& [name, array] : outputs) {
        const bool vectorType = kp::model::components(array.dtype()) > 1;
        const std::size_t values = array.size() * std::size_t(kp::model::components(array.dtype()));
        const CheckSummary summary = CheckSummary::of(report, name, values, vectorType);
        auto shown = std::make_shared<const kp::model::Array>(std::move(array));
        std::shared_ptr<const kp::model::Array> expected;
        const auto tolerance = kp::run::toleranceFor(check, shown->dtype());
        const auto unordered = check.unordered.find(name);
        if (wasChecked(report, name))
            for (auto& [referenceName, referenceArray] : reference)
                if (referenceName == name && !referenceArray.shape().empty())
                    // An unordered output meets the value it was matched with, so that the cells and
                    // points marked are the ones the check counted.
                    expected = std::make_shared<const kp::model::Array>(
                        unordered == check.unordered.end()
                            ? std::move(referenceArray)
                            : kp::run::arrangeLike(unordered->second, name, *shown, referenceArray,
                                                   tolerance));
        const QString title = QString::fromStdString(name);
        auto* pane = new OutputPane(title, shown, expected, tolerance, summary);
        connect(pane, &OutputPane::saveArrayRequested, this, [this, title] { saveArrayAs(title); });
        connect(pane, &OutputPane::savePlotRequested, this, [this, title] { savePlotAs(title); });
        const int tab = tabs_->addTab(pane, title);
        tabs_->setTabToolTip(tab, summary.text);
        if (summary.state == CheckSummary::State::Failed)
            tabs_->tabBar()->setTabTextColor(tab, colorsOf(currentAppearance()).error);
    }
    placeholder_->setVisible(tabs_->count() == 0);
    tabs_->setVisible(tabs_->count() > 0);
}

int ResultsView::outputCount() const {
    return tabs_->count();
}

OutputPane* ResultsView::pane(const QString& output) const {
    for (int i = 0; i < tabs_->count(); ++i)
        if (auto* p = qobject_cast<OutputPane*>(tabs_->widget(i)); p && p->name() == output) return p;
    return nullptr;
}

QTableView* ResultsView::table(const QString& output) const {
    const OutputPane* p = pane(output);
    return p ? p->table() : nullptr;
}

ArrayPlot* ResultsView::plot(const QString& output) const {
    const OutputPane* p = pane(output);
    return p ? p->plot() : nullptr;
}

bool ResultsView::report(bool ok, const QString& text, QString* error) {
    message_->setText(text);
    setBanner(message_, ok ? Banner::Plain : Banner::Failed);
    message_->show();
    if (!ok && error) *error = text;
    return ok;
}

bool ResultsView::exportArray(const QString& output, const QString& path, QString* error) {
    const OutputPane* p = pane(output);
    if (!p)
        return report(
            false, tr("Could not save '%1' to %2: there is no output of that name").arg(output, path), error);
    QApplication::setOverrideCursor(Qt::WaitCursor); // a CSV of 100M values takes a while
    try {
        p->saveArray(path);
    } catch (const std::exception& e) {
        QApplication::restoreOverrideCursor();
        return report(
            false, tr("Could not save '%1' to %2: %3").arg(output, path, QString::fromUtf8(e.what())), error);
    }
    QApplication::restoreOverrideCursor();
    return report(true, tr("Saved '%1' to %2").arg(output, path), error);
}

bool ResultsView::exportPlot(const QString& output, const QString& path, QString* error) {
    const OutputPane* p = pane(output);
    if (!p)
        return report(
            false,
            tr("Could not save the plot of '%1' to %2: there is no output of that name").arg(output, path),
            error);
    try {
        p->savePlot(path);
    } catch (const std::exception& e) {
        return report(
            false,
            tr("Could not save the plot of '%1' to %2: %3").arg(output, path, QString::fromUtf8(e.what())),
            error);
    }
    return report(true, tr("Saved the plot of '%1' to %2").arg(output, path), error);
}

void ResultsView::saveArrayAs(const QString& output) {
    QString filter;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save %1").arg(output), output + QStringLiteral(".npy"),
                                     tr("NumPy array (*.npy);;Comma-separated values (*.csv)"), &filter);
    if (!path.isEmpty()) exportArray(output, withExtension(path, filter));
}

void ResultsView::savePlotAs(const QString& output) {
    QString filter;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save the plot of %1").arg(output), output + QStringLiteral(".png"),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"), &filter);
    if (!path.isEmpty()) exportPlot(output, withExtension(path, filter));
}
