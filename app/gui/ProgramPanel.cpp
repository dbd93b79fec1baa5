#include "ProgramPanel.h"

#include "Appearance.h"
#include "StudentWords.h"
#include "core/Lines.h"
#include "core/model/DType.h"
#include "core/model/SignatureParser.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace kp::model;

namespace {

constexpr int kSectionRole = Qt::UserRole;
constexpr int kIndexRole = Qt::UserRole + 1;

QString fromUtf8(const std::string& text) {
    return QString::fromStdString(text);
}

// "a, f(b, c), d" -> {"a", "f(b, c)", "d"}: what a field holds, the empty pieces left out.
std::vector<std::string> splitList(const std::string& text) {
    auto pieces = splitTopLevel(text);
    std::erase_if(pieces, [](const std::string& piece) { return piece.empty(); });
    return pieces;
}

// "m = divup(m, 512); k = 2" <-> the pairs of a set step or of the program's variables.
std::vector<std::pair<std::string, std::string>> assignmentsOf(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto end = std::min(text.find(';', start), text.size());
        const std::string part = text.substr(start, end - start);
        const auto equals = part.find('=');
        if (equals != std::string::npos) {
            const auto name = splitList(part.substr(0, equals));
            const auto value = splitList(part.substr(equals + 1));
            if (!name.empty())
                out.emplace_back(name.front(), value.empty() ? std::string() : kp::join(value, ", "));
        }
        start = end + 1;
    }
    return out;
}

std::string assignmentsText(const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::string text;
    for (const auto& [name, value] : pairs)
        text += (text.empty() ? "" : "; ") + name + " = " + value;
    return text;
}

QString bufferText(const BufferSpec& buffer) {
    if (buffer.isView())
        return QObject::tr("%1: view of %2 from %3%4")
            .arg(fromUtf8(buffer.name), fromUtf8(buffer.of), fromUtf8(buffer.offset),
                 buffer.length.empty() ? QString()
                                       : QObject::tr(", %1 elements").arg(fromUtf8(buffer.length)));
    return QStringLiteral("%1: %2[%3]")
        .arg(fromUtf8(buffer.name), QString::fromUtf8(name(buffer.dtype).data()),
             fromUtf8(kp::join(buffer.shape, ", ")));
}

QString stepText(const Step& step) {
    return fromUtf8(step.title.empty() ? describe(step) : step.title);
}

QList<QVariant> pathVariant(const StepPath& path) {
    QList<QVariant> list;
    for (const auto i : path)
        list << QVariant::fromValue(static_cast<qulonglong>(i));
    return list;
}

StepPath pathOf(const QVariant& value) {
    StepPath path;
    for (const auto& i : value.toList())
        path.push_back(static_cast<std::size_t>(i.toULongLong()));
    return path;
}

} // namespace

