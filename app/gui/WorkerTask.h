// Sends requests to one worker process (core/worker/WorkerClient.h) from a thread of its own, so that
// the GUI thread never waits for a compile or a run: submit() returns at once, finished() arrives on the
// GUI thread with the request's id. RunController keeps one each for runs, sweeps, compiling as you type
// and the compiled code.
#pragma once

#include "core/worker/WorkerClient.h"

#include <QObject>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

using WorkerResultPtr = std::shared_ptr<kp::worker::WorkerResult>; // one receiver: it may move the arrays out
Q_DECLARE_METATYPE(WorkerResultPtr)

class WorkerTask : public QObject {
    Q_OBJECT
public:
    explicit WorkerTask(
        std::filesystem::path workerExecutable = kp::worker::WorkerClient::defaultExecutable(),
        QObject* parent = nullptr);
    ~WorkerTask() override; // stops the request in progress and ends the worker

    // Queues a request and returns its id. With `replacePending`, requests still waiting are dropped
    // (compiling as you type wants only the newest text).
    quint64 submit(kp::worker::WorkerRequest request, bool replacePending = false);
    // Ends the request in progress (the worker is killed; the next request starts a fresh one) and
    // drops those waiting. Returns at once; finished() reports the stopped request.
    void stop();
    bool busy() const;

signals:
    void started(quint64 id);
    void finished(quint64 id, WorkerResultPtr result);

private:
    void loop();

    kp::worker::WorkerClient client_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::pair<quint64, kp::worker::WorkerRequest>> queue_;
    quint64 nextId_ = 1;
    quint64 running_ = 0; // id of the request in progress, 0 when idle
    bool quit_ = false;
    std::thread thread_;
};
