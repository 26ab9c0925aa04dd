#include "context_links.hpp"

#include "duckdb/catalog/catalog_search_path.hpp"
#include "duckdb/main/client_context.hpp"
#include "duckdb/main/client_context_state.hpp"
#include "duckdb/main/client_data.hpp"
#include "duckdb/main/connection_manager.hpp"
#include "duckdb/main/database.hpp"
#include "duckdb/planner/extension_callback.hpp"

#include <mutex>
#include <thread>
#include <unordered_map>

namespace moraine {

using duckdb::ClientContext;

namespace {

const char *const STATE_KEY = "moraine_context_link";

//! The tasks running on this thread, innermost last (DuckDB brackets each task on the thread running it).
thread_local std::vector<ClientContext *> running_tasks;

//! The queries begun and not yet ended, by context, with the thread that began them and in which order. A query can
//! end on another thread than the one that began it (a result closed elsewhere), so this is not thread-local.
struct BegunQuery {
	std::thread::id thread;
	uint64_t order;
	duckdb::weak_ptr<ClientContext> context;
};

struct Queries {
	std::mutex lock;
	std::unordered_map<ClientContext *, BegunQuery> begun;
	uint64_t next_order = 0;
};

Queries &queries() {
	// Never destroyed: a query may end while the process exits.
	static Queries *instance = new Queries();
	return *instance;
}

//! The context whose work runs on this thread now, other than `self`: its innermost task, else its newest query.
duckdb::weak_ptr<ClientContext> CurrentWork(ClientContext &self) {
	for (auto task = running_tasks.rbegin(); task != running_tasks.rend(); ++task) {
		if (*task != &self) {
			return (*task)->shared_from_this();
		}
	}
	auto &state = queries();
	std::lock_guard<std::mutex> guard(state.lock);
	auto thread = std::this_thread::get_id();
	const BegunQuery *newest = nullptr;
	for (auto &query : state.begun) {
		if (query.first != &self && query.second.thread == thread &&
		    (!newest || query.second.order > newest->order)) {
			newest = &query.second;
		}
	}
	return newest ? newest->context : duckdb::weak_ptr<ClientContext>();
}

//! Registered on every connection: brackets its queries and tasks, and remembers which context opened it.
class ContextLink : public duckdb::ClientContextState {
public:
	explicit ContextLink(duckdb::weak_ptr<ClientContext> opener_p) : opener(std::move(opener_p)) {
	}

	void QueryBegin(ClientContext &context) override {
		auto &state = queries();
		std::lock_guard<std::mutex> guard(state.lock);
		state.begun[&context] = BegunQuery {std::this_thread::get_id(), state.next_order++, context.shared_from_this()};
	}

	void QueryEnd(ClientContext &context) override {
		auto &state = queries();
		std::lock_guard<std::mutex> guard(state.lock);
		state.begun.erase(&context);
	}

	void OnTaskStart(ClientContext &context) override {
		running_tasks.push_back(&context);
	}

	void OnTaskStop(ClientContext &context) override {
		if (!running_tasks.empty() && running_tasks.back() == &context) {
			running_tasks.pop_back();
		}
	}

	const duckdb::weak_ptr<ClientContext> opener;
};

class ContextLinkCallback : public duckdb::ExtensionCallback {
public:
	void OnConnectionOpened(ClientContext &context) override {
		context.registered_state->Insert(STATE_KEY, duckdb::make_shared_ptr<ContextLink>(Root(CurrentWork(context))));
	}

private:
	//! The user's context behind `work`: the work on the opening thread may itself be a connection another opened
	//! (a query of an earlier DuckLake metadata connection still open on that thread).
	static duckdb::weak_ptr<ClientContext> Root(duckdb::weak_ptr<ClientContext> work) {
		for (int hops = 0; hops < 8; hops++) {
			auto context = work.lock();
			if (!context) {
				return work;
			}
			auto link = context->registered_state->Get<ContextLink>(STATE_KEY);
			if (!link || link->opener.expired()) {
				return work;
			}
			work = link->opener;
		}
		return work;
	}

	void OnConnectionClosed(ClientContext &context) override {
		auto &state = queries();
		std::lock_guard<std::mutex> guard(state.lock);
		state.begun.erase(&context);
	}
};

} // namespace

void RegisterContextLinks(duckdb::DatabaseInstance &db) {
	duckdb::ExtensionCallback::Register(duckdb::DBConfig::GetConfig(db), duckdb::make_shared_ptr<ContextLinkCallback>());
	// Connections open already (the one loading the extension) were opened by no one we know of.
	for (auto &connection : duckdb::ConnectionManager::Get(db).GetConnectionList()) {
		connection->registered_state->GetOrCreate<ContextLink>(STATE_KEY, duckdb::weak_ptr<ClientContext>());
	}
}

duckdb::weak_ptr<ClientContext> DrivingContext(ClientContext &context, const duckdb::string &catalog) {
	auto link = context.registered_state->Get<ContextLink>(STATE_KEY);
	if (!link) {
		return duckdb::weak_ptr<ClientContext>();
	}
	// Only DuckLake's metadata connection of this attach: DuckLake points its search path at the metadata catalog
	// right after opening it. A user's connection opened while another's query ran on the same thread does not.
	auto &search_path = *duckdb::ClientData::Get(context).catalog_search_path;
	if (!duckdb::StringUtil::CIEquals(search_path.GetDefault().catalog, catalog)) {
		return duckdb::weak_ptr<ClientContext>();
	}
	return link->opener;
}

bool Interrupted(ClientContext &context, const duckdb::weak_ptr<ClientContext> &driver) {
	if (context.interrupted) {
		return true;
	}
	auto user = driver.lock();
	return user && user->interrupted;
}

} // namespace moraine
