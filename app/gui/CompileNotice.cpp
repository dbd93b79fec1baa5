#include "CompileNotice.h"

#include "Appearance.h"

CompileNotice::CompileNotice(QWidget* parent) : QLabel(parent) {
    setWordWrap(true);
    setBanner(this, Banner::Warning);
    hide();
}

void CompileNotice::showFor(const kp::model::Playground& playground) {
    const std::string notice = kp::model::describe(playground.compile);
    setVisible(!notice.empty());
    setText(
        tr("This playground compiles its kernel with options it chose: %1. They take effect when you run it.")
            .arg(QString::fromStdString(notice).toHtmlEscaped()));
}
