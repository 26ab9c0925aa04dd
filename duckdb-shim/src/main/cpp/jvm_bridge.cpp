#include "jvm_bridge.hpp"

#include "duckdb/common/exception/catalog_exception.hpp"
#include "duckdb/common/exception/transaction_exception.hpp"

#include <dlfcn.h>
#include <mutex>
#include <thread>

namespace moraine {

using duckdb::IOException;
using duckdb::InternalException;
using duckdb::InvalidInputException;

static const char *BRIDGE_CLASS = "io/moraine/duckdb/ext/NativeBridge";
typedef jint (*GetCreatedVMs)(JavaVM **, jsize, jsize *);
typedef jint (*CreateVM)(JavaVM **, void **, void *);

static std::mutex instance_lock;
static Jvm *instance = nullptr;

//! Detaches a thread this bridge attached when the thread ends (JNI requires it before a native thread exits).
struct ThreadAttachment {
	JavaVM *vm = nullptr;
	~ThreadAttachment() {
		if (vm) {
			vm->DetachCurrentThread();
		}
	}
};
static thread_local ThreadAttachment attachment;

static JavaVM *RunningVm() {
	auto lookup = reinterpret_cast<GetCreatedVMs>(dlsym(RTLD_DEFAULT, "JNI_GetCreatedJavaVMs"));
	if (!lookup) {
		// A host may have loaded libjvm without RTLD_GLOBAL.
		void *handle = dlopen("libjvm.so", RTLD_NOW | RTLD_NOLOAD);
		if (handle) {
			lookup = reinterpret_cast<GetCreatedVMs>(dlsym(handle, "JNI_GetCreatedJavaVMs"));
		}
	}
	if (!lookup) {
		return nullptr;
	}
	JavaVM *vm = nullptr;
	jsize count = 0;
	if (lookup(&vm, 1, &count) != JNI_OK || count == 0) {
		return nullptr;
	}
	return vm;
}

static std::string Setting(const std::string &value, const char *environment) {
	if (!value.empty()) {
		return value;
	}
	const char *from_environment = getenv(environment);
	return from_environment ? std::string(from_environment) : std::string();
}

//! Starts a JVM in a host without one. It runs on a thread of its own, never the host's primordial thread.
static JavaVM *CreateVm(const JvmLaunch &launch) {
	auto java_home = Setting(launch.java_home, "MORAINE_JAVA_HOME");
	auto classpath = Setting(launch.classpath, "MORAINE_CLASSPATH");
	if (java_home.empty() || classpath.empty()) {
		throw InvalidInputException(
		    "moraine: this process runs no Java VM, so the extension must start one. Set moraine_java_home (a JDK 25 "
		    "directory) and moraine_classpath (the moraine-duckdb jar) with SET (they are global settings) before the "
		    "ATTACH, or the environment variables MORAINE_JAVA_HOME and MORAINE_CLASSPATH");
	}
	auto library = java_home + "/lib/server/libjvm.so";
	void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
	if (!handle) {
		throw InvalidInputException("moraine: cannot load the Java VM from moraine_java_home: %s", dlerror());
	}
	auto create = reinterpret_cast<CreateVM>(dlsym(handle, "JNI_CreateJavaVM"));
	if (!create) {
		throw InvalidInputException("moraine: %s has no JNI_CreateJavaVM", library);
	}
	// SLF4J (Arrow's and Hadoop's logging) finds no provider on the jar's class path and would say so on the host's
	// stderr: it gets the no-operation provider explicitly, and reports only errors about itself.
	std::vector<std::string> options = {"-Djava.class.path=" + classpath,
	                                    "-Xrs",
	                                    "--enable-native-access=ALL-UNNAMED",
	                                    "--sun-misc-unsafe-memory-access=allow",
	                                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
	                                    "-Dslf4j.provider=org.slf4j.helpers.NOP_FallbackServiceProvider",
	                                    "-Dslf4j.internal.verbosity=ERROR"};
	std::vector<JavaVMOption> vm_options;
	for (auto &option : options) {
		vm_options.push_back(JavaVMOption {const_cast<char *>(option.c_str()), nullptr});
	}
	JavaVMInitArgs args;
	args.version = JNI_VERSION_10;
	args.nOptions = (jint)vm_options.size();
	args.options = vm_options.data();
	args.ignoreUnrecognized = JNI_FALSE;
	JavaVM *vm = nullptr;
	jint result = JNI_ERR;
	std::thread starter([&]() {
		JNIEnv *env = nullptr;
		result = create(&vm, reinterpret_cast<void **>(&env), &args);
		if (result == JNI_OK) {
			vm->DetachCurrentThread();
		}
	});
	starter.join();
	if (result != JNI_OK) {
		throw InvalidInputException("moraine: starting the Java VM from %s failed (JNI code %d)", library, result);
	}
	return vm;
}

Jvm &Jvm::Get(const JvmLaunch &launch) {
	std::lock_guard<std::mutex> guard(instance_lock);
	if (!instance) {
		JavaVM *vm = RunningVm();
		if (!vm) {
			vm = CreateVm(launch);
		}
		auto bridge = new Jvm(vm);
		try {
			bridge->ResolveBridge(bridge->Env());
		} catch (...) {
			delete bridge;
			throw;
		}
		instance = bridge;
	}
	return *instance;
}

Jvm &Jvm::Existing() {
	std::lock_guard<std::mutex> guard(instance_lock);
	if (!instance) {
		throw InvalidInputException("moraine: no moraine catalog has been attached in this process yet");
	}
	return *instance;
}

Jvm::Jvm(JavaVM *vm_p) : vm(vm_p) {
}

JNIEnv *Jvm::Env() {
	JNIEnv *env = nullptr;
	if (vm->GetEnv(reinterpret_cast<void **>(&env), JNI_VERSION_10) == JNI_OK) {
		return env;
	}
	JavaVMAttachArgs args {JNI_VERSION_10, const_cast<char *>("duckdb-moraine"), nullptr};
	if (vm->AttachCurrentThreadAsDaemon(reinterpret_cast<void **>(&env), &args) != JNI_OK) {
		throw InternalException("moraine: cannot attach a DuckDB thread to the Java VM");
	}
	attachment.vm = vm;
	return env;
}

//! Finds the bridge class on the attaching (Java or starter-created) thread: through the loader of the calling
//! native frame, else through the thread's context class loader (application servers, plugin loaders).
static jclass FindBridge(JNIEnv *env) {
	jclass found = env->FindClass(BRIDGE_CLASS);
	if (found) {
		return found;
	}
	env->ExceptionClear();
	jclass thread_class = env->FindClass("java/lang/Thread");
	jmethodID current = env->GetStaticMethodID(thread_class, "currentThread", "()Ljava/lang/Thread;");
	jobject thread = env->CallStaticObjectMethod(thread_class, current);
	jmethodID loader_of = env->GetMethodID(thread_class, "getContextClassLoader", "()Ljava/lang/ClassLoader;");
	jobject loader = env->CallObjectMethod(thread, loader_of);
	if (env->ExceptionCheck() || !loader) {
		env->ExceptionClear();
		return nullptr;
	}
	jclass loader_class = env->FindClass("java/lang/ClassLoader");
	jmethodID load = env->GetMethodID(loader_class, "loadClass", "(Ljava/lang/String;)Ljava/lang/Class;");
	auto name = env->NewStringUTF("io.moraine.duckdb.ext.NativeBridge");
	auto loaded = static_cast<jclass>(env->CallObjectMethod(loader, load, name));
	if (env->ExceptionCheck()) {
		env->ExceptionClear();
		return nullptr;
	}
	return loaded;
}

void Jvm::ResolveBridge(JNIEnv *env) {
	LocalFrame frame(env);
	jclass found = FindBridge(env);
	if (!found) {
		throw InvalidInputException("moraine: the Java side (class io.moraine.duckdb.ext.NativeBridge) is not on this "
		                            "JVM's class path; add the moraine-duckdb jar to it");
	}
	bridge = static_cast<jclass>(env->NewGlobalRef(found));
	struct Method {
		jmethodID *id;
		const char *name;
		const char *signature;
	};
	Method methods[] = {
	    {&open_catalog, "open", "(Ljava/lang/String;Ljava/lang/String;[Ljava/lang/String;)J"},
	    {&close_catalog, "close", "(J)V"},
	    {&open_metadata_schema, "openMetadataSchema", "(JLjava/lang/String;Z)J"},
	    {&new_lake_data_path, "newLakeDataPath",
	     "(Ljava/lang/String;Ljava/lang/String;[Ljava/lang/String;)Ljava/lang/String;"},
	    {&list_tables, "tables", "(J)[Ljava/lang/String;"},
	    {&serves_table, "servesTable", "(JLjava/lang/String;)Z"},
	    {&table_schema, "tableSchema", "(JLjava/lang/String;Ljava/lang/String;J)V"},
	    {&scan_open, "scanOpen", "(JJLjava/lang/String;Ljava/lang/String;[IZ[JJ)J"},
	    {&tx_begin, "txBegin", "(J)J"},
	    {&tx_commit, "txCommit", "(JJ)V"},
	    {&tx_rollback, "txRollback", "(J)V"},
	    {&insert_rows, "insert", "(JLjava/lang/String;Ljava/lang/String;JJ)J"},
	    {&update_rows, "update", "(JLjava/lang/String;Ljava/lang/String;[IJJ[J)J"},
	    {&delete_rows, "delete", "(JLjava/lang/String;Ljava/lang/String;[J)J"},
	    {&create_table, "createTable", "(JLjava/lang/String;Ljava/lang/String;J[Ljava/lang/String;[Ljava/lang/String;)Z"},
	    {&drop_table, "dropTable", "(JLjava/lang/String;Ljava/lang/String;)Z"},
	    {&scan_next, "scanNext", "(JJJ)Z"},
	    {&column_range, "columnRange", "(JJLjava/lang/String;Ljava/lang/String;IJ)[J"},
	    {&scan_close, "scanClose", "(J)V"},
	    {&interrupt_call, "interruptCall", "(J)V"},
	    {&error_code, "errorCode", "(Ljava/lang/Throwable;)I"},
	    {&error_message, "errorMessage", "(Ljava/lang/Throwable;)Ljava/lang/String;"},
	    {&create_checkpoint, "createCheckpoint", "(JJ)[Ljava/lang/String;"},
	    {&list_checkpoints, "checkpoints", "(Ljava/lang/String;[Ljava/lang/String;)[Ljava/lang/String;"},
	    {&delete_checkpoint, "deleteCheckpoint", "(Ljava/lang/String;Ljava/lang/String;[Ljava/lang/String;)V"},
	};
	for (auto &method : methods) {
		*method.id = env->GetStaticMethodID(bridge, method.name, method.signature);
		if (!*method.id) {
			env->ExceptionClear();
			throw InternalException("moraine: the Java side lacks %s%s; the jar does not match the extension",
			                        method.name, method.signature);
		}
	}
}

void Jvm::Check(JNIEnv *env) {
	if (!env->ExceptionCheck()) {
		return;
	}
	jthrowable thrown = env->ExceptionOccurred();
	env->ExceptionClear();
	LocalFrame frame(env);
	jint code = env->CallStaticIntMethod(bridge, error_code, thrown);
	auto message_ref = static_cast<jstring>(env->CallStaticObjectMethod(bridge, error_message, thrown));
	if (env->ExceptionCheck()) {
		env->ExceptionClear();
		env->DeleteLocalRef(thrown);
		throw InternalException("moraine: a Java call failed, and so did describing its error");
	}
	auto message = FromJava(env, message_ref);
	env->DeleteLocalRef(thrown);
	// RFC 0006's C ABI error table ("Code / ABI constant / Source / Shim raises"), row for row; a code it does not
	// list is a store failure, conservatively.
	switch (code) {
	case 1: // NOT_FOUND
	case 2: // ALREADY_EXISTS
	case 3: // CONSTRAINT
		throw duckdb::CatalogException(message);
	case 4: // COMMIT_CONFLICT (the message carries "conflict": DuckLake retries on it)
		throw duckdb::TransactionException(message);
	case 7: // INVALID_ARGUMENT
		throw InvalidInputException(message);
	case 8: // INTERNAL
		throw InternalException(message);
	case 9: // INTERRUPTED
		throw duckdb::InterruptException();
	case 10: // RETRY_EXHAUSTED (terminal: its message carries none of DuckLake's retry words)
		throw duckdb::TransactionException(message);
	case 13: // SNAPSHOT_EXPIRED
		throw duckdb::CatalogException(message);
	case 14: // UNSUPPORTED
		throw duckdb::NotImplementedException(message);
	case 17: // LOCATION_NOT_ALLOWED
		throw duckdb::PermissionException(message);
	default: // 5 CORRUPTION, 6 STORE, 11 FENCED, 12 MIGRATION, 15 OPEN_RACED, 16 COMMIT_OUTCOME_UNKNOWN, and any later code
		throw IOException(message);
	}
}

LocalFrame::LocalFrame(JNIEnv *env_p, jint capacity) : env(env_p) {
	if (env->PushLocalFrame(capacity) != 0) {
		env->ExceptionClear();
		throw InternalException("moraine: out of JNI local references");
	}
}

LocalFrame::~LocalFrame() {
	env->PopLocalFrame(nullptr);
}

jstring ToJava(JNIEnv *env, const std::string &text) {
	// Modified UTF-8 differs from UTF-8 only for NUL and supplementary characters; store URIs and ids have neither.
	return env->NewStringUTF(text.c_str());
}

std::string FromJava(JNIEnv *env, jstring text) {
	if (!text) {
		return std::string();
	}
	// Through getBytes(UTF-8): JNI's own GetStringUTFChars yields modified UTF-8.
	jclass string_class = env->GetObjectClass(text);
	jmethodID get_bytes = env->GetMethodID(string_class, "getBytes", "(Ljava/lang/String;)[B");
	auto charset = env->NewStringUTF("UTF-8");
	auto bytes = static_cast<jbyteArray>(env->CallObjectMethod(text, get_bytes, charset));
	if (env->ExceptionCheck() || !bytes) {
		env->ExceptionClear();
		throw InternalException("moraine: cannot read a Java string");
	}
	auto length = env->GetArrayLength(bytes);
	std::string result(length, '\0');
	env->GetByteArrayRegion(bytes, 0, length, reinterpret_cast<jbyte *>(&result[0]));
	env->DeleteLocalRef(bytes);
	env->DeleteLocalRef(charset);
	env->DeleteLocalRef(string_class);
	return result;
}

std::vector<std::string> FromJava(JNIEnv *env, jobjectArray strings) {
	std::vector<std::string> result;
	if (!strings) {
		return result;
	}
	auto length = env->GetArrayLength(strings);
	for (jsize i = 0; i < length; i++) {
		auto element = static_cast<jstring>(env->GetObjectArrayElement(strings, i));
		result.push_back(FromJava(env, element));
		env->DeleteLocalRef(element);
	}
	return result;
}

jobjectArray ToJava(JNIEnv *env, const std::vector<std::string> &strings) {
	jclass string_class = env->FindClass("java/lang/String");
	auto result = env->NewObjectArray((jsize)strings.size(), string_class, nullptr);
	if (!result) {
		env->ExceptionClear();
		throw InternalException("moraine: cannot make a Java string array");
	}
	for (size_t i = 0; i < strings.size(); i++) {
		auto element = ToJava(env, strings[i]);
		env->SetObjectArrayElement(result, (jsize)i, element);
		env->DeleteLocalRef(element);
	}
	env->DeleteLocalRef(string_class);
	return result;
}

} // namespace moraine
