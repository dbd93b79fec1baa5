#include "SweepView.h"

#include "PlaygroundDocument.h"
#include "RunController.h"
#include "core/Error.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>
#include <cstdlib>

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

// "1 measurement", "12 measurements": a sweep's rows, one for each point on each backend.
QString measurements(std::size_t count) {
    return count == 1 ? SweepView::tr("1 measurement")
                      : SweepView::tr("%L1 measurements").arg(static_cast<qulonglong>(count));
}

// "1000", "1,000,000", "1e6", "10k", "2.5M": what people type for a size. NaN when it is not a number.
double parseCount(QString typed) {
    typed.remove(QLatin1Char(',')).remove(QLatin1Char('_')).remove(QLatin1Char(' '));
    double scale = 1;
    if (!typed.isEmpty()) {
        const QChar last = typed.back().toLower();
        if (last == QLatin1Char('k'))
            scale = 1e3;
        else if (last == QLatin1Char('m'))
            scale = 1e6;
        else if (last == QLatin1Char('g'))
            scale = 1e9;
        if (scale != 1) typed.chop(1);
    }
    bool ok = false;
    const double value = typed.toDouble(&ok);
    return ok ? value * scale : std::nan("");
}

} // namespace

SweepView::SweepView(QWidget* parent) : QWidget(parent) {
    parameter_ = new QComboBox;
    parameter_->addItem(tr("Problem size (elements)"), QStringLiteral("size"));
    parameter_->addItem(tr("Block size (blockDim.x)"), QStringLiteral("block"));
    scale_ = new QComboBox;
    scale_->addItem(tr("Log steps"), QStringLiteral("log"));
    scale_->addItem(tr("Linear steps"), QStringLiteral("linear"));
    from_ = new QLineEdit;
    to_ = new QLineEdit;
    for (auto* edit : {from_, to_})
        edit->setToolTip(tr("A whole number: 1000, 1,000,000, 1e6, 10k or 2.5M"));
    steps_ = new QSpinBox;
    steps_->setRange(2, 1000);
    repeat_ = new QSpinBox;
    repeat_->setRange(1, 1000);
    repeat_->setToolTip(tr("Timed runs per point and backend; the plots show their median and spread"));
    flops_ = new QLineEdit;
    flops_->setPlaceholderText(tr("e.g. n, or 2*n^1.5"));
    flops_->setToolTip(
        tr("Floating-point operations of one launch as a formula of n, the swept array's elements: "
           "what places the kernel on the roofline"));
    backends_ = new QListWidget;
    backends_->setMaximumHeight(110);
    run_ = new QPushButton(tr("Run Sweep"));
    exportPicture_ = new QPushButton(tr("Export Plot..."));
    exportCsv_ = new QPushButton(tr("Export CSV..."));
    progress_ = new QProgressBar;
    progress_->setTextVisible(true);
    progress_->setFormat(tr("%v of %m"));
    progress_->hide();
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    form->addRow(tr("Sweep"), parameter_);
    form->addRow(tr("From"), from_);
    form->addRow(tr("To"), to_);
    form->addRow(tr("Points"), steps_);
    form->addRow(tr("Steps"), scale_);
    form->addRow(tr("Repeats"), repeat_);
    form->addRow(tr("FLOPs"), flops_);
    auto* settings = new QVBoxLayout;
    settings->addLayout(form);
    settings->addWidget(new QLabel(tr("Backends")));
    settings->addWidget(backends_);
    settings->addWidget(run_);
    settings->addWidget(progress_);
    settings->addWidget(status_);
    settings->addStretch();
    auto* exports = new QHBoxLayout;
    exports->addWidget(exportPicture_);
    exports->addWidget(exportCsv_);
    settings->addLayout(exports);
    auto* left = new QWidget;
    left->setLayout(settings);
    left->setMaximumWidth(300);
    left->setMinimumWidth(230);

    plots_ = new SweepPlots;
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(left);
    layout->addWidget(plots_, 1);

    connect(run_, &QPushButton::clicked, this,
            [this] { running_ ? emit stopRequested() : emit runRequested(); });
    connect(exportPicture_, &QPushButton::clicked, this, &SweepView::exportPicture);
    connect(exportCsv_, &QPushButton::clicked, this, &SweepView::exportCsv);
    connect(parameter_, &QComboBox::currentIndexChanged, this, &SweepView::parameterChanged);
    const auto changed = [this] {
        if (!loading_) emit settingsChanged();
    };
    for (auto* edit : {from_, to_, flops_})
        connect(edit, &QLineEdit::textEdited, this, changed);
    for (auto* spin : {steps_, repeat_})
        connect(spin, &QSpinBox::valueChanged, this, changed);
    connect(scale_, &QComboBox::currentIndexChanged, this, changed);
    connect(backends_, &QListWidget::itemChanged, this, changed);

    setSpec(kp::run::SweepSpec{});
    clearResult();
}

