#include "DockLayout.h"

#include "KernelEditor.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

namespace {

constexpr int kColumns = 100;
constexpr int kLeftColumn = 260;  // the samples' titles are sentences
constexpr int kRightColumn = 380; // block and grid fields, the launch drawing

} // namespace

DockLayout::DockLayout(QMainWindow* window, KernelEditor* editor, Docks docks)
    : window_(window), editor_(editor), docks_(std::move(docks)) {}

namespace {

// `scrolls`: a panel taller than some windows leave it (the launch, the timings' plots, the sweep's
// settings) scrolls rather than making the window too tall for the screen.
QDockWidget* dock(QMainWindow* window, const QString& title, const QString& name, QWidget* widget,
                  bool scrolls = false) {
    auto* d = new QDockWidget(title, window);
    d->setObjectName(name); // saveState() remembers docks by name
    if (scrolls) {
        auto* scroll = new QScrollArea(d);
        scroll->setObjectName(name + QStringLiteral("Scroll"));
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidgetResizable(true);
        scroll->setWidget(widget);
        d->setWidget(scroll);
    } else {
        d->setWidget(widget);
    }
    window->addDockWidget(Qt::RightDockWidgetArea, d); // where it goes is arrange()'s
    return d;
}

} // namespace

std::unique_ptr<DockLayout> DockLayout::build(QMainWindow* window, KernelEditor* editor, const Panels& panels,
                                              QMenu* view) {
    Docks docks;
    docks.samples = dock(window, tr("Samples"), QStringLiteral("samplesDock"), panels.samples);
    docks.lesson = dock(window, tr("Lesson"), QStringLiteral("lessonDock"), panels.lesson);
    docks.arguments = dock(window, tr("Arguments"), QStringLiteral("argumentsDock"), panels.arguments);
    docks.launch = dock(window, tr("Launch"), QStringLiteral("launchDock"), panels.launch, true);
    docks.steps = dock(window, tr("Steps"), QStringLiteral("stepsDock"), panels.steps);
    auto* problems = dock(window, tr("Problems"), QStringLiteral("problemsDock"), panels.problems);
    auto* output = dock(window, tr("Output"), QStringLiteral("outputDock"), panels.output);
    auto* results = dock(window, tr("Results"), QStringLiteral("resultsDock"), panels.results, true);
    auto* timings = dock(window, tr("Timings"), QStringLiteral("timingsDock"), panels.timings, true);
    auto* sweep = dock(window, tr("Sweep"), QStringLiteral("sweepDock"), panels.sweep, true);
    auto* code = dock(window, tr("Compiled Code"), QStringLiteral("codeDock"), panels.code, true);
    docks.bottom = {problems, output, results, timings, sweep, code};
    docks.raised = results;
    for (auto* d : {docks.samples, docks.lesson, docks.arguments, docks.launch, docks.steps, problems, output,
                    results, timings, sweep, code})
        view->addAction(d->toggleViewAction());
    return std::make_unique<DockLayout>(window, editor, std::move(docks));
}

void DockLayout::showSteps(bool program) {
    (program ? docks_.steps : docks_.launch)->raise();
    if (!program || docks_.arguments->isHidden() || docks_.steps->isHidden()) return;
    const int column = docks_.arguments->height() + docks_.steps->height();
    window_->resizeDocks({docks_.arguments, docks_.steps}, {column * 2 / 5, column * 3 / 5}, Qt::Vertical);
}

QWidget* DockLayout::column(QWidget* parent, std::initializer_list<QWidget*> widgets) {
    auto* column = new QWidget(parent);
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    for (QWidget* widget : widgets)
        layout->addWidget(widget);
    return column;
}

QDockWidget* DockLayout::dockOf(const QWidget* panel) const {
    for (auto* d : window_->findChildren<QDockWidget*>()) {
        const auto* scroll = qobject_cast<QScrollArea*>(d->widget());
        if (d->widget() == panel || (scroll && scroll->widget() == panel)) return d;
    }
    return nullptr;
}

int DockLayout::chromeHeight() const {
    int height = window_->menuBar()->sizeHint().height();
    for (const QToolBar* bar : window_->findChildren<QToolBar*>())
        if (!bar->isHidden() && window_->toolBarArea(bar) == Qt::TopToolBarArea)
            height += bar->sizeHint().height();
    if (!window_->statusBar()->isHidden()) height += window_->statusBar()->sizeHint().height();
    return height;
}