ProgramPanel::ProgramPanel(QWidget* parent)
    : QWidget(parent), tree_(new QTreeWidget(this)), add_(new QToolButton(this)),
      duplicate_(new QPushButton(tr("Duplicate"), this)), remove_(new QPushButton(tr("Delete"), this)),
      up_(new QPushButton(tr("Up"), this)), down_(new QPushButton(tr("Down"), this)),
      problems_(new QLabel(this)), offer_(new QWidget(this)),
      makeProgram_(new QPushButton(tr("Make it a program"), this)), pages_(new QStackedWidget(this)) {
    tree_->setObjectName(QStringLiteral("stepTree"));
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Step"), tr("Runs")});
    tree_->header()->setStretchLastSection(false);
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    tree_->setMinimumHeight(120);
    connect(tree_, &QTreeWidget::currentItemChanged, this, &ProgramPanel::showSelected);

    add_->setText(tr("Add"));
    add_->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(add_);
    const auto addAction = [&](const QString& text, StepKind kind) {
        menu->addAction(text, this, [this, kind] { addStep(kind); });
    };
    addAction(tr("&Launch a kernel"), StepKind::Launch);
    addAction(tr("&Copy between buffers"), StepKind::Copy);
    addAction(tr("&Fill a buffer"), StepKind::Fill);
    addAction(tr("S&wap two buffers"), StepKind::Swap);
    addAction(tr("Write a __constant__ or __device__ s&ymbol"), StepKind::Symbol);
    addAction(tr("Set &variables"), StepKind::Set);
    addAction(tr("&Repeat steps"), StepKind::Repeat);
    menu->addSeparator();
    menu->addAction(tr("Scratch &buffer"), this, [this] { addBuffer(false); });
    menu->addAction(tr("Vi&ew of a buffer"), this, [this] { addBuffer(true); });
    add_->setMenu(menu);
    up_->setToolTip(
        tr("Move the step up; at the top of a loop it leaves the loop, under a loop it enters it"));
    down_->setToolTip(
        tr("Move the step down; at the end of a loop it leaves the loop, above a loop it enters it"));
    connect(duplicate_, &QPushButton::clicked, this, &ProgramPanel::duplicateSelected);
    connect(remove_, &QPushButton::clicked, this, &ProgramPanel::removeSelected);
    connect(up_, &QPushButton::clicked, this, [this] { moveSelected(true); });
    connect(down_, &QPushButton::clicked, this, [this] { moveSelected(false); });

    auto* buttons = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{add_, duplicate_, remove_, up_, down_})
        buttons->addWidget(w);
    buttons->addStretch();

    problems_->setWordWrap(true);
    problems_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problems_->hide();

    auto* formScroll = new QScrollArea(this);
    formScroll->setObjectName(QStringLiteral("stepFormScroll"));
    formScroll->setWidgetResizable(true);
    formScroll->setFrameShape(QFrame::NoFrame);
    form_ = new QWidget(formScroll);
    formLayout_ = new QFormLayout(form_);
    formScroll->setWidget(form_);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(tree_);
    split->addWidget(formScroll);
    split->setSizes({220, 260});

    auto* programPage = new QWidget(this);
    auto* programLayout = new QVBoxLayout(programPage);
    programLayout->setContentsMargins(0, 0, 0, 0);
    programLayout->addLayout(buttons);
    programLayout->addWidget(split, 1);
    programLayout->addWidget(problems_);

    auto* offerText =
        new QLabel(tr("This playground launches one kernel once. A program launches kernels in steps, with "
                      "scratch buffers, "
                      "copies, loops and constant memory, as a notebook's host code does around its "
                      "launches: a reduction "
                      "in passes, a scan of the partial sums, a stencil repeated over two swapped buffers."),
                   offer_);
    offerText->setWordWrap(true);
    auto* offerLayout = new QVBoxLayout(offer_);
    offerLayout->addWidget(offerText);
    offerLayout->addWidget(makeProgram_, 0, Qt::AlignLeft);
    offerLayout->addStretch();
    makeProgram_->setToolTip(
        tr("The launch becomes the program's first step; the arguments stay as they are"));
    connect(makeProgram_, &QPushButton::clicked, this, &ProgramPanel::makeProgramRequested);

    pages_->addWidget(offer_);
    pages_->addWidget(programPage);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(pages_);
    rebuild();
}

void ProgramPanel::setPlayground(const Playground& playground) {
    steps_ = playground.steps;
    variables_ = playground.variables;
    buffers_ = playground.buffers;
    arguments_ = playground.args;
    problemList_.clear();
    calls_.clear();
    rebuild(steps_.empty() ? std::nullopt : std::optional<StepPath>(StepPath{0}));
}

QString ProgramPanel::variablesText() const {
    return variables_.empty() ? tr("Variables (none)")
                              : tr("Variables: %1").arg(fromUtf8(assignmentsText(variables_)));
}

void ProgramPanel::setKernels(std::vector<KernelSignature> kernels) {
    if (kernels == kernels_) return;
    kernels_ = std::move(kernels);
    // A launch's form names its kernel's parameters: shown again, unless the student is typing in it.
    const auto* item = tree_->currentItem();
    const bool launch = item && item->data(0, kSectionRole).toInt() == static_cast<int>(Section::Step) &&
                        kernelOf(pathOf(item->data(0, kIndexRole)));
    if (launch && !form_->isAncestorOf(QApplication::focusWidget())) showSelected();
}

// The launch step at `path`, or nullptr.
const LaunchStep* ProgramPanel::kernelOf(const StepPath& path) const {
    const Step* step = stepAt(steps_, path);
    return step ? std::get_if<LaunchStep>(&step->action) : nullptr;
}