void SweepView::setBackends(const std::vector<std::pair<std::string, QString>>& backends,
                            const std::vector<std::string>& checked) {
    loading_ = true;
    backends_->clear();
    for (const auto& [id, label] : backends) {
        auto* item = new QListWidgetItem(label, backends_);
        item->setData(Qt::UserRole, text(id));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(std::find(checked.begin(), checked.end(), id) != checked.end() ? Qt::Checked
                                                                                           : Qt::Unchecked);
    }
    loading_ = false;
}

std::vector<std::string> SweepView::checkedBackends() const {
    std::vector<std::string> out;
    for (int i = 0; i < backends_->count(); ++i)
        if (backends_->item(i)->checkState() == Qt::Checked)
            out.push_back(backends_->item(i)->data(Qt::UserRole).toString().toStdString());
    return out;
}

void SweepView::setSpec(const kp::run::SweepSpec& spec) {
    loading_ = true;
    parameter_->setCurrentIndex(spec.parameter == kp::run::SweepParameter::BlockSize ? 1 : 0);
    scale_->setCurrentIndex(spec.scale == kp::run::SweepScale::Linear ? 1 : 0);
    if (!spec.values.empty()) {
        // The fields hold a range: the values' ends, as many points as there were values.
        from_->setText(QString::number(*std::min_element(spec.values.begin(), spec.values.end()), 'f', 0));
        to_->setText(QString::number(*std::max_element(spec.values.begin(), spec.values.end()), 'f', 0));
        steps_->setValue(std::max(2, static_cast<int>(spec.values.size())));
    } else {
        from_->setText(QString::number(spec.from, 'f', 0));
        to_->setText(QString::number(spec.to, 'f', 0));
        steps_->setValue(spec.steps);
    }
    repeat_->setValue(spec.repeat);
    flops_->setText(text(spec.flops));
    array_ = spec.array;
    warmup_ = spec.warmup;
    if (!spec.backends.empty())
        for (int i = 0; i < backends_->count(); ++i) {
            const auto id = backends_->item(i)->data(Qt::UserRole).toString().toStdString();
            backends_->item(i)->setCheckState(std::find(spec.backends.begin(), spec.backends.end(), id) !=
                                                      spec.backends.end()
                                                  ? Qt::Checked
                                                  : Qt::Unchecked);
        }
    loading_ = false;
}

