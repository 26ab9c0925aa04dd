// The physical operators of INSERT, UPDATE and DELETE on a moraine catalog's tables: each sinks DuckDB's chunks into
// the Java transaction of the statement's DuckDB transaction (as Arrow C Data), where they stay staged until DuckDB
// commits. What a change means is decided on the Java side, by the core.
#pragma once

#include "moraine_catalog.hpp"

#include "duckdb/execution/physical_operator.hpp"
#include "duckdb/planner/expression.hpp"
#include "duckdb/common/index_vector.hpp"

namespace moraine {

class MoraineWrite : public PhysicalOperator {
public:
	MoraineWrite(PhysicalPlan &plan, vector<LogicalType> types, MoraineTableEntry &table);

	MoraineTableEntry &table;

	unique_ptr<GlobalSinkState> GetGlobalSinkState(ClientContext &context) const override;
	SourceResultType GetDataInternal(ExecutionContext &context, DataChunk &chunk, OperatorSourceInput &input) const override;
	bool IsSource() const override {
		return true;
	}
	bool IsSink() const override {
		return true;
	}
	bool ParallelSink() const override {
		return false;
	}

protected:
	//! The Java transaction of the executing DuckDB transaction.
	jlong JavaTransaction(ClientContext &context) const;
	//! The name the Java side knows the table's schema by.
	jstring ServedSchema(JNIEnv *env) const;
	//! Adds rows a statement changed to its count.
	void Count(OperatorSinkInput &input, idx_t rows) const;
};

class MoraineInsert : public MoraineWrite {
public:
	MoraineInsert(PhysicalPlan &plan, vector<LogicalType> types, MoraineTableEntry &table,
	              physical_index_vector_t<idx_t> column_index_map, vector<unique_ptr<Expression>> bound_defaults);

	physical_index_vector_t<idx_t> column_index_map;
	vector<unique_ptr<Expression>> bound_defaults;

	string GetName() const override {
		return "MORAINE_INSERT";
	}
	SinkResultType Sink(ExecutionContext &context, DataChunk &chunk, OperatorSinkInput &input) const override;
};

class MoraineUpdate : public MoraineWrite {
public:
	MoraineUpdate(PhysicalPlan &plan, vector<LogicalType> types, MoraineTableEntry &table, vector<PhysicalIndex> columns,
	              vector<unique_ptr<Expression>> expressions);

	vector<PhysicalIndex> columns;
	vector<unique_ptr<Expression>> expressions;

	string GetName() const override {
		return "MORAINE_UPDATE";
	}
	SinkResultType Sink(ExecutionContext &context, DataChunk &chunk, OperatorSinkInput &input) const override;
};

class MoraineDelete : public MoraineWrite {
public:
	MoraineDelete(PhysicalPlan &plan, vector<LogicalType> types, MoraineTableEntry &table, idx_t row_id_index);

	idx_t row_id_index;

	string GetName() const override {
		return "MORAINE_DELETE";
	}
	SinkResultType Sink(ExecutionContext &context, DataChunk &chunk, OperatorSinkInput &input) const override;
};

} // namespace moraine
