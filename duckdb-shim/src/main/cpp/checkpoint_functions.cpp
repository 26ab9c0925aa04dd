#include "checkpoint_functions.hpp"

#include "moraine_catalog.hpp"
#include "store_secrets.hpp"

#include "duckdb/main/attached_database.hpp"
#include "duckdb/main/database_manager.hpp"

namespace moraine {

namespace {

//! Which call a bound checkpoint function makes, with its arguments.
struct CheckpointCall : public TableFunctionData {
	enum class Kind { CREATE, LIST, DELETE } kind;
	string catalog_or_store;
	string id;
	int64_t lifetime_micros = 0;
};

struct CheckpointRows : public GlobalTableFunctionState {
	vector<vector<Value>> rows;
	idx_t next = 0;
};

void CheckpointColumns(vector<LogicalType> &types, vector<string> &names) {
	names = {"checkpoint_id", "manifest_id", "created_at", "expires_at"};
	types = {LogicalType::VARCHAR, LogicalType::BIGINT, LogicalType::TIMESTAMP_TZ, LogicalType::TIMESTAMP_TZ};
}

string Argument(TableFunctionBindInput &input, idx_t index, const char *what) {
	auto &value = input.inputs[index];
	if (value.IsNull()) {
		throw InvalidInputException("moraine: %s must not be NULL", what);
	}
	return value.ToString();
}

unique_ptr<FunctionData> CreateBind(ClientContext &context, TableFunctionBindInput &input,
                                    vector<LogicalType> &types, vector<string> &names) {
	auto call = make_uniq<CheckpointCall>();
	call->kind = CheckpointCall::Kind::CREATE;
	call->catalog_or_store = Argument(input, 0, "the attached catalog's name");
	if (input.inputs.size() > 1 && !input.inputs[1].IsNull()) {
		auto lifetime = input.inputs[1].GetValue<interval_t>();
		call->lifetime_micros = Interval::GetMicro(lifetime);
		if (call->lifetime_micros <= 0) {
			throw InvalidInputException("moraine: a checkpoint's lifetime must be positive (or omitted: it then lives "
			                            "until moraine_delete_checkpoint releases it)");
		}
	}
	CheckpointColumns(types, names);
	return std::move(call);
}

unique_ptr<FunctionData> ListBind(ClientContext &context, TableFunctionBindInput &input, vector<LogicalType> &types,
                                  vector<string> &names) {
	auto call = make_uniq<CheckpointCall>();
	call->kind = CheckpointCall::Kind::LIST;
	call->catalog_or_store = Argument(input, 0, "the store URI");
	CheckpointColumns(types, names);
	return std::move(call);
}

unique_ptr<FunctionData> DeleteBind(ClientContext &context, TableFunctionBindInput &input, vector<LogicalType> &types,
                                    vector<string> &names) {
	auto call = make_uniq<CheckpointCall>();
	call->kind = CheckpointCall::Kind::DELETE;
	call->catalog_or_store = Argument(input, 0, "the store URI");
	call->id = Argument(input, 1, "the checkpoint id");
	names = {"checkpoint_id", "deleted"};
	types = {LogicalType::VARCHAR, LogicalType::BOOLEAN};
	return std::move(call);
}

jlong AttachedHandle(ClientContext &context, const string &name) {
	auto database = DatabaseManager::Get(context).GetDatabase(context, name);
	if (!database) {
		throw BinderException("moraine_create_checkpoint: no attached catalog is named %s", name);
	}
	auto &catalog = database->GetCatalog();
	if (catalog.GetCatalogType() != "moraine") {
		throw BinderException("moraine_create_checkpoint: %s is not a moraine attach (it is %s)", name,
		                      catalog.GetCatalogType());
	}
	return catalog.Cast<MoraineCatalog>().handle;
}

//! Four strings per checkpoint: id, manifest id, created-at and expires-at in epoch microseconds (empty: none).
void AddCheckpointRows(CheckpointRows &rows, const vector<string> &fields) {
	for (idx_t i = 0; i + 3 < fields.size(); i += 4) {
		auto time = [](const string &micros) {
			return micros.empty() ? Value(LogicalType::TIMESTAMP_TZ)
			                      : Value::TIMESTAMPTZ(timestamp_tz_t(std::stoll(micros)));
		};
		rows.rows.push_back({Value(fields[i]), Value::BIGINT(std::stoll(fields[i + 1])), time(fields[i + 2]),
		                     time(fields[i + 3])});
	}
}

unique_ptr<GlobalTableFunctionState> CheckpointInit(ClientContext &context, TableFunctionInitInput &input) {
	auto &call = input.bind_data->Cast<CheckpointCall>();
	auto rows = make_uniq<CheckpointRows>();
	auto &jvm = Jvm::Get(LaunchSettings(context));
	auto env = jvm.Env();
	LocalFrame frame(env);
	switch (call.kind) {
	case CheckpointCall::Kind::CREATE: {
		auto handle = AttachedHandle(context, call.catalog_or_store);
		auto fields = static_cast<jobjectArray>(
		    env->CallStaticObjectMethod(jvm.bridge, jvm.create_checkpoint, handle, (jlong)call.lifetime_micros));
		jvm.Check(env);
		AddCheckpointRows(*rows, FromJava(env, fields));
		break;
	}
	case CheckpointCall::Kind::LIST: {
		vector<string> options;
		AddS3Secret(context, call.catalog_or_store, "secret.", options);
		auto fields = static_cast<jobjectArray>(env->CallStaticObjectMethod(
		    jvm.bridge, jvm.list_checkpoints, ToJava(env, call.catalog_or_store), ToJava(env, options)));
		jvm.Check(env);
		AddCheckpointRows(*rows, FromJava(env, fields));
		break;
	}
	case CheckpointCall::Kind::DELETE: {
		vector<string> options;
		AddS3Secret(context, call.catalog_or_store, "secret.", options);
		env->CallStaticVoidMethod(jvm.bridge, jvm.delete_checkpoint, ToJava(env, call.catalog_or_store),
		                          ToJava(env, call.id), ToJava(env, options));
		jvm.Check(env);
		rows->rows.push_back({Value(call.id), Value::BOOLEAN(true)});
		break;
	}
	}
	return std::move(rows);
}

void CheckpointScan(ClientContext &context, TableFunctionInput &input, DataChunk &output) {
	auto &rows = input.global_state->Cast<CheckpointRows>();
	idx_t count = 0;
	while (rows.next < rows.rows.size() && count < STANDARD_VECTOR_SIZE) {
		auto &row = rows.rows[rows.next++];
		for (idx_t column = 0; column < row.size(); column++) {
			output.SetValue(column, count, row[column]);
		}
		count++;
	}
	output.SetCardinality(count);
}

} // namespace

void RegisterCheckpointFunctions(ExtensionLoader &loader) {
	TableFunctionSet create("moraine_create_checkpoint");
	create.AddFunction(TableFunction({LogicalType::VARCHAR}, CheckpointScan, CreateBind, CheckpointInit));
	create.AddFunction(
	    TableFunction({LogicalType::VARCHAR, LogicalType::INTERVAL}, CheckpointScan, CreateBind, CheckpointInit));
	loader.RegisterFunction(create);
	loader.RegisterFunction(
	    TableFunction("moraine_checkpoints", {LogicalType::VARCHAR}, CheckpointScan, ListBind, CheckpointInit));
	loader.RegisterFunction(TableFunction("moraine_delete_checkpoint", {LogicalType::VARCHAR, LogicalType::VARCHAR},
	                                      CheckpointScan, DeleteBind, CheckpointInit));
}

} // namespace moraine