std::optional<kp::run::SweepSpec> SweepView::spec(QString* error) const {
    const auto fail = [&](const QString& why) -> std::optional<kp::run::SweepSpec> {
        if (error) *error = why;
        return std::nullopt;
    };
    kp::run::SweepSpec spec;
    spec.parameter = parameter_->currentIndex() == 1 ? kp::run::SweepParameter::BlockSize
                                                     : kp::run::SweepParameter::ProblemSize;
    spec.scale = scale_->currentIndex() == 1 ? kp::run::SweepScale::Linear : kp::run::SweepScale::Log;
    spec.from = parseCount(from_->text());
    spec.to = parseCount(to_->text());
    if (std::isnan(spec.from))
        return fail(tr("From: \"%1\" is not a number (write 1000, 1e6 or 10k)").arg(from_->text()));
    if (std::isnan(spec.to))
        return fail(tr("To: \"%1\" is not a number (write 1000, 1e6 or 10k)").arg(to_->text()));
    spec.steps = steps_->value();
    spec.repeat = repeat_->value();
    spec.warmup = warmup_;
    spec.flops = flops_->text().trimmed().toStdString();
    spec.array = spec.parameter == kp::run::SweepParameter::ProblemSize ? array_ : std::string();
    spec.backends = checkedBackends();
    if (spec.backends.empty()) return fail(tr("Backends: tick at least one"));
    try {
        (void)kp::run::sweepValues(spec);
        if (!spec.flops.empty()) (void)kp::run::evaluateFlops(spec.flops, 1000);
    } catch (const kp::InputError& e) {
        // The core names JSON members ("sweep.to"); here they are the fields' labels.
        QString why = QString::fromUtf8(e.what());
        why.replace(QStringLiteral("sweep.from"), tr("From")).replace(QStringLiteral("sweep.to"), tr("To"));
        why.replace(QStringLiteral("sweep.steps"), tr("Points"))
            .replace(QStringLiteral("sweep.flops"), tr("FLOPs"));
        return fail(why);
    }
    return spec;
}

void SweepView::parameterChanged() {
    if (loading_) return;
    // Another parameter: a range that fits it.
    loading_ = true;
    const bool block = parameter_->currentIndex() == 1;
    from_->setText(block ? QStringLiteral("32") : QStringLiteral("1000"));
    to_->setText(block ? QStringLiteral("1024") : QStringLiteral("10000000"));
    steps_->setValue(block ? 6 : 9);
    scale_->setCurrentIndex(0);
    loading_ = false;
    emit settingsChanged();
}

void SweepView::begin(const kp::run::SweepResult& header, std::size_t total) {
    result_ = header;
    result_.rows.clear();
    plots_->setResult(result_);
    progress_->setRange(0, static_cast<int>(total));
    progress_->setValue(0);
    progress_->show();
    showStatus(total == 1 ? tr("Sweeping: 1 measurement...")
                          : tr("Sweeping: %L1 measurements (every point on every backend)...")
                                .arg(static_cast<qulonglong>(total)));
}

void SweepView::addRow(const kp::run::SweepRow& row, std::size_t done, std::size_t total) {
    result_.rows.push_back(row);
    progress_->setRange(0, static_cast<int>(total));
    progress_->setValue(static_cast<int>(done));
    plots_->setResult(result_);
    QString line = tr("%1 at %2: ").arg(text(row.backend), text(kp::run::formatCount(result_.x(row))));
    if (row.ran())
        line += text(kp::run::formatDuration(row.kernel().median));
    else
        line += text(row.error);
    showStatus(line);
}

void SweepView::finish(const kp::run::SweepResult& result, const QString& message) {
    result_ = result;
    plots_->setResult(result_);
    progress_->hide();
    if (!message.isEmpty()) {
        showStatus(message);
        return;
    }
    int failed = 0;
    for (const auto& row : result_.rows)
        if (!row.error.empty() || row.check.starts_with("failed")) ++failed;
    QString summary = measurements(result_.rows.size());
    if (failed)
        summary += tr(", %1 failed or did not run (see the CSV's error and check columns)").arg(failed);
    for (const auto& note : result_.notes)
        summary += QLatin1Char('\n') + text(note);
    showStatus(summary);
}

void SweepView::cutShort(const QString& message) {
    auto partial = result_;
    partial.cancelled = !partial.rows.empty();
    finish(partial, message);
}

void SweepView::follow(RunController* runs, PlaygroundDocument* document) {
    const auto store = [this, document] {
        QString error;
        const auto settings = spec(&error);
        if (!settings) return; // said when a sweep is started; the file keeps the last good settings
        document->storeSweep(*settings, result().rows.empty() ? nullptr : &result());
    };
    connect(this, &SweepView::settingsChanged, document, store);
    connect(runs, &RunController::sweepStarted, this, &SweepView::begin);
    connect(runs, &RunController::sweepingChanged, this, &SweepView::setRunning);
    connect(runs, &RunController::sweepRow, this, &SweepView::addRow);
    connect(runs, &RunController::sweepMeasured, this, [this](const auto& measured) { finish(measured); });
    connect(runs, &RunController::sweepCutShort, this, &SweepView::cutShort);
    // The settings and the rows measured are kept with the playground.
    connect(runs, &RunController::sweepFinished, document, [this, store] {
        if (!result().rows.empty()) store();
    });
}

