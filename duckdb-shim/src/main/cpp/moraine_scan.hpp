// The scan of one table of a moraine attach: the Java core streams the projected columns as Arrow C Data batches,
// DuckDB's Arrow conversion turns them into vectors. User tables bind (DESCRIBE, EXPLAIN) and refuse at execution.
#pragma once

#include "moraine_catalog.hpp"

namespace moraine {

struct MoraineScanBindData : public TableFunctionData {
	explicit MoraineScanBindData(MoraineTableEntry &table_p) : table(table_p) {
	}
	MoraineTableEntry &table;
};

TableFunction MoraineScanFunction();

} // namespace moraine