const KernelSignature* ProgramPanel::kernelNamed(const std::string& name) const {
    const std::string base = name.substr(0, name.find('<'));
    for (const auto& kernel : kernels_)
        if (kernel.name == base) return &kernel;
    return nullptr;
}

void ProgramPanel::addSteps(QTreeWidgetItem* parent, const std::vector<Step>& steps, StepPath path) {
    path.push_back(0);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        path.back() = i;
        auto* item = new QTreeWidgetItem(parent, {stepText(steps[i]), QString()});
        item->setData(0, kSectionRole, static_cast<int>(Section::Step));
        item->setData(0, kIndexRole, pathVariant(path));
        item->setToolTip(0, fromUtf8(jsonPath(path) + ": " + describe(steps[i])));
        if (const auto* loop = std::get_if<RepeatStep>(&steps[i].action)) addSteps(item, loop->steps, path);
    }
}

void ProgramPanel::rebuild(const std::optional<StepPath>& select) {
    pages_->setCurrentIndex(steps_.empty() ? 0 : 1);
    const QSignalBlocker quiet(tree_);
    tree_->clear();
    auto* variables = new QTreeWidgetItem(tree_, {variablesText(), QString()});
    variables->setData(0, kSectionRole, static_cast<int>(Section::Variables));
    auto* buffers = new QTreeWidgetItem(tree_, {tr("Buffers"), QString()});
    buffers->setData(0, kSectionRole, static_cast<int>(Section::Buffers));
    for (std::size_t i = 0; i < buffers_.size(); ++i) {
        auto* item = new QTreeWidgetItem(buffers, {bufferText(buffers_[i]), QString()});
        item->setData(0, kSectionRole, static_cast<int>(Section::Buffer));
        item->setData(0, kIndexRole, QVariant::fromValue(static_cast<qulonglong>(i)));
    }
    auto* steps = new QTreeWidgetItem(tree_, {tr("Steps"), QString()});
    steps->setData(0, kSectionRole, static_cast<int>(Section::Steps));
    addSteps(steps, steps_, {});
    tree_->expandAll();
    markProblems();
    QTreeWidgetItem* current = select ? itemFor(*select) : nullptr;
    tree_->setCurrentItem(current ? current : steps);
    showSelected();
}

QTreeWidgetItem* ProgramPanel::itemFor(const StepPath& path) const {
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if ((*it)->data(0, kSectionRole).toInt() == static_cast<int>(Section::Step) &&
            pathOf((*it)->data(0, kIndexRole)) == path)
            return *it;
    return nullptr;
}

std::optional<StepPath> ProgramPanel::selectedPath() const {
    const auto* item = tree_->currentItem();
    if (!item || item->data(0, kSectionRole).toInt() != static_cast<int>(Section::Step)) return std::nullopt;
    return pathOf(item->data(0, kIndexRole));
}

void ProgramPanel::select(const StepPath& path) {
    if (auto* item = itemFor(path)) tree_->setCurrentItem(item);
}

QLineEdit* ProgramPanel::field(const QString& name) const {
    return form_->findChild<QLineEdit*>(name);
}

QLineEdit* ProgramPanel::addField(const QString& label, const QString& name, const std::string& value,
                                  std::function<void(const std::string&)> apply) {
    auto* edit = new QLineEdit(fromUtf8(value), form_);
    edit->setObjectName(name);
    connect(edit, &QLineEdit::textEdited, this, [this, apply = std::move(apply)](const QString& text) {
        apply(text.toStdString());
        edited();
    });
    formLayout_->addRow(label, edit);
    return edit;
}

void ProgramPanel::edited() {
    // The selected item's words follow its fields; the rest of the tree stays as it is while typing.
    if (auto* item = tree_->currentItem()) {
        const auto section = static_cast<Section>(item->data(0, kSectionRole).toInt());
        if (section == Section::Step)
            if (const Step* step = stepAt(steps_, pathOf(item->data(0, kIndexRole))))
                item->setText(0, stepText(*step));
        if (section == Section::Buffer)
            item->setText(
                0, bufferText(buffers_[static_cast<std::size_t>(item->data(0, kIndexRole).toULongLong())]));
        if (section == Section::Variables) item->setText(0, variablesText());
    }
    emit programChanged();
}

