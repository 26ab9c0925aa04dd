// DuckDB 1.5.5's default Arrow export turns HUGEINT and UHUGEINT into DECIMAL(38,0): UHUGEINT above 2^127 does not fit
// (DuckLake's INSERT of 3.4e38 into an inlined table failed on the cast to the column's DECIMAL(38,0)) and the type reads
// back as DECIMAL. The shim therefore exports these columns, nested ones too, as what DuckDB's appender writes for them
// anyway, 16 little-endian bytes (format w:16), each field naming its type under the metadata key HUGEINT_TYPE_KEY. The
// Java side stores such a column in DuckDB's lossless Arrow form (a w:16 field named by the arrow.opaque extension with
// {"type_name": "hugeint" | "uhugeint", "vendor_name": "DuckDB"}, core's ArrowHugeint) and serves it back so, which
// DuckDB's Arrow import reads as HUGEINT and UHUGEINT.
#pragma once

#include "duckdb.hpp"
#include "duckdb/common/arrow/arrow.hpp"

namespace moraine {

using namespace duckdb;

//! The field metadata key that names a field's type, "HUGEINT" or "UHUGEINT" (io.moraine.duckdb.ext.HugeintColumns).
constexpr const char *HUGEINT_TYPE_KEY = "moraine.duckdb.type";

//! Rewrites the fields of `schema` (made by ArrowConverter::ToArrowSchema for `types`) that hold a HUGEINT or UHUGEINT,
//! at any depth, into 16-byte fixed-size binaries named by HUGEINT_TYPE_KEY. The schema's root holder owns the metadata.
void MarkHugeintFields(ArrowSchema &schema, const vector<LogicalType> &types);

} // namespace moraine
