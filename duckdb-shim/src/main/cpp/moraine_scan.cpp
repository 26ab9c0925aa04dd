#include "moraine_scan.hpp"

#include "interrupt_watcher.hpp"
#include "jvm_bridge.hpp"

namespace moraine {

namespace {

struct MoraineScanState : public GlobalTableFunctionState {
	MoraineScanState(ClientContext &context_p, MoraineCatalog &catalog_p) : context(context_p), catalog(catalog_p) {
	}
	~MoraineScanState() override {
		try {
			Close();
		} catch (...) {
			// Closing only releases the Java cursor; a failure cannot be reported from a destructor.
		}
	}

	ClientContext &context;
	MoraineCatalog &catalog;
	jlong scan = 0;
	bool done = false;
	//! Per output column: the index into `data` of a table column, or the row-id / other virtual column.
	vector<idx_t> data_index;
	vector<column_t> output_columns;
	DataChunk data;
	unique_ptr<ArrowScanLocalState> arrow;
	//! Whether each batch ends with a row-id child (after the data columns).
	bool row_ids = false;

	idx_t MaxThreads() const override {
		return 1;
	}

	void Close() {
		if (scan == 0) {
			return;
		}
		auto &jvm = Jvm::Existing();
		auto env = jvm.Env();
		auto closing = scan;
		scan = 0;
		env->CallStaticVoidMethod(jvm.bridge, jvm.scan_close, closing);
		jvm.Check(env);
	}
};

BindInfo MoraineScanBindInfo(const optional_ptr<FunctionData> bind_data) {
	BindInfo info(ScanType::EXTERNAL);
	info.table = bind_data->Cast<MoraineScanBindData>().table;
	return info;
}

unique_ptr<GlobalTableFunctionState> MoraineScanInit(ClientContext &context, TableFunctionInitInput &input) {
	auto &table = input.bind_data->Cast<MoraineScanBindData>().table;
	auto &catalog = table.catalog.Cast<MoraineCatalog>();
	auto state = make_uniq<MoraineScanState>(context, catalog);
	vector<jint> columns;
	vector<LogicalType> types;
	vector<column_t> data_columns;
	for (auto column : input.column_ids) {
		state->output_columns.push_back(column);
		if (IsVirtualColumn(column)) {
			state->data_index.push_back(DConstants::INVALID_INDEX);
			state->row_ids = state->row_ids || column == COLUMN_IDENTIFIER_ROW_ID;
			continue;
		}
		state->data_index.push_back(columns.size());
		columns.push_back(static_cast<jint>(column));
		data_columns.push_back(column);
		types.push_back(table.GetColumn(LogicalIndex(column)).Type());
	}
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	LocalFrame frame(env);
	auto column_array = env->NewIntArray(static_cast<jsize>(columns.size()));
	env->SetIntArrayRegion(column_array, 0, static_cast<jsize>(columns.size()), columns.data());
	// A user table's scan is refused here, at execution, by the core (with the DuckLake attach to use instead).
	// The scan reads the table as this DuckDB transaction sees it (its own staged writes included).
	auto java_transaction = Transaction::Get(context, catalog).Cast<MoraineTransaction>().java_transaction;
	{
		InterruptibleCall call(context);
		state->scan = env->CallStaticLongMethod(jvm.bridge, jvm.scan_open, catalog.handle, java_transaction,
		                                        ToJava(env, table.schema.name), ToJava(env, table.name), column_array,
		                                        static_cast<jboolean>(state->row_ids), call.id);
	}
	jvm.Check(env);
	if (!table.served) {
		throw InternalException("moraine: the core opened a scan of user table %s", table.name);
	}
	if (!types.empty()) {
		state->data.Initialize(context, types);
	}
	state->arrow = make_uniq<ArrowScanLocalState>(make_uniq<ArrowArrayWrapper>(), context);
	state->arrow->column_ids = data_columns;
	return std::move(state);
}

//! Fetches the next non-empty batch; false at the end of the scan.
bool NextBatch(MoraineScanState &state) {
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	while (true) {
		if (state.context.interrupted) {
			throw InterruptException();
		}
		auto batch = make_shared_ptr<ArrowArrayWrapper>();
		jboolean has_batch;
		{
			InterruptibleCall call(state.context);
			has_batch = env->CallStaticBooleanMethod(jvm.bridge, jvm.scan_next, state.scan,
			                                         reinterpret_cast<jlong>(&batch->arrow_array), call.id);
		}
		jvm.Check(env);
		if (!has_batch) {
			state.Close();
			return false;
		}
		if (batch->arrow_array.length > 0) {
			state.arrow->chunk = std::move(batch);
			state.arrow->Reset();
			return true;
		}
	}
}

void MoraineScan(ClientContext &context, TableFunctionInput &input, DataChunk &output) {
	auto &state = input.global_state->Cast<MoraineScanState>();
	auto &table = input.bind_data->Cast<MoraineScanBindData>().table;
	if (state.done) {
		return;
	}
	auto &arrow = *state.arrow;
	if (arrow.chunk_offset >= static_cast<idx_t>(arrow.chunk->arrow_array.length)) {
		if (!NextBatch(state)) {
			state.done = true;
			return;
		}
	}
	auto size = MinValue<idx_t>(STANDARD_VECTOR_SIZE, static_cast<idx_t>(arrow.chunk->arrow_array.length) - arrow.chunk_offset);
	if (state.data.ColumnCount() > 0) {
		state.data.Reset();
		state.data.SetCardinality(size);
		ArrowTableFunction::ArrowToDuckDB(arrow, table.arrow_schema->GetColumns(), state.data, true);
	}
	output.SetCardinality(size);
	for (idx_t i = 0; i < output.ColumnCount(); i++) {
		auto index = state.data_index[i];
		if (index != DConstants::INVALID_INDEX) {
			output.data[i].Reference(state.data.data[index]);
		} else if (state.output_columns[i] == COLUMN_IDENTIFIER_ROW_ID) {
			// The row ids the Java side gave, in the batch's last child: what UPDATE and DELETE name rows by.
			auto &row_id_array = *arrow.chunk->arrow_array.children[arrow.chunk->arrow_array.n_children - 1];
			auto ids = static_cast<const int64_t *>(row_id_array.buffers[1]) + row_id_array.offset +
			           arrow.chunk->arrow_array.offset + arrow.chunk_offset;
			output.data[i].SetVectorType(VectorType::FLAT_VECTOR);
			memcpy(FlatVector::GetData<int64_t>(output.data[i]), ids, size * sizeof(int64_t));
		} else {
			output.data[i].SetVectorType(VectorType::CONSTANT_VECTOR);
			ConstantVector::SetNull(output.data[i], true);
		}
	}
	arrow.chunk_offset += size;
}

} // namespace

TableFunction MoraineScanFunction() {
	TableFunction function("moraine_scan", {}, MoraineScan, nullptr, MoraineScanInit);
	function.projection_pushdown = true;
	function.get_bind_info = MoraineScanBindInfo;
	return function;
}

} // namespace moraine