void ProgramPanel::showSelected() {
    // A new form for the selection; the old one goes with its fields.
    while (formLayout_->rowCount() > 0)
        formLayout_->removeRow(0);
    const auto* item = tree_->currentItem();
    const auto section = item ? static_cast<Section>(item->data(0, kSectionRole).toInt()) : Section::Steps;
    const bool step = section == Section::Step;
    duplicate_->setEnabled(step || section == Section::Buffer);
    remove_->setEnabled(step || section == Section::Buffer);
    up_->setEnabled(step);
    down_->setEnabled(step);
    if (step) {
        if (Step* s = stepAt(steps_, pathOf(item->data(0, kIndexRole)))) showStepForm(*s);
        return;
    }
    if (section == Section::Buffer) {
        showBufferForm(buffers_[static_cast<std::size_t>(item->data(0, kIndexRole).toULongLong())]);
        return;
    }
    if (section == Section::Variables) {
        showVariablesForm();
        return;
    }
    auto* hint =
        new QLabel(section == Section::Buffers
                       ? tr("Scratch buffers live where the kernels run, start as zeros and are never copied "
                            "back; a view is a part of another buffer. Add ▸ Scratch buffer or View.")
                       : tr("Select a step to edit it. Add puts a new step after the selection, or inside "
                            "it when it is a loop."),
                   form_);
    hint->setWordWrap(true);
    formLayout_->addRow(hint);
}

void ProgramPanel::showVariablesForm() {
    auto* edit = addField(tr("Variables"), QStringLiteral("variables"), assignmentsText(variables_),
                          [this](const std::string& text) { variables_ = assignmentsOf(text); });
    edit->setPlaceholderText(tr("block = 256; passes = 10"));
    auto* hint = new QLabel(
        tr("Numbers the steps use by name, separated by ';'. A block-size sweep sets \"block\"."), form_);
    hint->setWordWrap(true);
    formLayout_->addRow(hint);
}

void ProgramPanel::showBufferForm(BufferSpec& buffer) {
    addField(tr("Name"), QStringLiteral("name"), buffer.name,
             [&buffer](const std::string& t) { buffer.name = t; });
    if (buffer.isView()) {
        addField(tr("View of"), QStringLiteral("of"), buffer.of,
                 [&buffer](const std::string& t) { buffer.of = t; });
        addField(tr("From element"), QStringLiteral("offset"), buffer.offset,
                 [&buffer](const std::string& t) { buffer.offset = t; });
        addField(tr("Elements"), QStringLiteral("length"), buffer.length, [&buffer](const std::string& t) {
            buffer.length = t;
        })->setPlaceholderText(tr("to the end"));
        return;
    }
    auto* dtype = new QComboBox(form_);
    dtype->setObjectName(QStringLiteral("dtype"));
    for (const DType type : allDTypes())
        dtype->addItem(QString::fromUtf8(name(type).data()));
    dtype->setCurrentText(QString::fromUtf8(name(buffer.dtype).data()));
    connect(dtype, &QComboBox::textActivated, this, [this, &buffer](const QString& text) {
        buffer.dtype = dtypeFromName(text.toStdString()).value_or(buffer.dtype);
        edited();
    });
    formLayout_->addRow(tr("Type"), dtype);
    addField(tr("Shape"), QStringLiteral("shape"), kp::join(buffer.shape, ", "),
             [&buffer](const std::string& t) { buffer.shape = splitList(t); })
        ->setToolTip(tr("1 to 3 dimensions, each a number or an expression: divup(size(a), 512)"));
}

