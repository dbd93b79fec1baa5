#include "WorkerTask.h"

#include <QMetaObject>

WorkerTask::WorkerTask(std::filesystem::path workerExecutable, QObject* parent)
    : QObject(parent), client_(std::move(workerExecutable)) {
    qRegisterMetaType<WorkerResultPtr>();
    client_.setNiceIncrement(5); // the window stays the machine's first call on the cores
    thread_ = std::thread([this] { loop(); });
}

WorkerTask::~WorkerTask() {
    {
        const std::lock_guard lock(mutex_);
        quit_ = true;
        queue_.clear();
        if (running_ != 0) client_.stop();
    }
    wake_.notify_all();
    thread_.join();
}

quint64 WorkerTask::submit(kp::worker::WorkerRequest request, bool replacePending) {
    quint64 id = 0;
    {
        const std::lock_guard lock(mutex_);
        if (replacePending) queue_.clear();
        id = nextId_++;
        queue_.emplace_back(id, std::move(request));
    }
    wake_.notify_one();
    return id;
}

void WorkerTask::stop() {
    const std::lock_guard lock(mutex_);
    queue_.clear();
    // Only a request taken from the queue is stopped: an idle client would carry the stop to the next one.
    if (running_ != 0) client_.stop();
}

bool WorkerTask::busy() const {
    const std::lock_guard lock(mutex_);
    return running_ != 0 || !queue_.empty();
}

void WorkerTask::loop() {
    for (;;) {
        std::pair<quint64, kp::worker::WorkerRequest> next;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return quit_ || !queue_.empty(); });
            if (quit_) return;
            next = std::move(queue_.front());
            queue_.pop_front();
            running_ = next.first;
        }
        const quint64 id = next.first;
        QMetaObject::invokeMethod(
            this, [this, id] { emit started(id); }, Qt::QueuedConnection);
        auto result = std::make_shared<kp::worker::WorkerResult>(client_.run(next.second));
        {
            const std::lock_guard lock(mutex_);
            running_ = 0;
        }
        QMetaObject::invokeMethod(
            this, [this, id, result] { emit finished(id, result); }, Qt::QueuedConnection);
    }
}
