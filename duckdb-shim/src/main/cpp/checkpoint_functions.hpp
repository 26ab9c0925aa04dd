// moraine_create_checkpoint, moraine_checkpoints, moraine_delete_checkpoint (RFC 0006, "CHECKPOINT").
#pragma once

#include "duckdb.hpp"
#include "duckdb/main/extension/extension_loader.hpp"
#include "jvm_bridge.hpp"

namespace moraine {

void RegisterCheckpointFunctions(duckdb::ExtensionLoader &loader);
JvmLaunch LaunchSettings(duckdb::ClientContext &context);

} // namespace moraine
