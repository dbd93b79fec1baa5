#include "HelpDialog.h"

#include "LessonView.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

// "&Run" -> "Run", and "运行(&R)" -> "运行" (the Chinese translation's style): menu titles as people read
// them.
QString withoutMnemonic(QString title) {
    title.remove(QRegularExpression(QStringLiteral("\\s*\\(&[^&]\\)")));
    title.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    title.remove(QLatin1Char('&'));
    return title.replace(QLatin1Char('\x01'), QLatin1Char('&'));
}

// Every action under `menu` that has a shortcut, as (where, what, keys).
void collect(const QMenu* menu, const QString& path, QList<QStringList>& rows) {
    for (const QAction* action : menu->actions()) {
        if (action->isSeparator()) continue;
        if (action->menu()) {
            collect(action->menu(), path + QStringLiteral(" ▸ ") + withoutMnemonic(action->menu()->title()),
                    rows);
            continue;
        }
        if (action->shortcuts().isEmpty()) continue;
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText);
        rows.append({path, withoutMnemonic(action->text()), keys.join(QStringLiteral(", "))});
    }
}

} // namespace

HelpDialog::HelpDialog(const QMenuBar* menus, const kp::io::SampleCatalog& samples, QWidget* parent)
    : QDialog(parent), tabs_(new QTabWidget(this)), guide_(new QTextBrowser(this)),
      shortcuts_(new QTableWidget(this)), lessons_(new QTreeWidget(this)), lesson_(new LessonView(this)),
      open_(new QPushButton(tr("Open Sample"), this)) {
    setWindowTitle(tr("Kernelpad Help"));
    resize(900, 640);

    QFile guide(QStringLiteral(":/help/guide.md"));
    guide_->setOpenExternalLinks(true);
    if (guide.open(QIODevice::ReadOnly))
        guide_->setMarkdown(QString::fromUtf8(guide.readAll()));
    else
        guide_->setPlainText(tr("The guide is missing from this build (:/help/guide.md)."));
    tabs_->addTab(guide_, tr("Guide"));

    fillShortcuts(menus);
    tabs_->addTab(shortcuts_, tr("Keyboard Shortcuts"));

    auto* lessons = new QWidget(this);
    auto* split = new QSplitter(lessons);
    split->addWidget(lessons_);
    split->addWidget(lesson_);
    split->setStretchFactor(1, 1);
    split->setSizes({260, 600});
    auto* lessonsLayout = new QVBoxLayout(lessons);
    lessonsLayout->addWidget(split, 1);
    lessonsLayout->addWidget(open_, 0, Qt::AlignRight);
    fillLessons(samples);
    tabs_->addTab(lessons, tr("Lessons"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs_, 1);
    layout->addWidget(buttons);
}

void HelpDialog::showPage(Page page) {
    tabs_->setCurrentIndex(static_cast<int>(page));
}

void HelpDialog::fillShortcuts(const QMenuBar* menus) {
    QList<QStringList> rows;
    if (menus)
        for (const QAction* action : menus->actions())
            if (action->menu()) collect(action->menu(), withoutMnemonic(action->menu()->title()), rows);
    shortcuts_->setColumnCount(3);
    shortcuts_->setHorizontalHeaderLabels({tr("Menu"), tr("Action"), tr("Keys")});
    shortcuts_->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < rows.size(); ++r)
        for (int c = 0; c < 3; ++c)
            shortcuts_->setItem(r, c, new QTableWidgetItem(rows[r][c]));
    shortcuts_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    shortcuts_->verticalHeader()->hide();
    shortcuts_->horizontalHeader()->setStretchLastSection(true);
    shortcuts_->resizeColumnsToContents();
}

void HelpDialog::fillLessons(const kp::io::SampleCatalog& samples) {
    lessons_->setHeaderHidden(true);
    QTreeWidgetItem* group = nullptr;
    for (const auto& sample : samples.samples) {
        if (!group || group->text(0) != text(sample.group)) {
            group = new QTreeWidgetItem(lessons_, {text(sample.group)});
            group->setFlags(Qt::ItemIsEnabled);
            group->setExpanded(true);
        }
        auto* item = new QTreeWidgetItem(group, {text(sample.title)});
        item->setData(0, Qt::UserRole, QString::fromStdString(sample.lesson.string()));
        item->setData(0, Qt::UserRole + 1, QString::fromStdString(sample.playground.string()));
        item->setToolTip(0, text(sample.name));
    }
    open_->setEnabled(false);
    connect(lessons_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        const QString playground = item ? item->data(0, Qt::UserRole + 1).toString() : QString();
        open_->setEnabled(!playground.isEmpty());
        lesson_->showLesson(item ? item->data(0, Qt::UserRole).toString() : QString());
    });
    const auto open = [this] {
        const auto* item = lessons_->currentItem();
        const QString playground = item ? item->data(0, Qt::UserRole + 1).toString() : QString();
        if (playground.isEmpty()) return;
        emit openRequested(playground);
        accept();
    };
    connect(open_, &QPushButton::clicked, this, open);
    connect(lessons_, &QTreeWidget::itemActivated, this, open);
}
