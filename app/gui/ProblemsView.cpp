#include "ProblemsView.h"

#include <QHeaderView>
#include <QStyle>

using kp::model::Diagnostic;

namespace {

// The severity in the reader's language; the compiler's message stays as the compiler wrote it.
QString severityText(Diagnostic::Severity severity) {
    switch (severity) {
    case Diagnostic::Severity::Error:
        return ProblemsView::tr("error");
    case Diagnostic::Severity::Warning:
        return ProblemsView::tr("warning");
    case Diagnostic::Severity::Note:
        return ProblemsView::tr("note");
    }
    return QString::fromUtf8(kp::model::toString(severity));
}

} // namespace

ProblemsView::ProblemsView(QWidget* parent) : QTreeWidget(parent) {
    setColumnCount(3);
    setHeaderLabels({tr("Severity"), tr("Line"), tr("Message")});
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    header()->setStretchLastSection(true);
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        emit jumpRequested(item->data(1, Qt::UserRole).toInt(), item->data(2, Qt::UserRole).toInt());
    });
}

void ProblemsView::setDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    clear();
    errors_ = warnings_ = 0;
    for (const auto& d : diagnostics) {
        const bool error = d.severity == Diagnostic::Severity::Error;
        (error ? errors_ : warnings_) += d.severity == Diagnostic::Severity::Note ? 0 : 1;
        auto* item = new QTreeWidgetItem(this);
        item->setText(0, severityText(d.severity));
        item->setIcon(
            0, style()->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning));
        item->setText(1, d.line > 0 ? QString::number(d.line) : QString());
        item->setText(2, QString::fromStdString(d.message));
        item->setToolTip(2, QString::fromStdString(kp::model::toString(d)));
        item->setData(1, Qt::UserRole, d.line);
        item->setData(2, Qt::UserRole, d.column);
    }
}
