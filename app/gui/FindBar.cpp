#include "FindBar.h"

#include "KernelEditor.h"

FindBar::FindBar(KernelEditor* editor, QWidget* parent) : QLineEdit(parent), editor_(editor) {
    setPlaceholderText(tr("Find (Enter: next, Esc: close)"));
    hide();
    connect(this, &QLineEdit::returnPressed, this, &FindBar::findNext);
}

void FindBar::open() {
    show();
    setFocus();
    selectAll();
}

void FindBar::findNext() {
    const QString text = this->text();
    if (text.isEmpty()) return;
    if (!editor_->findFirst(text, false, false, false, true, true))
        emit message(tr("\"%1\" is not in the text").arg(text), 3000);
}
