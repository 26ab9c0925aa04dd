#include "interrupt_watcher.hpp"

#include "jvm_bridge.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace moraine {

namespace {

struct Entry {
	duckdb::ClientContext *context;
	bool signalled;
};

// Allocated once and never destroyed: the watcher thread waits on them until the process ends, and destroying a
// condition variable that a thread waits on blocks exit forever.
struct Registry {
	std::mutex lock;
	std::condition_variable work;
	std::unordered_map<jlong, Entry> calls;
	std::atomic<jlong> next_id {1};
	bool watcher_started = false;
};

Registry &registry() {
	static Registry *instance = new Registry();
	return *instance;
}

//! Polls the registered calls' contexts; an interrupted one gets its Java thread interrupted, once.
void Watch() {
	auto &jvm = Jvm::Existing();
	JNIEnv *env = jvm.Env();
	auto &state = registry();
	std::unique_lock<std::mutex> guard(state.lock);
	while (true) {
		state.work.wait(guard, [&state] { return !state.calls.empty(); });
		for (auto &call : state.calls) {
			if (!call.second.signalled && call.second.context->interrupted) {
				call.second.signalled = true;
				// Under the lock, so the call cannot end (and its context go) meanwhile; the bridge only sets a flag.
				env->CallStaticVoidMethod(jvm.bridge, jvm.interrupt_call, call.first);
				if (env->ExceptionCheck()) {
					env->ExceptionClear();
				}
			}
		}
		state.work.wait_for(guard, std::chrono::milliseconds(20));
	}
}

} // namespace

InterruptibleCall::InterruptibleCall(duckdb::ClientContext &context) : id(registry().next_id++) {
	auto &state = registry();
	std::lock_guard<std::mutex> guard(state.lock);
	if (!state.watcher_started) {
		std::thread(Watch).detach();
		state.watcher_started = true;
	}
	state.calls[id] = Entry {&context, false};
	state.work.notify_all();
}

InterruptibleCall::~InterruptibleCall() {
	auto &state = registry();
	std::lock_guard<std::mutex> guard(state.lock);
	state.calls.erase(id);
}

} // namespace moraine
