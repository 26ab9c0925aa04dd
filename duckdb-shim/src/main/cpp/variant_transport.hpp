// DuckDB 1.5.5 has no Arrow form of VARIANT: its Arrow export refuses the type and its import reads the canonical
// arrow.parquet.variant extension as a plain STRUCT(metadata BLOB, value BLOB). A VARIANT column of an inlined table
// therefore crosses to Java as that struct (the Variant binary encoding, unshredded, as the core stores it) and is
// turned back into a VARIANT when scanned. SQL NULL stays SQL NULL both ways.
#pragma once

#include "duckdb.hpp"
#include "duckdb/common/arrow/arrow.hpp"

namespace moraine {

using namespace duckdb;

//! STRUCT(metadata BLOB, value BLOB): how a VARIANT value crosses to Java.
LogicalType VariantTransportType();

//! The type a column of `type` crosses to Java as: VARIANT becomes the transport struct, other types stay. A VARIANT
//! nested in a STRUCT, LIST, MAP or ARRAY is refused, naming `column`.
LogicalType TransportType(const LogicalType &type, const string &column);

//! Whether an Arrow field names the arrow.parquet.variant extension in its metadata.
bool IsArrowVariantField(const ArrowSchema &field);

//! Writes the transport struct of each value of VARIANT vector `variants` into `result` (of VariantTransportType()).
void VariantToTransport(ClientContext &context, Vector &variants, Vector &result, idx_t count);

//! Writes the VARIANT of each transport struct of `transport` into `result` (of type VARIANT).
void TransportToVariant(ClientContext &context, Vector &transport, Vector &result, idx_t count);

} // namespace moraine
