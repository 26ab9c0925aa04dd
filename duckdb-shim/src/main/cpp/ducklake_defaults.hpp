// What DuckLake gives a DuckDB-file catalog by itself and ATTACH 'ducklake:moraine:<store>' gets from this extension:
// a default DATA_PATH for a new lake (docs/duckdb.md, "A new lake's data path"). The extension wraps DuckLake's
// storage extension, whichever of the two extensions is loaded first.
#pragma once

#include "duckdb.hpp"

namespace moraine {

using namespace duckdb;

//! STORE_TIMEOUT as the Java side parses it (defined in moraine_extension.cpp).
string TimeoutText(const Value &value);

//! Wraps DuckLake's attach now if DuckLake is loaded, else as soon as it is.
void WrapDuckLakeAttach(DatabaseInstance &instance);

} // namespace moraine