bool DockLayout::wide(QSize room) const {
    const int separator =
        window_->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, window_);
    return room.width() - editor_->sizeFor(kColumns, 1).width() - 2 * separator >= kLeftColumn + kRightColumn;
}

void DockLayout::arrange(QSize room, int lines) {
    const bool twoColumns = wide(room);
    QStyle* style = window_->style();
    const int separator = style->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, window_);
    // The side columns run the window's height; the tabs under the code are only as wide as the code.
    window_->setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
    window_->setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    window_->setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    window_->setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    std::vector<QDockWidget*> all = {docks_.samples, docks_.lesson, docks_.arguments, docks_.launch,
                                     docks_.steps};
    all.insert(all.end(), docks_.bottom.begin(), docks_.bottom.end());
    std::vector<bool> closed;
    for (QDockWidget* dock : all) {
        closed.push_back(dock->isHidden() && !dock->isFloating());
        dock->setFloating(false);
        window_->removeDockWidget(dock);
    }
    window_->addDockWidget(Qt::RightDockWidgetArea, docks_.arguments, Qt::Vertical);
    window_->addDockWidget(Qt::RightDockWidgetArea, docks_.launch, Qt::Vertical);
    window_->tabifyDockWidget(docks_.launch, docks_.steps);
    if (twoColumns) {
        window_->addDockWidget(Qt::LeftDockWidgetArea, docks_.samples, Qt::Vertical);
        window_->addDockWidget(Qt::LeftDockWidgetArea, docks_.lesson, Qt::Vertical);
    } else {
        window_->tabifyDockWidget(docks_.arguments, docks_.lesson);
        window_->tabifyDockWidget(docks_.lesson, docks_.samples);
    }
    QDockWidget* previous = nullptr;
    for (QDockWidget* dock : docks_.bottom) {
        if (previous)
            window_->tabifyDockWidget(previous, dock);
        else
            window_->addDockWidget(Qt::BottomDockWidgetArea, dock);
        previous = dock;
    }
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i]->setVisible(!closed[i]);
    // Raised once the tabs exist: a tab shown afterwards would otherwise come to the front.
    // The launch in front of the steps, unless the playground is a program (its launch panel is off).
    QTimer::singleShot(0, window_, [this] {
        docks_.arguments->raise();
        const auto* launchScroll = qobject_cast<QScrollArea*>(docks_.launch->widget());
        const bool program = launchScroll && launchScroll->widget() && !launchScroll->widget()->isEnabled();
        (program ? docks_.steps : docks_.launch)->raise();
        if (docks_.raised) docks_.raised->raise();
    });

    // Widths: the code its 100 columns; a narrow screen's single column the rest. A wide one gives the
    // samples and the lesson up to 340 px, the arguments up to 480 px, and the code anything beyond.
    const QSize code = editor_->sizeFor(kColumns, lines);
    const int spare = room.width() - code.width() - (twoColumns ? 2 : 1) * separator;
    if (twoColumns) {
        const int left = std::clamp(spare * 2 / 5, kLeftColumn, 340);
        const int right = std::clamp(spare - left, kRightColumn, 480);
        window_->resizeDocks({docks_.samples, docks_.arguments}, {left, right}, Qt::Horizontal);
    } else {
        window_->resizeDocks({docks_.arguments}, {std::max(spare, kRightColumn)}, Qt::Horizontal);
    }
    // Heights: the code its lines, the tabs under it the rest; the launch what it asks for, the
    // arguments above it the rest of the column; the samples' list room for a good part of the catalogue.
    const int column = room.height() - chromeHeight();
    const int tabBar = window_->fontMetrics().height() + 12;
    const int bottom = column - code.height() - separator - tabBar;
    if (!docks_.bottom.empty())
        window_->resizeDocks({docks_.bottom.front()}, {std::max(bottom, 60)}, Qt::Vertical);
    const int launch = std::min(docks_.launch->sizeHint().height(), column * 3 / 5);
    window_->resizeDocks({docks_.arguments, docks_.launch}, {column - launch - separator - tabBar, launch},
                         Qt::Vertical);
    if (twoColumns)
        window_->resizeDocks({docks_.samples, docks_.lesson}, {column * 9 / 20, column * 11 / 20},
                             Qt::Vertical);
}
