#include "moraine_scan.hpp"

#include "context_links.hpp"
#include "interrupt_watcher.hpp"
#include "jvm_bridge.hpp"
#include "variant_transport.hpp"

#include "duckdb/execution/expression_executor.hpp"
#include "duckdb/function/partition_stats.hpp"
#include "duckdb/planner/expression/bound_conjunction_expression.hpp"
#include "duckdb/planner/expression/bound_reference_expression.hpp"
#include "duckdb/planner/filter/conjunction_filter.hpp"
#include "duckdb/planner/filter/constant_filter.hpp"
#include "duckdb/planner/filter/optional_filter.hpp"

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
	//! The filters DuckDB pushed into the scan, as one predicate over the output columns; null without filters.
	unique_ptr<Expression> filter;
	unique_ptr<ExpressionExecutor> filter_executor;
	SelectionVector selected {STANDARD_VECTOR_SIZE};

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

//! The comparison codes the Java side's ScanFilter understands.
enum class PushedComparison : int64_t { EQUAL = 0, LESS = 1, LESS_OR_EQUAL = 2, GREATER = 3, GREATER_OR_EQUAL = 4 };

bool ToPushedComparison(ExpressionType type, PushedComparison &result) {
	switch (type) {
	case ExpressionType::COMPARE_EQUAL:
		result = PushedComparison::EQUAL;
		return true;
	case ExpressionType::COMPARE_LESSTHAN:
		result = PushedComparison::LESS;
		return true;
	case ExpressionType::COMPARE_LESSTHANOREQUALTO:
		result = PushedComparison::LESS_OR_EQUAL;
		return true;
	case ExpressionType::COMPARE_GREATERTHAN:
		result = PushedComparison::GREATER;
		return true;
	case ExpressionType::COMPARE_GREATERTHANOREQUALTO:
		result = PushedComparison::GREATER_OR_EQUAL;
		return true;
	default:
		return false;
	}
}

//! Appends (table column, comparison, value) for each BIGINT constant comparison every surviving row must meet: the
//! Java side skips rows failing one before converting them. The shim applies every filter itself afterwards, so a
//! filter left out here costs time, never correctness.
void CollectComparisons(const TableFilter &filter, column_t column, vector<int64_t> &comparisons) {
	switch (filter.filter_type) {
	case TableFilterType::CONSTANT_COMPARISON: {
		auto &constant = filter.Cast<ConstantFilter>();
		PushedComparison comparison;
		if (constant.constant.IsNull() || constant.constant.type().id() != LogicalTypeId::BIGINT ||
		    !ToPushedComparison(constant.comparison_type, comparison)) {
			return;
		}
		comparisons.push_back(static_cast<int64_t>(column));
		comparisons.push_back(static_cast<int64_t>(comparison));
		comparisons.push_back(constant.constant.GetValue<int64_t>());
		return;
	}
	case TableFilterType::CONJUNCTION_AND:
		for (auto &child : filter.Cast<ConjunctionAndFilter>().child_filters) {
			CollectComparisons(*child, column, comparisons);
		}
		return;
	case TableFilterType::OPTIONAL_FILTER:
		// Implied by the query (a join's key range, say): rows failing it are dropped by the join anyway.
		CollectComparisons(*filter.Cast<OptionalFilter>().child_filter, column, comparisons);
		return;
	default:
		return;
	}
}

//! Turns the pushed filters into one predicate over the output columns (filter keys are positions in column_ids),
//! and collects the comparisons the Java side can apply first.
void PrepareFilters(ClientContext &context, MoraineScanState &state, const MoraineTableEntry &table,
                    const TableFunctionInitInput &input, vector<int64_t> &comparisons) {
	if (!input.filters || input.filters->filters.empty()) {
		return;
	}
	unique_ptr<Expression> predicate;
	for (auto &entry : input.filters->filters) {
		auto output_index = entry.first;
		auto column = input.column_ids[output_index];
		LogicalType type;
		if (column == COLUMN_IDENTIFIER_ROW_ID) {
			type = LogicalType::BIGINT;
		} else if (IsVirtualColumn(column)) {
			throw InternalException("moraine: a filter on virtual column %llu of %s", column, table.name);
		} else {
			type = table.GetColumn(LogicalIndex(column)).Type();
			if (type.id() == LogicalTypeId::BIGINT) {
				CollectComparisons(*entry.second, column, comparisons);
			}
		}
		auto condition = entry.second->ToExpression(BoundReferenceExpression(type, output_index));
		predicate = predicate ? make_uniq<BoundConjunctionExpression>(ExpressionType::CONJUNCTION_AND, std::move(predicate),
		                                                               std::move(condition))
		                      : std::move(condition);
	}
	state.filter = std::move(predicate);
	state.filter_executor = make_uniq<ExpressionExecutor>(context, *state.filter);
}

//! The exact range of a BIGINT column as the transaction sees the table, asked for by the optimizer only when it
//! can answer a query from it (MIN or MAX of a column, no grouping): DuckLake's SELECT MAX(snapshot_id) FROM
//! ducklake_snapshot then reads no rows. Columns of other types, and tables the core keeps no range of, report none.
class MorainePartitionRowGroup : public PartitionRowGroup {
public:
	MorainePartitionRowGroup(ClientContext &context_p, MoraineTableEntry &table_p) : context(context_p), table(table_p) {
	}

