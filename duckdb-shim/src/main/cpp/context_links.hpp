// Which user statement a DuckLake metadata connection works for. DuckLake runs its metadata SQL on a connection it
// opens itself (DuckLakeTransaction::GetConnection) and never hands out, so DuckDB's interrupt of the user's statement
// sets a flag that connection's work never looks at. DuckDB tells a registered ClientContextState of every query begun
// and every task run, on the thread doing it, and an ExtensionCallback of every connection opened: a connection records
// the context whose work was running on the thread that opened it (its task there, else its newest query begun there).
#pragma once

#include "duckdb.hpp"

namespace moraine {

//! Links connections opened from now on to their openers; call once per database, at LOAD.
void RegisterContextLinks(duckdb::DatabaseInstance &db);

//! The user's context that `context` works for, when `context` is the DuckLake metadata connection of the moraine
//! attach `catalog` (opened by that user's work, its search path set to `catalog` by DuckLake); else empty.
duckdb::weak_ptr<duckdb::ClientContext> DrivingContext(duckdb::ClientContext &context, const duckdb::string &catalog);

//! Whether `context`'s statement, or the user's statement it works for (DrivingContext), was interrupted.
bool Interrupted(duckdb::ClientContext &context, const duckdb::weak_ptr<duckdb::ClientContext> &driver);

} // namespace moraine
