// Cancels Java calls that block while DuckDB interrupts their statement (JDBC Statement.cancel, Ctrl-C): a call is
// registered for its duration, and one watcher thread asks the bridge to interrupt the Java thread running it. A call
// on DuckLake's metadata connection also ends when the user's statement it works for is interrupted (context_links.hpp).
#pragma once

#include "duckdb.hpp"

#include <jni.h>

namespace moraine {

class InterruptibleCall {
public:
	//! A call on `context` for the moraine attach named `catalog`.
	InterruptibleCall(duckdb::ClientContext &context, const duckdb::string &catalog);
	~InterruptibleCall();

	//! The id the Java side registers its thread under for this call.
	jlong id;

private:
	InterruptibleCall(const InterruptibleCall &) = delete;
	InterruptibleCall &operator=(const InterruptibleCall &) = delete;
};

} // namespace moraine