	unique_ptr<BaseStatistics> GetColumnStatistics(const StorageIndex &storage_index) override {
		auto column = storage_index.GetPrimaryIndex();
		if (column >= table.GetColumns().LogicalColumnCount() ||
		    table.GetColumn(LogicalIndex(column)).Type().id() != LogicalTypeId::BIGINT) {
			return nullptr;
		}
		auto &schema = table.schema.Cast<MoraineSchemaEntry>();
		auto java_transaction = schema.JavaTransaction(context);
		auto &jvm = Jvm::Existing();
		auto env = jvm.Env();
		LocalFrame frame(env);
		jlongArray range;
		{
			InterruptibleCall call(context, table.catalog.GetName());
			range = static_cast<jlongArray>(env->CallStaticObjectMethod(
			    jvm.bridge, jvm.column_range, schema.handle, java_transaction, ToJava(env, schema.served_name),
			    ToJava(env, table.name), static_cast<jint>(column), call.id));
		}
		jvm.Check(env);
		if (!range) {
			return nullptr;
		}
		jlong bounds[3];
		env->GetLongArrayRegion(range, 0, 3, bounds);
		auto stats = NumericStats::CreateEmpty(LogicalType::BIGINT);
		NumericStats::SetMin(stats, Value::BIGINT(bounds[0]));
		NumericStats::SetMax(stats, Value::BIGINT(bounds[1]));
		stats.SetHasNoNull();
		if (bounds[2] != 0) {
			stats.SetHasNull();
		}
		return stats.ToUnique();
	}

	bool MinMaxIsExact(const BaseStatistics &stats, const StorageIndex &storage_index) override {
		return true;
	}

private:
	ClientContext &context;
	MoraineTableEntry &table;
};

vector<PartitionStatistics> MoraineScanPartitionStats(ClientContext &context, GetPartitionStatsInput &input) {
	auto &table = input.bind_data->Cast<MoraineScanBindData>().table;
	if (!table.served) {
		return {};
	}
	PartitionStatistics partition;
	// The count is not kept: COUNT(*) still scans.
	partition.count_type = CountType::COUNT_APPROXIMATE;
	partition.partition_row_group = make_shared_ptr<MorainePartitionRowGroup>(context, table);
	vector<PartitionStatistics> partitions;
	partitions.push_back(std::move(partition));
	return partitions;
}

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
		// A VARIANT column arrives as its transport struct (variant_transport.hpp).
		auto &definition = table.GetColumn(LogicalIndex(column));
		types.push_back(TransportType(definition.Type(), definition.Name()));
	}
	vector<int64_t> comparisons;
	PrepareFilters(context, *state, table, input, comparisons);
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	LocalFrame frame(env);
	auto column_array = env->NewIntArray(static_cast<jsize>(columns.size()));
	env->SetIntArrayRegion(column_array, 0, static_cast<jsize>(columns.size()), columns.data());
	auto comparison_array = env->NewLongArray(static_cast<jsize>(comparisons.size()));
	env->SetLongArrayRegion(comparison_array, 0, static_cast<jsize>(comparisons.size()),
	                        reinterpret_cast<const jlong *>(comparisons.data()));
	// A user table's scan is refused here, at execution, by the core (with the DuckLake attach to use instead).
	// The scan reads the table as this DuckDB transaction sees it (its own staged writes included).
	auto &schema = table.schema.Cast<MoraineSchemaEntry>();
	auto java_transaction = schema.JavaTransaction(context);
	{
		InterruptibleCall call(context, catalog.GetName());
		state->scan = env->CallStaticLongMethod(jvm.bridge, jvm.scan_open, schema.handle, java_transaction,
		                                        ToJava(env, schema.served_name), ToJava(env, table.name), column_array,
		                                        static_cast<jboolean>(state->row_ids), comparison_array, call.id);
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
		if (Interrupted(state.context, DrivingContext(state.context, state.catalog.GetName()))) {
			throw InterruptException();
		}
		auto batch = make_shared_ptr<ArrowArrayWrapper>();
		jboolean has_batch;
		{
			InterruptibleCall call(state.context, state.catalog.GetName());
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

//! Fills output with the next rows of the current batch, fetching a batch when it is used up; false at the end.
bool FillChunk(MoraineScanState &state, const MoraineTableEntry &table, DataChunk &output) {
	auto &arrow = *state.arrow;
	if (arrow.chunk_offset >= static_cast<idx_t>(arrow.chunk->arrow_array.length)) {
		if (!NextBatch(state)) {
			return false;
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
		if (index != DConstants::INVALID_INDEX && output.data[i].GetType().id() == LogicalTypeId::VARIANT) {
			TransportToVariant(state.context, state.data.data[index], output.data[i], size);
		} else if (index != DConstants::INVALID_INDEX) {
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
	return true;
}

void MoraineScan(ClientContext &context, TableFunctionInput &input, DataChunk &output) {
	auto &state = input.global_state->Cast<MoraineScanState>();
	auto &table = input.bind_data->Cast<MoraineScanBindData>().table;
	while (!state.done) {
		if (!FillChunk(state, table, output)) {
			state.done = true;
			return;
		}
		if (!state.filter_executor) {
			return;
		}
		// DuckDB left the pushed filters to the scan: keep the rows meeting all of them. An empty chunk would end
		// the scan, so a chunk without survivors is dropped and the next one filled.
		auto size = output.size();
		auto kept = state.filter_executor->SelectExpression(output, state.selected);
		if (kept == size) {
			return;
		}
		if (kept > 0) {
			output.Slice(state.selected, kept);
			return;
		}
		output.Reset();
	}
}

} // namespace

TableFunction MoraineScanFunction() {
	TableFunction function("moraine_scan", {}, MoraineScan, nullptr, MoraineScanInit);
	function.projection_pushdown = true;
	// Filters arrive as TableFilters (and, after a hash join's build side, as its key range); the scan applies them.
	function.filter_pushdown = true;
	function.filter_prune = false;
	function.get_partition_stats = MoraineScanPartitionStats;
	function.get_bind_info = MoraineScanBindInfo;
	return function;
}

} // namespace moraine
