#include "HelpMenu.h"

#include "HelpDialog.h"

#include <QMessageBox>

HelpMenu::HelpMenu(QWidget* parent) : QMenu(tr("&Help"), parent) {
    addAction(tr("Kernelpad &Guide"), QKeySequence::HelpContents, this,
              [this] { emit pageRequested(int(HelpDialog::Page::Guide)); });
    addAction(tr("&Keyboard Shortcuts"), this,
              [this] { emit pageRequested(int(HelpDialog::Page::Shortcuts)); });
    addAction(tr("&Lessons"), this, [this] { emit pageRequested(int(HelpDialog::Page::Lessons)); });
    addSeparator();
    addAction(tr("&About Kernelpad"), this, [parent] {
        QMessageBox::about(parent, tr("About Kernelpad"),
                           tr("<h3>Kernelpad %1</h3><p>A desktop playground for CUDA kernels: write a "
                              "kernel, run it on a GPU "
                              "or on the CPU, check it against a CPU reference and compare the timings.</p>")
                               .arg(QStringLiteral(KP_VERSION)));
    });
}
