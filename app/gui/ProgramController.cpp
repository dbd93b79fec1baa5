#include "ProgramController.h"

#include "LaunchPanel.h"
#include "PlaygroundDocument.h"
#include "ProgramPanel.h"
#include "RunController.h"
#include "core/launch/RunSetup.h"
#include "core/model/ProgramEdit.h"
#include "core/model/SignatureParser.h"

#include <QCoreApplication>
#include <QThreadPool>

using namespace kp;

ProgramController::ProgramController(ProgramPanel* panel, PlaygroundDocument* document, RunController* runs,
                                     LaunchPanel* launch, QObject* parent)
    : QObject(parent), panel_(panel), document_(document), runs_(runs), launch_(launch) {
    connect(panel_, &ProgramPanel::programChanged, this, [this] {
        document_->setPanelsModified(true);
        plan();
    });
    connect(panel_, &ProgramPanel::makeProgramRequested, this, &ProgramController::makeProgram);
    connect(runs_, &RunController::kernelsParsed, this,
            [this](const std::vector<model::KernelSignature>& kernels) {
                panel_->setKernels(kernels);
                if (panel_->isProgram()) plan();
            });
    connect(runs_, &RunController::kernelFound, this,
            [this](const auto&, const std::vector<model::ArgumentSpec>& arguments) {
                panel_->setArguments(arguments.empty() ? document_->current().args : arguments);
            });
    connect(runs_, &RunController::failedBecause, this, [this](const QString& message) {
        if (panel_->isProgram()) panel_->showFailure(message);
    });
}

void ProgramController::showOpened() {
    panel_->setPlayground(document_->playground());
    launch_->setEnabled(!panel_->isProgram());
    launch_->setToolTip(panel_->isProgram()
                            ? tr("A program's launches have their grids and blocks in its steps: "
                                 "see the Steps panel")
                            : QString());
    emit becameProgram(panel_->isProgram());
}

void ProgramController::plan() {
    const quint64 generation = ++generation_;
    const model::Playground playground = document_->current();
    if (!playground.isProgram()) return;
    const QPointer<ProgramController> self(this);
    QThreadPool::globalInstance()->start([self, generation, playground] {
        std::optional<launch::Program> program;
        QStringList problems;
        try {
            program = launch::prepareKernel(playground).program;
        } catch (const launch::SetupError& e) {
            for (const auto& p : e.problems())
                problems << QString::fromStdString(p);
        } catch (const std::exception& e) {
            problems << QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, generation, program = std::move(program), problems] {
                if (!self || generation != self->generation_) return; // a newer edit is being planned
                self->panel_->showPlan(program, problems);
                emit self->planned(problems.isEmpty());
            },
            Qt::QueuedConnection);
    });
}

void ProgramController::makeProgram() {
    const model::Playground current = document_->current();
    const auto parsed = model::parseKernels(current.code.value_or(std::string()), "kernel.cu");
    const auto* kernel = model::findKernel(parsed, current.kernel.substr(0, current.kernel.find('<')));
    const model::Playground program = model::asProgram(current, kernel ? *kernel : model::KernelSignature{});
    panel_->setPlayground(program);
    launch_->setEnabled(false);
    document_->setPanelsModified(true);
    runs_->parse(program.args);
    plan();
    emit becameProgram(true);
}
