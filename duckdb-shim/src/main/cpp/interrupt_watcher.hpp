// Cancels Java calls that block while DuckDB interrupts their statement (JDBC Statement.cancel, Ctrl-C): a call is
// registered for its duration, and one watcher thread asks the bridge to interrupt the Java thread running it.
#pragma once

#include "duckdb.hpp"

#include <jni.h>

namespace moraine {

class InterruptibleCall {
public:
	explicit InterruptibleCall(duckdb::ClientContext &context);
	~InterruptibleCall();

	//! The id the Java side registers its thread under for this call.
	jlong id;

private:
	InterruptibleCall(const InterruptibleCall &) = delete;
	InterruptibleCall &operator=(const InterruptibleCall &) = delete;
};

} // namespace moraine
