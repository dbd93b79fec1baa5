// The problems list under the editor: every diagnostic of the last compile (NVRTC's or the host
// compiler's) and of the signature parser, with its line; activating one asks the editor to go there.
#pragma once

#include "core/model/Diagnostic.h"

#include <QTreeWidget>
#include <vector>

class ProblemsView : public QTreeWidget {
    Q_OBJECT
public:
    explicit ProblemsView(QWidget* parent = nullptr);
    void setDiagnostics(const std::vector<kp::model::Diagnostic>& diagnostics);
    int errorCount() const { return errors_; }
    int warningCount() const { return warnings_; }

signals:
    void jumpRequested(int line, int column);

private:
    int errors_ = 0, warnings_ = 0;
};
