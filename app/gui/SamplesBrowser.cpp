#include "SamplesBrowser.h"

#include "core/io/PlaygroundFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>

SamplesBrowser::SamplesBrowser(QWidget* parent) : QTreeWidget(parent) {
    setColumnCount(1);
    setHeaderHidden(true);
    setRootIsDecorated(false);
    connect(this, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { emit openRequested(item->data(0, Qt::UserRole).toString()); });
}

QString SamplesBrowser::defaultFolder() {
    if (const QString env = qEnvironmentVariable("KERNELPAD_SAMPLES_DIR"); !env.isEmpty()) return env;
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/kernelpad/samples");
    if (QFileInfo::exists(installed)) return QDir(installed).absolutePath();
    return QStringLiteral(KP_SAMPLES_DIR);
}

int SamplesBrowser::load(const QString& folder) {
    clear();
    QStringList files;
    QDirIterator it(folder, {QStringLiteral("*.kpad.json")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) files << it.next();
    files.sort();
    for (const QString& file : files) {
        // Read as any playground is: a broken sample is listed with its problem, not hidden.
        auto* item = new QTreeWidgetItem(this);
        item->setData(0, Qt::UserRole, file);
        const QString name = QFileInfo(file).dir().dirName();
        try {
            const auto playground = kp::io::readPlayground(file.toStdString());
            item->setText(0, playground.title.empty() ? name : QString::fromStdString(playground.title));
            QString tip = name;
            if (!playground.lesson.empty()) {
                QFile lesson(QDir(QFileInfo(file).dir()).filePath(QString::fromStdString(playground.lesson)));
                if (!lesson.exists()) lesson.setFileName(QDir(folder + QStringLiteral("/..")).filePath(QString::fromStdString(playground.lesson)));
                if (lesson.open(QIODevice::ReadOnly)) tip += QStringLiteral("\n\n") + QString::fromUtf8(lesson.read(600));
            }
            item->setToolTip(0, tip);
        } catch (const std::exception& e) {
            item->setText(0, tr("%1 (cannot be read)").arg(name));
            item->setToolTip(0, QString::fromUtf8(e.what()));
        }
        item->setData(0, Qt::UserRole + 1, name);
    }
    return topLevelItemCount();
}

QString SamplesBrowser::pathOf(const QString& name) const {
    for (int i = 0; i < topLevelItemCount(); ++i) {
        const auto* item = topLevelItem(i);
        if (item->text(0) == name || item->data(0, Qt::UserRole + 1).toString() == name) return item->data(0, Qt::UserRole).toString();
    }
    return {};
}
