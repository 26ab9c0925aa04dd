#include "moraine_write.hpp"

#include "hugeint_transport.hpp"
#include "jvm_bridge.hpp"
#include "variant_transport.hpp"

#include "duckdb/common/arrow/arrow_converter.hpp"
#include "duckdb/execution/expression_executor.hpp"
#include "duckdb/main/client_context.hpp"

namespace moraine {

namespace {

struct MoraineWriteState : public GlobalSinkState {
	idx_t count = 0;
};

//! Row ids as a Java long[] (a local reference of the caller's frame).
jlongArray RowIds(JNIEnv *env, Vector &row_ids, idx_t count) {
	UnifiedVectorFormat format;
	row_ids.ToUnifiedFormat(count, format);
	auto data = UnifiedVectorFormat::GetData<int64_t>(format);
	vector<jlong> ids(count);
	for (idx_t i = 0; i < count; i++) {
		auto index = format.sel->get_index(i);
		if (!format.validity.RowIsValid(index)) {
			throw InternalException("moraine: a row to change has no row id");
		}
		ids[i] = data[index];
	}
	auto array = env->NewLongArray(static_cast<jsize>(count));
	env->SetLongArrayRegion(array, 0, static_cast<jsize>(count), ids.data());
	return array;
}

//! Exports a chunk as Arrow C Data into structs the Java side takes over; VARIANT columns go as their transport
//! struct (variant_transport.hpp), HUGEINT and UHUGEINT as 16-byte integers (hugeint_transport.hpp).
void Export(ClientContext &context, DataChunk &chunk, const vector<string> &names, ArrowArray &array, ArrowSchema &schema) {
	vector<LogicalType> types;
	for (idx_t i = 0; i < chunk.ColumnCount(); i++) {
		types.push_back(TransportType(chunk.data[i].GetType(), names[i]));
	}
	DataChunk exported;
	exported.InitializeEmpty(types);
	for (idx_t i = 0; i < chunk.ColumnCount(); i++) {
		if (chunk.data[i].GetType().id() == LogicalTypeId::VARIANT) {
			Vector transport(types[i], chunk.size());
			VariantToTransport(context, chunk.data[i], transport, chunk.size());
			exported.data[i].Reference(transport);
		} else {
			exported.data[i].Reference(chunk.data[i]);
		}
	}
	exported.SetCardinality(chunk.size());
	auto properties = context.GetClientProperties();
	ArrowConverter::ToArrowSchema(&schema, types, names, properties);
	MarkHugeintFields(schema, types);
	ArrowConverter::ToArrowArray(exported, &array, properties, {});
}

} // namespace

MoraineWrite::MoraineWrite(PhysicalPlan &plan, vector<LogicalType> types, MoraineTableEntry &table_p)
    : PhysicalOperator(plan, PhysicalOperatorType::EXTENSION, std::move(types), 1), table(table_p) {
}

unique_ptr<GlobalSinkState> MoraineWrite::GetGlobalSinkState(ClientContext &context) const {
	return make_uniq<MoraineWriteState>();
}

SourceResultType MoraineWrite::GetDataInternal(ExecutionContext &context, DataChunk &chunk,
                                               OperatorSourceInput &input) const {
	auto &state = sink_state->Cast<MoraineWriteState>();
	chunk.SetCardinality(1);
	chunk.SetValue(0, 0, Value::BIGINT(static_cast<int64_t>(state.count)));
	return SourceResultType::FINISHED;
}

jstring MoraineWrite::ServedSchema(JNIEnv *env) const {
	return ToJava(env, table.schema.Cast<MoraineSchemaEntry>().served_name);
}

jlong MoraineWrite::JavaTransaction(ClientContext &context) const {
	return table.schema.Cast<MoraineSchemaEntry>().JavaTransaction(context);
}

void MoraineWrite::Count(OperatorSinkInput &input, idx_t rows) const {
	input.global_state.Cast<MoraineWriteState>().count += rows;
}

// ---------------------------------------------------------------------------------------------------------------

MoraineInsert::MoraineInsert(PhysicalPlan &plan, vector<LogicalType> types, MoraineTableEntry &table,
                             physical_index_vector_t<idx_t> column_index_map_p,
                             vector<unique_ptr<Expression>> bound_defaults_p)
    : MoraineWrite(plan, std::move(types), table), column_index_map(std::move(column_index_map_p)),
      bound_defaults(std::move(bound_defaults_p)) {
}

SinkResultType MoraineInsert::Sink(ExecutionContext &context, DataChunk &chunk, OperatorSinkInput &input) const {
	auto &client = context.client;
	auto types = table.GetTypes();
	DataChunk row;
	row.Initialize(client, types);
	// Every column in table order: listed columns from the statement, the others from their defaults.
	for (idx_t i = 0; i < types.size(); i++) {
		auto mapped = column_index_map.empty() ? i : column_index_map[PhysicalIndex(i)];
		if (mapped != DConstants::INVALID_INDEX) {
			row.data[i].Reference(chunk.data[mapped]);
			continue;
		}
		if (i >= bound_defaults.size()) {
			row.data[i].SetVectorType(VectorType::CONSTANT_VECTOR);
			ConstantVector::SetNull(row.data[i], true);
			continue;
		}
		ExpressionExecutor executor(client, *bound_defaults[i]);
		executor.ExecuteExpression(chunk, row.data[i]);
	}
	row.SetCardinality(chunk.size());
	vector<string> names;
	for (auto &column : table.GetColumns().Physical()) {
		names.push_back(column.Name());
	}
	ArrowArray array;
	ArrowSchema schema;
	Export(client, row, names, array, schema);
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	LocalFrame frame(env);
	auto rows = env->CallStaticLongMethod(jvm.bridge, jvm.insert_rows, JavaTransaction(client),
	                                      ServedSchema(env), ToJava(env, table.name),
	                                      reinterpret_cast<jlong>(&array), reinterpret_cast<jlong>(&schema));
	jvm.Check(env);
	Count(input, static_cast<idx_t>(rows));
	return SinkResultType::NEED_MORE_INPUT;
}

// ---------------------------------------------------------------------------------------------------------------

MoraineUpdate::MoraineUpdate(PhysicalPlan &plan, vector<LogicalType> types, MoraineTableEntry &table,
                             vector<PhysicalIndex> columns_p, vector<unique_ptr<Expression>> expressions_p)
    : MoraineWrite(plan, std::move(types), table), columns(std::move(columns_p)), expressions(std::move(expressions_p)) {
}

SinkResultType MoraineUpdate::Sink(ExecutionContext &context, DataChunk &chunk, OperatorSinkInput &input) const {
	auto &client = context.client;
	// The child produces the SET values, then the row id last.
	vector<LogicalType> types;
	vector<string> names;
	vector<jint> column_indexes;
	for (auto &column : columns) {
		auto &definition = table.GetColumn(LogicalIndex(column.index));
		types.push_back(definition.Type());
		names.push_back(definition.Name());
		column_indexes.push_back(static_cast<jint>(column.index));
	}
	DataChunk values;
	values.Initialize(client, types);
	for (idx_t i = 0; i < expressions.size(); i++) {
		ExpressionExecutor executor(client, *expressions[i]);
		executor.ExecuteExpression(chunk, values.data[i]);
	}
	values.SetCardinality(chunk.size());
	ArrowArray array;
	ArrowSchema schema;
	Export(client, values, names, array, schema);
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	LocalFrame frame(env);
	auto column_array = env->NewIntArray(static_cast<jsize>(column_indexes.size()));
	env->SetIntArrayRegion(column_array, 0, static_cast<jsize>(column_indexes.size()), column_indexes.data());
	auto row_ids = RowIds(env, chunk.data[chunk.ColumnCount() - 1], chunk.size());
	auto rows = env->CallStaticLongMethod(jvm.bridge, jvm.update_rows, JavaTransaction(client),
	                                      ServedSchema(env), ToJava(env, table.name), column_array,
	                                      reinterpret_cast<jlong>(&array), reinterpret_cast<jlong>(&schema), row_ids);
	jvm.Check(env);
	Count(input, static_cast<idx_t>(rows));
	return SinkResultType::NEED_MORE_INPUT;
}

// ---------------------------------------------------------------------------------------------------------------

MoraineDelete::MoraineDelete(PhysicalPlan &plan, vector<LogicalType> types, MoraineTableEntry &table,
                             idx_t row_id_index_p)
    : MoraineWrite(plan, std::move(types), table), row_id_index(row_id_index_p) {
}

SinkResultType MoraineDelete::Sink(ExecutionContext &context, DataChunk &chunk, OperatorSinkInput &input) const {
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	LocalFrame frame(env);
	auto row_ids = RowIds(env, chunk.data[row_id_index], chunk.size());
	auto rows = env->CallStaticLongMethod(jvm.bridge, jvm.delete_rows, JavaTransaction(context.client),
	                                      ServedSchema(env), ToJava(env, table.name), row_ids);
	jvm.Check(env);
	Count(input, static_cast<idx_t>(rows));
	return SinkResultType::NEED_MORE_INPUT;
}

} // namespace moraine
