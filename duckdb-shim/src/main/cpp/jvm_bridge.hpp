// The one door from DuckDB into the Java core: finds (or creates) the JVM, attaches DuckDB's threads to it once,
// holds the bridge class and its method ids as global references, and turns Java exceptions into DuckDB exceptions.
#pragma once

#include "duckdb.hpp"

#include <jni.h>
#include <string>
#include <vector>

namespace moraine {

//! How a non-JVM host (Python, the CLI) starts the JVM: the settings moraine_java_home and moraine_classpath, or the
//! environment variables MORAINE_JAVA_HOME and MORAINE_CLASSPATH.
struct JvmLaunch {
	std::string java_home;
	std::string classpath;
};

class Jvm {
public:
	//! The process's bridge: the running JVM (a JDBC host) or one created from `launch` (any other host).
	static Jvm &Get(const JvmLaunch &launch);
	//! The bridge once Get has succeeded; throws if no attach has reached the JVM yet.
	static Jvm &Existing();

	//! The calling thread's JNIEnv; a DuckDB thread is attached once, as a daemon, and detached when it exits.
	JNIEnv *Env();
	//! Throws the DuckDB exception matching a pending Java exception (RFC 0006's error table), message intact.
	void Check(JNIEnv *env);

	jclass bridge;
	jmethodID open_catalog, close_catalog, list_tables, table_schema, scan_open, scan_next, scan_close, error_code,
	    error_message, create_checkpoint, list_checkpoints, delete_checkpoint, interrupt_call, tx_begin, tx_commit,
	    tx_rollback, insert_rows, update_rows, delete_rows, create_table, drop_table, column_range, open_metadata_schema,
	    new_lake_data_path, serves_table;

private:
	explicit Jvm(JavaVM *vm);
	void ResolveBridge(JNIEnv *env);
	JavaVM *vm;
};

//! A JNI local frame for one call: every local reference made inside it is released when it closes.
class LocalFrame {
public:
	LocalFrame(JNIEnv *env, jint capacity = 32);
	~LocalFrame();

private:
	JNIEnv *env;
};

jstring ToJava(JNIEnv *env, const std::string &text);
std::string FromJava(JNIEnv *env, jstring text);
std::vector<std::string> FromJava(JNIEnv *env, jobjectArray strings);
jobjectArray ToJava(JNIEnv *env, const std::vector<std::string> &strings);

} // namespace moraine
