#include "ArgumentEditor.h"

#include "Appearance.h"
#include "core/io/InitialArray.h"
#include "core/model/ArrayGenerator.h"
#include "core/model/DType.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>

using namespace kp::model;

namespace {

constexpr std::size_t kPreviewLimit = 1u << 16; // generated in full up to this many elements
// Shown translated (tr(n)); marked here so that lupdate finds them.
const char* const kInitNames[] = {QT_TRANSLATE_NOOP("ArgumentEditor", "zeros"),
                                  QT_TRANSLATE_NOOP("ArgumentEditor", "ones"),
                                  QT_TRANSLATE_NOOP("ArgumentEditor", "constant"),
                                  QT_TRANSLATE_NOOP("ArgumentEditor", "range"),
                                  QT_TRANSLATE_NOOP("ArgumentEditor", "uniform random"),
                                  QT_TRANSLATE_NOOP("ArgumentEditor", "normal random"),
                                  QT_TRANSLATE_NOOP("ArgumentEditor", "formula"),
                                  QT_TRANSLATE_NOOP("ArgumentEditor", "file")};

// The label of a fill's field. Its key is the JSON member and the field's objectName; most keys are their
// own label (translated: tr(key)), "stddev" is spelled out.
QString fieldLabel(const QString& key) {
    const QString member = key.trimmed();
    if (member == QLatin1String("stddev")) return ArgumentEditor::tr("standard deviation");
    return ArgumentEditor::tr(member.toUtf8().constData());
}

QString shapeText(const Shape& shape) {
    QStringList parts;
    for (auto d : shape)
        parts << QString::number(d);
    return parts.join(QStringLiteral(", "));
}

// "400", "4, 4", "2x3x4": 1 to 3 positive dimensions; an empty optional and `problem` otherwise.
std::optional<Shape> parseShape(const QString& text, QString& problem) {
    // "4x4" and "4 × 4" too: an x only between numbers, so that "64, x" is an error, not a shape of 64.
    QString normalised = text;
    normalised.replace(QRegularExpression(QStringLiteral("(\\d)\\s*[x×]\\s*(?=\\d)")),
                       QStringLiteral("\\1,"));
    const QStringList parts =
        normalised.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
    if (parts.isEmpty() || parts.size() > 3) {
        problem = QObject::tr("give 1 to 3 dimensions, like 400 or 64, 64");
        return std::nullopt;
    }
    Shape shape;
    for (const QString& part : parts) {
        bool ok = false;
        const qulonglong d = part.toULongLong(&ok);
        if (!ok || d == 0 || d > (1ull << 36)) {
            problem = QObject::tr("\"%1\" is not a positive whole number of at most 2^36").arg(part);
            return std::nullopt;
        }
        shape.push_back(static_cast<std::size_t>(d));
    }
    return shape;
}

std::optional<double> parseNumber(const QString& text) {
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    return ok && std::isfinite(value) ? std::optional(value) : std::nullopt;
}

QString numberText(double value) {
    return QString::number(value, 'g', 12);
}

} // namespace

ArgumentEditor::ArgumentEditor(const ArgumentSpec& spec, const Parameter& parameter,
                               std::filesystem::path folder, QWidget* parent)
    : QGroupBox(parent), spec_(spec), parameter_(parameter), folder_(std::move(folder)) {
    setTitle(QStringLiteral("%1  —  %2")
                 .arg(QString::fromStdString(spec.name), QString::fromStdString(parameter.typeText)));
    setObjectName(QStringLiteral("argument_%1").arg(QString::fromStdString(spec.name)));
    error_ = new QLabel(this);
    error_->setWordWrap(true);
    setTone(error_, Tone::Error);
    error_->hide();
    updating_ = true;
    if (spec_.isArray())
        buildArray();
    else
        buildScalar();
    updating_ = false;
    if (spec_.isArray()) updatePreview();
}