QString SweepView::showStored(const kp::model::Playground& playground, const QComboBox& chooser) {
    // Ticked at first: the devices, all cores and the reference.
    std::vector<std::pair<std::string, QString>> offered;
    std::vector<std::string> ticked;
    for (int i = 0; i < chooser.count(); ++i) {
        const QString id = chooser.itemData(i).toString();
        if (!id.startsWith(QStringLiteral("cuda:"))) continue;
        offered.emplace_back(id.toStdString(), chooser.itemText(i));
        ticked.push_back(id.toStdString());
    }
    offered.emplace_back("cpu", tr("CPU backend, all cores"));
    offered.emplace_back("cpu:1", tr("CPU backend, one core"));
    ticked.push_back("cpu");
    if (playground.reference) {
        offered.emplace_back("reference", tr("C++ reference"));
        ticked.push_back("reference");
    }
    setBackends(offered, ticked);
    try {
        setSpec(kp::run::storedSweepSpec(playground).value_or(kp::run::SweepSpec{}));
        if (const auto stored = kp::run::storedSweepResult(playground))
            showResult(*stored);
        else
            clearResult();
    } catch (const kp::InputError& e) {
        // A hand-edited "sweep" that does not read: the defaults shown; the file keeps it until the
        // settings are changed here.
        setSpec(kp::run::SweepSpec{});
        clearResult();
        return QString::fromUtf8(e.what());
    }
    return {};
}

kp::run::SweepResult SweepView::header(const kp::run::SweepSpec& spec) const {
    kp::run::SweepResult header;
    header.spec = spec;
    for (int i = 0; i < backends_->count(); ++i) {
        const auto* item = backends_->item(i);
        const auto id = item->data(Qt::UserRole).toString().toStdString();
        if (std::find(spec.backends.begin(), spec.backends.end(), id) != spec.backends.end())
            header.backends.push_back({id, item->text().toStdString(), {}});
    }
    return header;
}

QString SweepView::fromText() const {
    return from_->text();
}
QString SweepView::toText() const {
    return to_->text();
}

void SweepView::setRunning(bool running) {
    running_ = running;
    run_->setText(running ? tr("Stop Sweep") : tr("Run Sweep"));
    for (QWidget* w :
         std::initializer_list<QWidget*>{parameter_, scale_, from_, to_, steps_, repeat_, flops_, backends_})
        w->setEnabled(!running);
    if (!running) progress_->hide();
}

void SweepView::showResult(const kp::run::SweepResult& result) {
    result_ = result;
    plots_->setResult(result_);
    showStatus(result_.cancelled
                   ? tr("The sweep saved with this playground was stopped before its end: %1")
                         .arg(measurements(result_.rows.size()))
                   : tr("The sweep saved with this playground: %1").arg(measurements(result_.rows.size())));
}

void SweepView::clearResult() {
    result_ = {};
    plots_->clear();
    showStatus(tr(
        "Choose a range and the backends, then Run Sweep: the same kernel at every size, on each backend."));
}

QString SweepView::statusText() const {
    return status_->text();
}

void SweepView::showStatus(const QString& line) {
    status_->setText(line);
}

void SweepView::exportPicture() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Plot"), QStringLiteral("sweep.png"),
                                                      tr("Pictures (*.png *.svg *.pdf)"));
    if (path.isEmpty()) return;
    QString error;
    showStatus(plots_->exportPlot(path, &error) ? tr("Exported %1").arg(path) : error);
}

void SweepView::exportCsv() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export CSV"), QStringLiteral("sweep.csv"), tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    showStatus(plots_->exportCsv(path, &error) ? tr("Exported %1").arg(path) : error);
}
