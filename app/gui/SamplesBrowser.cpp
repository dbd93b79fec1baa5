#include "SamplesBrowser.h"

#include "Appearance.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

constexpr int PathRole = Qt::UserRole;
constexpr int NameRole = Qt::UserRole + 1;

QString fromUtf8(const std::string& text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// The first paragraph's opening, so that the list keeps most of the dock: the whole lesson is one click
// away, in the Lesson dock.
QString shortened(const QString& summary) {
    constexpr qsizetype kMax = 200;
    if (summary.size() <= kMax) return summary;
    qsizetype cut = summary.lastIndexOf(QLatin1Char(' '), kMax);
    if (cut < kMax / 2) cut = kMax;
    QString text = summary.left(cut);
    // An unclosed `code` span would swallow the rest as Markdown.
    if (text.count(QLatin1Char('`')) % 2) text.truncate(text.lastIndexOf(QLatin1Char('`')));
    return text.trimmed() + QStringLiteral(" …");
}

} // namespace

SamplesBrowser::SamplesBrowser(QWidget* parent)
    : QWidget(parent), problems_(new QLabel(this)), list_(new QTreeWidget(this)), summary_(new QLabel(this)),
      open_(new QPushButton(tr("Open"), this)) {
    problems_->setObjectName(QStringLiteral("samplesProblems"));
    problems_->setWordWrap(true);
    setTone(problems_, Tone::Error);
    problems_->hide();
    list_->setObjectName(QStringLiteral("samplesList"));
    list_->setColumnCount(1);
    list_->setHeaderHidden(true);
    list_->setRootIsDecorated(true);
    list_->setAnimated(false);
    summary_->setObjectName(QStringLiteral("samplesSummary"));
    summary_->setWordWrap(true);
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setTextFormat(Qt::MarkdownText); // lessons are Markdown: `code` and **bold** show as such
    summary_->setMinimumHeight(summary_->fontMetrics().lineSpacing() * 4);
    open_->setObjectName(QStringLiteral("samplesOpen"));
    setMinimumWidth(240); // the titles are sentences
    open_->setEnabled(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(problems_);
    layout->addWidget(list_, 1);
    layout->addWidget(summary_);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(open_);
    layout->addLayout(buttons);

    connect(list_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (const QString path = item->data(0, PathRole).toString(); !path.isEmpty())
            emit openRequested(path);
    });
    connect(list_, &QTreeWidget::currentItemChanged, this, &SamplesBrowser::showSelected);
    connect(open_, &QPushButton::clicked, this, [this] {
        if (auto* item = list_->currentItem(); item && !item->data(0, PathRole).toString().isEmpty())
            emit openRequested(item->data(0, PathRole).toString());
    });
}

QString SamplesBrowser::defaultFolder() {
    return QString::fromStdString(kp::io::defaultSamplesFolder().string());
}

int SamplesBrowser::load(const QString& folder) {
    list_->clear();
    catalog_ = {};
    QStringList problems;
    try {
        catalog_ = kp::io::readSampleCatalog(folder.toStdString());
    } catch (const std::exception& e) {
        problems << QString::fromUtf8(e.what());
    }
    for (const auto& problem : catalog_.problems)
        problems << fromUtf8(problem);
    problems_->setText(problems.join(QLatin1Char('\n')));
    problems_->setVisible(!problems.isEmpty());

    QTreeWidgetItem* group = nullptr;
    for (const auto& sample : catalog_.samples) {
        if (!group || group->text(0) != fromUtf8(sample.group)) {
            group = new QTreeWidgetItem(list_, {fromUtf8(sample.group)});
            group->setFlags(Qt::ItemIsEnabled);
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setExpanded(true);
        }
        auto* item = new QTreeWidgetItem(group);
        item->setData(0, PathRole, QString::fromStdString(sample.playground.string()));
        item->setData(0, NameRole, fromUtf8(sample.name));
        // A broken sample is listed with its problem, not hidden.
        if (sample.problem.empty()) {
            item->setText(0, fromUtf8(sample.title));
            item->setToolTip(0, fromUtf8(sample.name + "\n\n" + sample.summary));
        } else {
            item->setText(0, tr("%1 (has a problem)").arg(fromUtf8(sample.title)));
            item->setToolTip(0, fromUtf8(sample.problem));
            item->setForeground(0, colorsOf(currentAppearance()).error);
        }
    }
    showSelected();
    return static_cast<int>(catalog_.samples.size());
}

QString SamplesBrowser::pathOf(const QString& name) const {
    const auto* sample = catalog_.find(name.toStdString());
    return sample ? QString::fromStdString(sample->playground.string()) : QString();
}

QTreeWidgetItem* SamplesBrowser::itemOf(const QString& path) const {
    const QString wanted = QFileInfo(path).absoluteFilePath();
    for (int g = 0; g < list_->topLevelItemCount(); ++g) {
        auto* group = list_->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i)
            if (QFileInfo(group->child(i)->data(0, PathRole).toString()).absoluteFilePath() == wanted)
                return group->child(i);
    }
    return nullptr;
}

bool SamplesBrowser::select(const QString& path) {
    // Another playground leaves nothing selected, so the list never suggests it is open.
    auto* item = itemOf(path);
    list_->setCurrentItem(item);
    return item != nullptr;
}

void SamplesBrowser::showSelected() {
    const auto* item = list_->currentItem();
    const QString name = item ? item->data(0, NameRole).toString() : QString();
    const auto* sample = name.isEmpty() ? nullptr : catalog_.find(name.toStdString());
    open_->setEnabled(sample != nullptr);
    if (!sample) {
        summary_->setText(
            tr("Choose a sample to read what it shows; open it to run it and read its lesson."));
        return;
    }
    const QString text = sample->problem.empty() ? shortened(fromUtf8(sample->summary))
                                                 : QStringLiteral("`%1`").arg(fromUtf8(sample->problem));
    summary_->setText(
        QStringLiteral("**%1** `%2`\n\n%3").arg(fromUtf8(sample->title), fromUtf8(sample->name), text));
}