void ArgumentEditor::buildArray() {
    auto* form = new QFormLayout;
    dtype_ = new QComboBox(this);
    for (const DType type : kp::model::allDTypes())
        dtype_->addItem(QString::fromUtf8(name(type).data()));
    dtype_->setMaxVisibleItems(16);
    dtype_->setCurrentText(QString::fromUtf8(name(spec_.array().dtype).data()));
    // The kernel's element type decides when the signature names one: a mismatch would be refused at run
    // time.
    dtype_->setEnabled(!parameter_.dtype);
    shape_ = new QLineEdit(shapeText(spec_.array().shape), this);
    shape_->setPlaceholderText(tr("e.g. 400 or 64, 64"));
    direction_ = new QComboBox(this);
    direction_->addItems({QStringLiteral("in"), QStringLiteral("out"), QStringLiteral("inout")});
    direction_->setCurrentText(
        QString::fromUtf8(name(spec_.direction.value_or(inferDirection(parameter_.isConst))).data()));
    init_ = new QComboBox(this);
    for (const char* n : kInitNames)
        init_->addItem(tr(n));
    initPages_ = new QStackedWidget(this);
    const auto page = [&](std::initializer_list<std::pair<const char*, QString>> fields) {
        auto* w = new QWidget(initPages_);
        auto* layout = new QHBoxLayout(w);
        layout->setContentsMargins(0, 0, 0, 0);
        for (const auto& [key, value] : fields) {
            // The key names the field (and the JSON member); its label is in words, translated.
            const QString label = fieldLabel(QString::fromUtf8(key));
            auto* edit = new QLineEdit(value, w);
            edit->setObjectName(QString::fromUtf8(key));
            edit->setPlaceholderText(label);
            edit->setToolTip(label);
            initFields_.insert(QString::fromUtf8(key), edit);
            layout->addWidget(new QLabel(label, w));
            layout->addWidget(edit, 1);
            connect(edit, &QLineEdit::textEdited, this, &ArgumentEditor::readFields);
        }
        initPages_->addWidget(w);
    };
    const InitSpec init = spec_.init.value_or(InitSpec{});
    page({});
    page({});
    page({{"constant", numberText(init.constant)}});
    page({{QT_TR_NOOP("start"), numberText(init.start)}, {QT_TR_NOOP("step"), numberText(init.step)}});
    page({{QT_TR_NOOP("low"), numberText(init.low)},
          {QT_TR_NOOP("high"), numberText(init.high)},
          {QT_TR_NOOP("seed"), QString::number(init.seed)}});
    page({{QT_TR_NOOP("mean"), numberText(init.mean)},
          {"stddev", numberText(init.stddev)}, // labelled by fieldLabel()
          {"seed ", QString::number(init.seed)}});
    page({{"formula", QString::fromStdString(init.formula.empty() ? "sin(i*0.1)" : init.formula)}});
    page({{"file", QString::fromStdString(init.file)}});
    init_->setCurrentIndex(static_cast<int>(init.kind));
    initPages_->setCurrentIndex(static_cast<int>(init.kind));
    form->addRow(tr("element type"), dtype_);
    form->addRow(tr("shape"), shape_);
    form->addRow(tr("direction"), direction_);
    form->addRow(tr("fill"), init_);
    form->addRow(QString(), initPages_);

    previewTable_ = new QTableWidget(this);
    previewTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    previewTable_->verticalHeader()->setDefaultSectionSize(20);
    previewTable_->setMaximumHeight(130);
    heatMap_ = new QLabel(this);
    heatMap_->setFixedSize(96, 96);
    heatMap_->setScaledContents(true);
    heatMap_->hide();
    auto* preview = new QHBoxLayout;
    preview->addWidget(previewTable_, 1);
    preview->addWidget(heatMap_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(preview);
    layout->addWidget(error_);

    auto* previewTimer = new QTimer(this);
    previewTimer->setSingleShot(true);
    previewTimer->setInterval(250);
    connect(previewTimer, &QTimer::timeout, this, &ArgumentEditor::updatePreview);
    connect(this, &ArgumentEditor::changed, previewTimer, qOverload<>(&QTimer::start));
    connect(dtype_, &QComboBox::currentIndexChanged, this, &ArgumentEditor::readFields);
    connect(shape_, &QLineEdit::textEdited, this, &ArgumentEditor::readFields);
    connect(direction_, &QComboBox::currentIndexChanged, this, &ArgumentEditor::readFields);
    connect(init_, &QComboBox::currentIndexChanged, this, [this](int index) {
        initPages_->setCurrentIndex(index);
        readFields();
    });
    readFields();
}

void ArgumentEditor::buildScalar() {
    auto* form = new QFormLayout;
    value_ = new QLineEdit(spec_.value ? QString::fromStdString(toString(*spec_.value)) : QStringLiteral("0"),
                           this);
    value_->setPlaceholderText(tr("a number, or size(x), rows(x), cols(x), depth(x)"));
    value_->setToolTip(value_->placeholderText());
    form->addRow(QString::fromUtf8(name(spec_.scalar().dtype).data()), value_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(error_);
    connect(value_, &QLineEdit::textEdited, this, &ArgumentEditor::readFields);
    readFields();
}

void ArgumentEditor::setArrayNames(const QStringList& names) {
    arrayNames_ = names;
    const bool was = updating_;
    updating_ = true;
    readFields();
    updating_ = was;
}

void ArgumentEditor::setProblem(QWidget* field, const QString& key, const QString& problem) {
    if (problem.isEmpty())
        problems_.remove(key);
    else
        problems_.insert(key, problem);
    setBanner(field, problem.isEmpty() ? Banner::None : Banner::Problem);
    field->setToolTip(problem);
}

void ArgumentEditor::readFields() {
    if (!spec_.isArray()) {
        const QString text = value_->text().trimmed();
        QString problem;
        if (const auto number = parseNumber(text)) {
            spec_.value = ScalarValue{ScalarValue::Kind::Number, *number, {}};
        } else if (const auto binding = scalarValueFromText(text.toStdString())) {
            if (arrayNames_.contains(QString::fromStdString(binding->array)))
                spec_.value = *binding;
            else
                problem =
                    tr("there is no array argument \"%1\" (arrays: %2)")
                        .arg(QString::fromStdString(binding->array), arrayNames_.join(QStringLiteral(", ")));
        } else {
            problem = tr("\"%1\" is not a number, nor size(x), rows(x), cols(x) or depth(x) of an array x")
                          .arg(text);
        }
        setProblem(value_, QStringLiteral("value"), problem);
        showProblems();
        if (!updating_) emit changed();
        return;
    }
    auto array = spec_.array();
    if (const auto dtype = dtypeFromName(dtype_->currentText().toStdString())) array.dtype = *dtype;
    QString problem;
    if (const auto shape = parseShape(shape_->text(), problem)) array.shape = *shape;
    setProblem(shape_, QStringLiteral("shape"), problem);
    spec_.type = array;

    const auto direction = directionFromName(direction_->currentText().toStdString()).value_or(Direction::In);
    setProblem(direction_, QStringLiteral("direction"),
               parameter_.isConst && direction != Direction::In
                   ? tr("the kernel's parameter is a pointer to const: it can only be read, so it is \"in\"")
                   : QString());
    spec_.direction = direction;

    InitSpec init = spec_.init.value_or(InitSpec{});
    init.kind = static_cast<InitSpec::Kind>(init_->currentIndex());
    const auto number = [&](const QString& key, double& target) {
        QLineEdit* field = initFields_.value(key);
        const auto value = parseNumber(field->text());
        if (value) target = *value;
        const QString label = fieldLabel(key);
        setProblem(field, key,
                   value ? QString() : tr("%1: \"%2\" is not a number").arg(label, field->text()));
    };
    const auto seed = [&](const QString& key) {
        QLineEdit* field = initFields_.value(key);
        bool ok = false;
        const qulonglong value = field->text().trimmed().toULongLong(&ok);
        if (ok) init.seed = value;
        setProblem(field, key,
                   ok ? QString() : tr("seed: \"%1\" is not a whole number of 0 or more").arg(field->text()));
    };
    for (const auto& key : initFields_.keys())
        setProblem(initFields_.value(key), key, {}); // only the visible page counts
    switch (init.kind) {
    case InitSpec::Kind::Constant:
        number(QStringLiteral("constant"), init.constant);
        break;
    case InitSpec::Kind::Range:
        number(QStringLiteral("start"), init.start);
        number(QStringLiteral("step"), init.step);
        break;
    case InitSpec::Kind::Uniform:
        number(QStringLiteral("low"), init.low);
        number(QStringLiteral("high"), init.high);
        seed(QStringLiteral("seed"));
        break;
    case InitSpec::Kind::Normal:
        number(QStringLiteral("mean"), init.mean);
        number(QStringLiteral("stddev"), init.stddev);
        seed(QStringLiteral("seed "));
        break;
    case InitSpec::Kind::Formula: {
        QLineEdit* field = initFields_.value(QStringLiteral("formula"));
        QString formulaProblem;
        try {
            checkFormula(field->text().toStdString(), "formula");
            init.formula = field->text().toStdString();
        } catch (const std::exception& e) {
            formulaProblem = QString::fromUtf8(e.what());
        }
        setProblem(field, QStringLiteral("formula"), formulaProblem);
        break;
    }
    case InitSpec::Kind::File: {
        QLineEdit* field = initFields_.value(QStringLiteral("file"));
        const auto problemText =
            field->text().isEmpty()
                ? std::optional<std::string>(
                      tr("type the name of a .npy or .csv file in the playground's folder").toStdString())
                : pathProblem(folder_, field->text().toStdString());
        if (!problemText) init.file = field->text().toStdString();
        setProblem(field, QStringLiteral("file"),
                   problemText ? QString::fromStdString(*problemText) : QString());
        break;
    }
    default:
        break;
    }
    // An output is zero-filled: its init would be ignored, so it is not written.
    if (direction == Direction::Out)
        spec_.init.reset();
    else
        spec_.init = init;
    init_->setEnabled(direction != Direction::Out);
    initPages_->setEnabled(direction != Direction::Out);
    showProblems();
    if (!updating_) emit changed();
}

QStringList ArgumentEditor::problems() const {
    QStringList list;
    for (auto it = problems_.begin(); it != problems_.end(); ++it)
        list << it.value();
    return list;
}

void ArgumentEditor::showProblems() {
    const QStringList list = problems();
    error_->setText(list.join(QLatin1Char('\n')));
    error_->setVisible(!list.isEmpty());
}

void ArgumentEditor::updatePreview() {
    if (!spec_.isArray()) return;
    // An output starts as zeros: nothing to preview.
    const bool output = spec_.direction == Direction::Out;
    previewTable_->setVisible(!output);
    if (output) {
        heatMap_->hide();
        return;
    }
    ArraySpec spec = spec_.array();
    InitSpec init = spec_.init.value_or(InitSpec{});
    const std::size_t count = elementCount(spec.shape);
    // Big arrays preview their first rows: the values of an element do not depend on the shape, except
    // through a formula's n (given as the number it stands for) or a file, which is previewed only when
    // small. ("sin(i)" has an n that is not the variable: the preview was blank for it.)
    static const QRegularExpression variableN(QStringLiteral("\\bn\\b"));
    if (init.kind == InitSpec::Kind::Formula && count > kPreviewLimit)
        init.formula = QString::fromStdString(init.formula)
                           .replace(variableN, QStringLiteral("(%1)").arg(count))
                           .toStdString();
    if (count > kPreviewLimit) {
        if (init.kind == InitSpec::Kind::File) {
            previewTable_->clear();
            previewTable_->setRowCount(0);
            previewTable_->setColumnCount(0);
            heatMap_->hide();
            return;
        }
        spec.shape = spec.shape.size() == 1
                         ? Shape{256}
                         : Shape{std::min<std::size_t>(spec.shape[spec.shape.size() - 2], 64),
                                 std::min<std::size_t>(spec.shape.back(), 64)};
    }
    Array values;
    try {
        values = kp::io::initialArray(spec, init, folder_, "init");
        setProblem(init_, QStringLiteral("init"), {});
    } catch (const std::exception& e) {
        setProblem(init_, QStringLiteral("init"), QString::fromUtf8(e.what()));
        showProblems();
        return;
    }
    showProblems();
    const std::size_t columns = values.shape().size() == 1 ? 1 : values.shape().back();
    const std::size_t rows = std::min<std::size_t>(values.size() / columns, 256);
    previewTable_->clear();
    previewTable_->setRowCount(static_cast<int>(rows));
    previewTable_->setColumnCount(static_cast<int>(std::min<std::size_t>(columns, 64)));
    // Row-major indices from 0, as the kernel and numpy count them.
    QStringList rowLabels, columnLabels;
    for (std::size_t r = 0; r < rows; ++r)
        rowLabels << QString::number(r);
    for (std::size_t c = 0; c < std::min<std::size_t>(columns, 64); ++c)
        columnLabels << QString::number(c);
    previewTable_->setVerticalHeaderLabels(rowLabels);
    previewTable_->setHorizontalHeaderLabels(values.shape().size() == 1 ? QStringList{tr("value")}
                                                                        : columnLabels);
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < std::min<std::size_t>(columns, 64); ++c)
            previewTable_->setItem(
                static_cast<int>(r), static_cast<int>(c),
                new QTableWidgetItem(QString::number(values.value(r * columns + c), 'g', 6)));
    heatMap_->setVisible(values.shape().size() >= 2);
    if (values.shape().size() < 2) return;
    // A heat map of the first slice: blue (smallest) to red (largest).
    const std::size_t h = std::min<std::size_t>(values.size() / columns, 256),
                      w = std::min<std::size_t>(columns, 256);
    double low = INFINITY, high = -INFINITY;
    for (std::size_t r = 0; r < h; ++r)
        for (std::size_t c = 0; c < w; ++c) {
            const double v = values.value(r * columns + c);
            if (std::isfinite(v)) low = std::min(low, v), high = std::max(high, v);
        }
    QImage image(static_cast<int>(w), static_cast<int>(h), QImage::Format_RGB32);
    for (std::size_t r = 0; r < h; ++r)
        for (std::size_t c = 0; c < w; ++c) {
            const double v = values.value(r * columns + c);
            const double t = high > low && std::isfinite(v) ? (v - low) / (high - low) : 0.5;
            image.setPixelColor(static_cast<int>(c), static_cast<int>(r),
                                QColor::fromHsvF(static_cast<float>(0.66 * (1 - t)), 0.85f, 0.95f));
        }
    heatMap_->setPixmap(QPixmap::fromImage(image));
}
