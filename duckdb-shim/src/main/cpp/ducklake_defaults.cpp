#include "ducklake_defaults.hpp"

#include "checkpoint_functions.hpp"
#include "jvm_bridge.hpp"
#include "store_secrets.hpp"

#include "duckdb/main/attached_database.hpp"
#include "duckdb/main/config.hpp"
#include "duckdb/parser/parsed_data/attach_info.hpp"
#include "duckdb/planner/extension_callback.hpp"
#include "duckdb/storage/storage_extension.hpp"

namespace moraine {

static const string MORAINE_PREFIX = "moraine:";

//! DuckLake's own attach and transaction manager, which the wrapper hands every attach to.
struct DuckLakeOriginal : public StorageExtensionInfo {
	decltype(StorageExtension::attach) attach = nullptr;
	decltype(StorageExtension::create_transaction_manager) create_transaction_manager = nullptr;
	shared_ptr<StorageExtensionInfo> storage_info;
};

//! Adds DATA_PATH '<store path>.files/' to the options of a DuckLake attach of a moraine store that gives none, when
//! the lake it names does not exist yet (an existing lake keeps the data path it recorded).
static void AddDefaultDataPath(ClientContext &context, const string &store, AttachOptions &options) {
	string metadata_schema;
	vector<string> java_options;
	for (auto &option : options.options) {
		auto key = StringUtil::Lower(option.first);
		if (key == "data_path") {
			return;
		}
		if (key == "metadata_schema") {
			metadata_schema = option.second.ToString();
		} else if (key == "meta_store_timeout") {
			// the look at the store obeys the attach's store timeout, as the attach itself does
			java_options.insert(java_options.end(), {"store_timeout", TimeoutText(option.second)});
		} else if (key == "meta_wal_path") {
			auto wal_path = option.second.ToString();
			java_options.insert(java_options.end(), {"wal_path", wal_path});
			AddS3Secret(context, wal_path, "wal_secret.", java_options);
		}
	}
	AddS3Secret(context, store, "secret.", java_options);
	// The JVM starts here, in the context of the ATTACH (the one that sees the user's SET moraine_*), if it has not.
	auto &jvm = Jvm::Get(LaunchSettings(context));
	auto env = jvm.Env();
	string data_path;
	{
		LocalFrame frame(env);
		auto path = static_cast<jstring>(env->CallStaticObjectMethod(jvm.bridge, jvm.new_lake_data_path, ToJava(env, store),
		                                                             ToJava(env, metadata_schema),
		                                                             ToJava(env, java_options)));
		jvm.Check(env);
		data_path = FromJava(env, path);
	}
	if (!data_path.empty()) {
		options.options["data_path"] = Value(data_path);
	}
}

static unique_ptr<Catalog> DuckLakeAttachWithDefaults(optional_ptr<StorageExtensionInfo> storage_info,
                                                      ClientContext &context, AttachedDatabase &db, const string &name,
                                                      AttachInfo &info, AttachOptions &options) {
	auto &original = static_cast<DuckLakeOriginal &>(*storage_info);
	if (StringUtil::StartsWith(StringUtil::Lower(info.path), MORAINE_PREFIX)) {
		AddDefaultDataPath(context, info.path.substr(MORAINE_PREFIX.size()), options);
	}
	return original.attach(original.storage_info.get(), context, db, name, info, options);
}

static unique_ptr<TransactionManager> DuckLakeTransactionManager(optional_ptr<StorageExtensionInfo> storage_info,
                                                                 AttachedDatabase &db, Catalog &catalog) {
	auto &original = static_cast<DuckLakeOriginal &>(*storage_info);
	return original.create_transaction_manager(original.storage_info.get(), db, catalog);
}

class WrappedDuckLakeStorage : public StorageExtension {
public:
	explicit WrappedDuckLakeStorage(StorageExtension &ducklake) {
		auto original = make_shared_ptr<DuckLakeOriginal>();
		original->attach = ducklake.attach;
		original->create_transaction_manager = ducklake.create_transaction_manager;
		original->storage_info = ducklake.storage_info;
		attach = DuckLakeAttachWithDefaults;
		create_transaction_manager = DuckLakeTransactionManager;
		storage_info = std::move(original);
	}
};

static void WrapRegisteredDuckLake(DBConfig &config) {
	auto ducklake = StorageExtension::Find(config, "ducklake");
	if (!ducklake || dynamic_cast<WrappedDuckLakeStorage *>(ducklake.get())) {
		return;
	}
	StorageExtension::Register(config, "ducklake", make_shared_ptr<WrappedDuckLakeStorage>(*ducklake));
}

//! Wraps DuckLake's attach when DuckLake loads after this extension.
class DuckLakeLoadedCallback : public ExtensionCallback {
public:
	void OnExtensionLoaded(DatabaseInstance &db, const string &name) override {
		if (StringUtil::CIEquals(name, "ducklake")) {
			WrapRegisteredDuckLake(DBConfig::GetConfig(db));
		}
	}
};

void WrapDuckLakeAttach(DatabaseInstance &instance) {
	auto &config = DBConfig::GetConfig(instance);
	WrapRegisteredDuckLake(config);
	ExtensionCallback::Register(config, make_shared_ptr<DuckLakeLoadedCallback>());
}

} // namespace moraine
