// Entry point of moraine.duckdb_extension: registers the storage extension behind ATTACH '<uri>' (TYPE moraine) and
// ATTACH 'moraine:<uri>', the JVM launch settings and the checkpoint table functions, and wraps DuckLake's attach
// (ducklake_defaults.hpp).
#include "checkpoint_functions.hpp"
#include "context_links.hpp"
#include "ducklake_defaults.hpp"
#include "jvm_bridge.hpp"
#include "moraine_catalog.hpp"
#include "store_secrets.hpp"

#include "duckdb/main/attached_database.hpp"
#include "duckdb/main/config.hpp"
#include "duckdb/main/extension/extension_loader.hpp"
#include "duckdb/storage/storage_extension.hpp"

namespace moraine {

static string StringSetting(ClientContext &context, const string &name) {
	Value value;
	if (context.TryGetCurrentSetting(name, value) && !value.IsNull()) {
		return value.ToString();
	}
	return string();
}

JvmLaunch LaunchSettings(ClientContext &context) {
	return JvmLaunch {StringSetting(context, "moraine_java_home"), StringSetting(context, "moraine_classpath")};
}

static string AccessModeName(AccessMode mode) {
	switch (mode) {
	case AccessMode::READ_ONLY:
		return "READ_ONLY";
	case AccessMode::READ_WRITE:
		return "READ_WRITE";
	default:
		return "AUTOMATIC";
	}
}

//! STORE_TIMEOUT as the Java side parses it: a string as given ('30s', '500ms'), an INTERVAL in milliseconds.
string TimeoutText(const Value &value) {
	if (value.type().id() == LogicalTypeId::INTERVAL) {
		auto micros = Interval::GetMicro(value.GetValue<interval_t>());
		return std::to_string(micros <= 0 ? 0 : (micros + 999) / 1000) + "ms";
	}
	return value.ToString();
}

static unique_ptr<Catalog> MoraineAttach(optional_ptr<StorageExtensionInfo> storage_info, ClientContext &context,
                                         AttachedDatabase &db, const string &name, AttachInfo &info,
                                         AttachOptions &options) {
	AttachSettings settings;
	settings.uri = info.path;
	settings.mode = AccessModeName(options.access_mode);
	// Alternating keys and values for the Java side (io.moraine.duckdb.ext.AttachOptions).
	vector<string> java_options;
	for (auto &option : options.options) {
		auto key = StringUtil::Lower(option.first);
		if (key == "checkpoint") {
			settings.checkpoint_id = option.second.ToString();
			java_options.insert(java_options.end(), {key, settings.checkpoint_id});
		} else if (key == "wal_path") {
			settings.wal_path = option.second.ToString();
			java_options.insert(java_options.end(), {key, settings.wal_path});
		} else if (key == "store_timeout" || key == "max_staleness") {
			java_options.insert(java_options.end(), {key, TimeoutText(option.second)});
		} else if (key == "commit_policy" || key == "allowed_locations" || key == "writer_mode" || key == "reader_freshness") {
			java_options.insert(java_options.end(), {key, option.second.ToString()});
		} else {
			throw BinderException("moraine: unknown ATTACH option %s; a moraine attach takes READ_ONLY, READ_WRITE, "
			                      "CHECKPOINT '<id>', WAL_PATH '<uri>', STORE_TIMEOUT '<duration>' and "
			                      "COMMIT_POLICY 'rebase'|'retry', WRITER_MODE 'handoff'|'exclusive', "
			                      "READER_FRESHNESS 'on-demand'|'poll', MAX_STALENESS '<duration>' and "
			                      "ALLOWED_LOCATIONS '<uri>,<uri>'",
			                      option.first);
		}
	}
	AddS3Secret(context, settings.uri, "secret.", java_options);
	if (!settings.wal_path.empty()) {
		AddS3Secret(context, settings.wal_path, "wal_secret.", java_options);
	}
	auto &jvm = Jvm::Get(LaunchSettings(context));
	auto env = jvm.Env();
	jlong handle;
	{
		LocalFrame frame(env);
		// The core validates the combination (a checkpoint on a read-write attach, a malformed or released id) and
		// opens the store: a writer, a reader that never fences, or a reader pinned to a checkpoint.
		handle = env->CallStaticLongMethod(jvm.bridge, jvm.open_catalog, ToJava(env, settings.uri),
		                                   ToJava(env, settings.mode), ToJava(env, java_options));
		jvm.Check(env);
	}
	auto catalog = make_uniq<MoraineCatalog>(db, std::move(settings), handle);
	catalog->LoadEntries(context);
	return std::move(catalog);
}

static unique_ptr<TransactionManager> MoraineCreateTransactionManager(optional_ptr<StorageExtensionInfo> storage_info,
                                                                      AttachedDatabase &db, Catalog &catalog) {
	return make_uniq<MoraineTransactionManager>(db, catalog.Cast<MoraineCatalog>());
}

class MoraineStorageExtension : public StorageExtension {
public:
	MoraineStorageExtension() {
		attach = MoraineAttach;
		create_transaction_manager = MoraineCreateTransactionManager;
	}
};

static void Load(ExtensionLoader &loader) {
	auto &instance = loader.GetDatabaseInstance();
	auto &config = DBConfig::GetConfig(instance);
	StorageExtension::Register(config, "moraine", make_shared_ptr<MoraineStorageExtension>());
	// Global settings: the process has one JVM, and DuckLake's nested attach runs on a connection of its own, which
	// sees no session setting of the user's.
	config.AddExtensionOption("moraine_java_home",
	                          "JDK directory the moraine extension starts its Java VM from, in a host without one",
	                          LogicalType::VARCHAR, Value(), nullptr, SetScope::GLOBAL);
	config.AddExtensionOption("moraine_classpath",
	                          "Class path (the moraine-duckdb jar) of the Java VM the moraine extension starts",
	                          LogicalType::VARCHAR, Value(), nullptr, SetScope::GLOBAL);
	RegisterCheckpointFunctions(loader);
	WrapDuckLakeAttach(instance);
	// So that DuckDB's interrupt of a user's statement reaches DuckLake's metadata reads and commits for it.
	RegisterContextLinks(instance);
}

} // namespace moraine

extern "C" {
DUCKDB_CPP_EXTENSION_ENTRY(moraine, loader) {
	moraine::Load(loader);
}
}