void ProgramPanel::showStepForm(Step& step) {
    addField(tr("Title"), QStringLiteral("title"), step.title, [&step](const std::string& t) {
        step.title = t;
    })->setPlaceholderText(tr("what the step is for (optional)"));
    std::visit(
        [&](auto& s) {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, LaunchStep>) {
                showLaunchForm(s);
            } else if constexpr (std::is_same_v<T, CopyStep>) {
                addField(tr("From"), QStringLiteral("from"), s.from,
                         [&s](const std::string& t) { s.from = t; });
                addField(tr("To"), QStringLiteral("to"), s.to, [&s](const std::string& t) { s.to = t; });
                addField(tr("Elements"), QStringLiteral("count"), s.count, [&s](const std::string& t) {
                    s.count = t;
                })->setPlaceholderText(tr("all that fit"));
            } else if constexpr (std::is_same_v<T, FillStep>) {
                addField(tr("Buffer"), QStringLiteral("buffer"), s.buffer,
                         [&s](const std::string& t) { s.buffer = t; });
                addField(tr("Value"), QStringLiteral("value"), s.value,
                         [&s](const std::string& t) { s.value = t; });
                addField(tr("Elements"), QStringLiteral("count"), s.count, [&s](const std::string& t) {
                    s.count = t;
                })->setPlaceholderText(tr("to the end"));
            } else if constexpr (std::is_same_v<T, SwapStep>) {
                addField(tr("Buffer"), QStringLiteral("first"), s.first,
                         [&s](const std::string& t) { s.first = t; });
                addField(tr("With"), QStringLiteral("second"), s.second,
                         [&s](const std::string& t) { s.second = t; });
            } else if constexpr (std::is_same_v<T, SymbolStep>) {
                addField(tr("Symbol"), QStringLiteral("symbol"), s.symbol,
                         [&s](const std::string& t) { s.symbol = t; });
                addField(tr("From buffer"), QStringLiteral("from"), s.from,
                         [&s](const std::string& t) { s.from = t; });
                addField(tr("Or values"), QStringLiteral("values"), kp::join(s.values, ", "),
                         [&s](const std::string& t) { s.values = splitList(t); })
                    ->setPlaceholderText(tr("0.25, 0.5, 0.25"));
            } else if constexpr (std::is_same_v<T, SetStep>) {
                addField(tr("Set"), QStringLiteral("set"), assignmentsText(s.variables),
                         [&s](const std::string& t) { s.variables = assignmentsOf(t); })
                    ->setToolTip(
                        tr("name = expression, separated by ';': every value is worked out first, then "
                           "every name is set"));
            } else {
                showRepeatForm(s);
            }
        },
        step.action);
}

void ProgramPanel::showRepeatForm(RepeatStep& s) {
    addField(tr("Times"), QStringLiteral("times"), s.times, [&s](const std::string& t) {
        s.times = t;
    })->setPlaceholderText(tr("a number of passes, or leave empty and give While"));
    addField(tr("While"), QStringLiteral("while"), s.condition, [&s](const std::string& t) {
        s.condition = t;
    })->setPlaceholderText(tr("m > 1"));
    addField(tr("Counter"), QStringLiteral("counter"), s.counter, [&s](const std::string& t) {
        s.counter = t;
    })->setPlaceholderText(tr("a variable that counts the passes (optional)"));
    addField(tr("Counter from"), QStringLiteral("from"), s.from, [&s](const std::string& t) { s.from = t; });
    addField(tr("Then"), QStringLiteral("next"), s.next, [&s](const std::string& t) {
        s.next = t;
    })->setPlaceholderText(tr("counter + 1"));
    addField(tr("At most"), QStringLiteral("limit"), s.limit ? std::to_string(s.limit) : std::string(),
             [&s](const std::string& t) {
                 try {
                     s.limit = t.empty() ? 0 : std::stoull(t);
                 } catch (const std::exception&) {
                     s.limit = 0;
                 }
             })
        ->setPlaceholderText(tr("%L1 passes").arg(static_cast<qulonglong>(kp::launch::kDefaultLoopLimit)));
}

