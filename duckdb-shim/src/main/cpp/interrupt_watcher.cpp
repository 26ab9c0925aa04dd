#include "interrupt_watcher.hpp"

#include "context_links.hpp"
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
	//! The user's context a DuckLake metadata connection's call works for (context_links.hpp), else empty.
	duckdb::weak_ptr<duckdb::ClientContext> driver;
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
	//! True while the watcher sleeps until a call registers (the only time a registration wakes it).
	bool watcher_sleeping = false;
};

Registry &registry() {
	static Registry *instance = new Registry();
	return *instance;
}

//! How often the watcher looks at the registered calls while there are any.
constexpr auto POLL_INTERVAL = std::chrono::milliseconds(20);
//! How long the watcher keeps polling after the last call ended before it sleeps until the next one registers.
constexpr auto IDLE_AFTER = std::chrono::seconds(1);

//! Polls the registered calls' contexts; an interrupted one gets its Java thread interrupted, once. While calls come
//! and go it polls and is never woken (a wake-up per call cost a context switch per JNI call); idle, it sleeps.
void Watch() {
	auto &jvm = Jvm::Existing();
	JNIEnv *env = jvm.Env();
	auto &state = registry();
	std::unique_lock<std::mutex> guard(state.lock);
	auto last_busy = std::chrono::steady_clock::now();
	while (true) {
		if (state.calls.empty() && std::chrono::steady_clock::now() - last_busy > IDLE_AFTER) {
			state.watcher_sleeping = true;
			state.work.wait(guard, [&state] { return !state.calls.empty(); });
			state.watcher_sleeping = false;
		}
		for (auto &call : state.calls) {
			if (!call.second.signalled && Interrupted(*call.second.context, call.second.driver)) {
				call.second.signalled = true;
				// Under the lock, so the call cannot end (and its context go) meanwhile; the bridge only sets a flag.
				env->CallStaticVoidMethod(jvm.bridge, jvm.interrupt_call, call.first);
				if (env->ExceptionCheck()) {
					env->ExceptionClear();
				}
			}
		}
		if (!state.calls.empty()) {
			last_busy = std::chrono::steady_clock::now();
		}
		state.work.wait_for(guard, POLL_INTERVAL);
	}
}

} // namespace

InterruptibleCall::InterruptibleCall(duckdb::ClientContext &context, const duckdb::string &catalog)
    : id(registry().next_id++) {
	auto driver = DrivingContext(context, catalog);
	auto &state = registry();
	std::lock_guard<std::mutex> guard(state.lock);
	if (!state.watcher_started) {
		std::thread(Watch).detach();
		state.watcher_started = true;
	}
	state.calls[id] = Entry {&context, std::move(driver), false};
	if (state.watcher_sleeping) {
		state.work.notify_one();
	}
}

InterruptibleCall::~InterruptibleCall() {
	auto &state = registry();
	std::lock_guard<std::mutex> guard(state.lock);
	state.calls.erase(id);
}

} // namespace moraine
