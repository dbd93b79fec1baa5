#include "ArgumentPanel.h"

#include "core/model/ArgumentFit.h"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

using namespace kp::model;

namespace {

// Parameters alike for the panel: same names, kinds and declared types in the same order.
bool sameParameters(const std::vector<Parameter>& a, const std::vector<Parameter>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Parameter& x, const Parameter& y) {
        return x.name == y.name && x.typeText == y.typeText && x.pointer == y.pointer;
    });
}

} // namespace

ArgumentPanel::ArgumentPanel(QWidget* parent) : QWidget(parent) {
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* inner = new QWidget(scroll);
    list_ = new QVBoxLayout(inner);
    status_ = new QLabel(tr("No kernel yet."), inner);
    status_->setWordWrap(true);
    list_->addWidget(status_);
    list_->addStretch(1);
    scroll->setWidget(inner);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
}

void ArgumentPanel::setKernel(const KernelSignature& kernel, const std::vector<ArgumentSpec>& current,
                              const std::filesystem::path& folder) {
    // Given arguments (a playground opened) always show; otherwise an unchanged signature keeps the editors.
    if (current.empty() && !editors_.empty() && sameParameters(kernel.parameters, parameters_) &&
        status_->isHidden())
        return;
    const auto fitted = fitArguments(kernel, current.empty() ? arguments() : current);
    for (auto* editor : editors_)
        editor->deleteLater();
    editors_.clear();
    parameters_ = kernel.parameters;
    status_->setVisible(kernel.parameters.empty());
    status_->setText(tr("The kernel %1 takes no arguments.").arg(QString::fromStdString(kernel.name)));
    QStringList arrays;
    for (const auto& arg : fitted)
        if (arg.isArray()) arrays << QString::fromStdString(arg.name);
    for (std::size_t i = 0; i < fitted.size(); ++i) {
        auto* editor = new ArgumentEditor(fitted[i], kernel.parameters[i], folder, this);
        editor->setArrayNames(arrays);
        list_->insertWidget(list_->count() - 1, editor);
        editors_.push_back(editor);
        connect(editor, &ArgumentEditor::changed, this, &ArgumentPanel::argumentsChanged);
    }
    kept_.clear();
}

void ArgumentPanel::setUnavailable(const QString& why) {
    if (!editors_.empty()) kept_ = arguments();
    for (auto* editor : editors_)
        editor->setEnabled(false);
    status_->setText(why);
    status_->show();
}

std::vector<ArgumentSpec> ArgumentPanel::arguments() const {
    if (!kept_.empty()) return kept_;
    std::vector<ArgumentSpec> args;
    for (const auto* editor : editors_)
        args.push_back(editor->spec());
    return args;
}

std::vector<std::pair<QString, kp::model::Shape>> ArgumentPanel::arrayShapes() const {
    std::vector<std::pair<QString, kp::model::Shape>> shapes;
    for (const auto& arg : arguments())
        if (arg.isArray()) shapes.emplace_back(QString::fromStdString(arg.name), arg.array().shape);
    return shapes;
}

QStringList ArgumentPanel::problems() const {
    QStringList list;
    for (std::size_t i = 0; i < editors_.size(); ++i)
        for (const QString& problem : editors_[i]->problems())
            list << QStringLiteral("args[%1] %2: %3")
                        .arg(i)
                        .arg(QString::fromStdString(editors_[i]->spec().name), problem);
    return list;
}

ArgumentEditor* ArgumentPanel::editorFor(const QString& name) const {
    for (auto* editor : editors_)
        if (QString::fromStdString(editor->spec().name) == name) return editor;
    return nullptr;
}