void ProgramPanel::showLaunchForm(LaunchStep& s) {
    auto* kernel = new QComboBox(form_);
    kernel->setEditable(true);
    kernel->lineEdit()->setObjectName(QStringLiteral("kernel"));
    for (const auto& k : kernels_)
        kernel->addItem(fromUtf8(k.name));
    kernel->setCurrentText(fromUtf8(s.kernel));
    formLayout_->addRow(tr("Kernel"), kernel);
    connect(kernel, &QComboBox::currentTextChanged, this, [this, &s](const QString& text) {
        s.kernel = text.toStdString();
        const auto* signature = kernelNamed(s.kernel);
        if (signature) {
            // The arguments follow the kernel's parameters: kept by position, new ones by name.
            s.args.resize(signature->parameters.size());
            for (std::size_t i = 0; i < s.args.size(); ++i)
                if (s.args[i].empty()) s.args[i] = signature->parameters[i].name;
        }
        edited();
        QMetaObject::invokeMethod(this, &ProgramPanel::showSelected, Qt::QueuedConnection); // its parameters
    });
    addField(tr("Template"), QStringLiteral("template"), kp::join(s.templateArgs, ", "),
             [&s](const std::string& t) { s.templateArgs = splitList(t); })
        ->setPlaceholderText(tr("float, block (for a template kernel)"));

    const auto axes = [&](const QString& label, const QString& name, std::vector<std::string>& dims,
                          bool autoAllowed) {
        auto* row = new QWidget(form_);
        auto* layout = new QHBoxLayout(row);
        layout->setContentsMargins(0, 0, 0, 0);
        QCheckBox* automatic = nullptr;
        if (autoAllowed) {
            automatic = new QCheckBox(tr("auto"), row);
            automatic->setObjectName(name + QStringLiteral(".auto"));
            automatic->setToolTip(tr("Enough blocks to cover the first pointer argument"));
            automatic->setChecked(dims.empty());
            layout->addWidget(automatic);
        }
        std::vector<QLineEdit*> edits;
        for (int axis = 0; axis < 3; ++axis) {
            auto* edit = new QLineEdit(row);
            edit->setObjectName(name + QStringLiteral(".") + QChar(u"xyz"[axis]));
            edit->setText(axis < static_cast<int>(dims.size())
                              ? fromUtf8(dims[std::size_t(axis)])
                              : (autoAllowed && dims.empty() ? QString() : QStringLiteral("1")));
            edit->setEnabled(!automatic || !automatic->isChecked());
            layout->addWidget(edit, axis == 0 ? 3 : 1);
            edits.push_back(edit);
        }
        const auto apply = [this, &dims, edits, automatic] {
            if (automatic && automatic->isChecked()) {
                dims.clear();
            } else {
                dims = {edits[0]->text().trimmed().toStdString(), edits[1]->text().trimmed().toStdString(),
                        edits[2]->text().trimmed().toStdString()};
                while (dims.size() > 1 && (dims.back() == "1" || dims.back().empty()))
                    dims.pop_back();
            }
            for (auto* e : edits)
                e->setEnabled(!automatic || !automatic->isChecked());
            edited();
        };
        for (auto* e : edits)
            connect(e, &QLineEdit::textEdited, this, apply);
        if (automatic) {
            connect(automatic, &QCheckBox::toggled, this, [edits, automatic] {
                if (!automatic->isChecked() && edits[0]->text().isEmpty())
                    edits[0]->setText(QStringLiteral("1"));
            });
            connect(automatic, &QCheckBox::toggled, this, apply);
        }
        formLayout_->addRow(label, row);
    };
    axes(tr("Grid"), QStringLiteral("grid"), s.grid, true);
    axes(tr("Block"), QStringLiteral("block"), s.block, false);
    addField(tr("Shared bytes"), QStringLiteral("shared_bytes"), s.sharedBytes,
             [&s](const std::string& t) { s.sharedBytes = t.empty() ? "0" : t; });

    const auto* signature = kernelNamed(s.kernel);
    const std::size_t count = signature ? signature->parameters.size() : s.args.size();
    if (s.args.size() < count) s.args.resize(count);
    auto* heading =
        new QLabel(signature ? tr("Arguments: a buffer (or buffer + offset) for each pointer, a number or "
                                  "an expression for each value")
                             : tr("Arguments (the source declares no kernel of this name)"),
                   form_);
    heading->setWordWrap(true);
    formLayout_->addRow(heading);
    for (std::size_t i = 0; i < count; ++i) {
        const QString label =
            signature ? fromUtf8(signature->parameters[i].typeText + " " + signature->parameters[i].name)
                      : tr("argument %1").arg(i);
        addField(label, QStringLiteral("args[%1]").arg(i), s.args[i],
                 [&s, i](const std::string& t) { s.args[i] = t; });
    }
}

void ProgramPanel::addStep(StepKind kind) {
    Playground playground;
    playground.args = arguments_;
    playground.buffers = buffers_;
    const auto at = selectedPath().value_or(StepPath{});
    const auto path = insertStep(steps_, at, newStep(kind, playground, kernels_));
    rebuild(path);
    emit programChanged();
}

