// The line above the code that says a playground compiles its kernel with options it chose (someone
// else's playground may): shown when it opens, before anything is compiled or run. MainWindow places it.
#pragma once

#include "core/model/Playground.h"

#include <QLabel>

class CompileNotice : public QLabel {
    Q_OBJECT
public:
    explicit CompileNotice(QWidget* parent = nullptr);

    void showFor(const kp::model::Playground& playground); // hidden when it chose none
};