void ProgramPanel::addBuffer(bool view) {
    BufferSpec buffer;
    buffer.name = "buffer" + std::to_string(buffers_.size() + 1);
    std::string first = "a";
    for (const auto& arg : arguments_)
        if (arg.isArray()) {
            first = arg.name;
            break;
        }
    if (view) {
        buffer.of = first;
    } else {
        buffer.shape = {"size(" + first + ")"};
    }
    buffers_.push_back(buffer);
    rebuild();
    for (QTreeWidgetItemIterator it(tree_); *it; ++it)
        if ((*it)->data(0, kSectionRole).toInt() == static_cast<int>(Section::Buffer) &&
            (*it)->data(0, kIndexRole).toULongLong() == buffers_.size() - 1)
            tree_->setCurrentItem(*it);
    emit programChanged();
}

void ProgramPanel::duplicateSelected() {
    const auto* item = tree_->currentItem();
    if (item && item->data(0, kSectionRole).toInt() == static_cast<int>(Section::Buffer)) {
        auto copy = buffers_[static_cast<std::size_t>(item->data(0, kIndexRole).toULongLong())];
        copy.name += "_copy";
        buffers_.push_back(copy);
        rebuild();
        emit programChanged();
        return;
    }
    if (const auto path = selectedPath()) {
        rebuild(duplicateStep(steps_, *path));
        emit programChanged();
    }
}

void ProgramPanel::removeSelected() {
    const auto* item = tree_->currentItem();
    if (item && item->data(0, kSectionRole).toInt() == static_cast<int>(Section::Buffer)) {
        buffers_.erase(buffers_.begin() +
                       static_cast<std::ptrdiff_t>(item->data(0, kIndexRole).toULongLong()));
        rebuild();
        emit programChanged();
        return;
    }
    if (const auto path = selectedPath()) {
        const auto next = removeStep(steps_, *path);
        rebuild(next.empty() ? std::nullopt : std::optional(next));
        emit programChanged();
    }
}

void ProgramPanel::moveSelected(bool up) {
    if (const auto path = selectedPath()) {
        rebuild(moveStep(steps_, *path, up));
        emit programChanged();
    }
}

void ProgramPanel::showPlan(const std::optional<kp::launch::Program>& plan, const QStringList& problems) {
    problemList_ = problems;
    calls_.clear();
    if (plan)
        for (const auto& step : plan->steps)
            calls_.push_back(step.calls);
    markProblems();
}

void ProgramPanel::showFailure(const QString& message) {
    problemList_ = {message};
    markProblems();
    if (const auto path = stepPathIn(message.toStdString()); path && !path->empty()) select(*path);
}

void ProgramPanel::markProblems() {
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    std::size_t depthFirst = 0;
    for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
        auto* item = *it;
        const auto section = static_cast<Section>(item->data(0, kSectionRole).toInt());
        QString prefix;
        if (section == Section::Step) {
            prefix = fromUtf8(jsonPath(pathOf(item->data(0, kIndexRole))));
            const auto calls = depthFirst < calls_.size() ? calls_[depthFirst] : std::uint64_t{0};
            const bool loop = item->childCount() > 0;
            item->setText(1, depthFirst < calls_.size()
                                 ? (loop ? (calls == 1 ? tr("1 pass")
                                                       : tr("%L1 passes").arg(static_cast<qulonglong>(calls)))
                                         : tr("×%L1").arg(static_cast<qulonglong>(calls)))
                                 : QString());
            ++depthFirst;
        } else if (section == Section::Buffer) {
            prefix = QStringLiteral("buffers[%1]").arg(item->data(0, kIndexRole).toULongLong());
        } else if (section == Section::Variables) {
            prefix = QStringLiteral("variables");
        }
        QStringList mine;
        for (const auto& p : problemList_)
            if (!prefix.isEmpty() &&
                (p.startsWith(prefix + QLatin1Char('.')) || p.startsWith(prefix + QLatin1Char(':')) ||
                 p.contains(QStringLiteral(" ") + prefix + QLatin1Char('.')) ||
                 p.contains(QStringLiteral(" ") + prefix + QLatin1Char(':')) ||
                 p.contains(QStringLiteral("at ") + prefix + QLatin1Char(' '))))
                mine << p;
        item->setIcon(0, mine.isEmpty() ? QIcon() : warning);
        if (!mine.isEmpty()) item->setToolTip(0, inStudentWords(mine.join(QLatin1Char('\n'))));
    }
    problems_->setVisible(!problemList_.isEmpty());
    problems_->setText(inStudentWords(problemList_.join(QLatin1Char('\n'))));
    setTone(problems_, Tone::Error);
}
