// The DuckDB secret a store on S3 is reached with: the s3 secret whose SCOPE best matches the store's path, handed to
// the Java core as options. Without one the core falls back to the AWS_* environment.
#pragma once

#include "duckdb.hpp"

namespace moraine {

using namespace duckdb;

//! For a path on S3 with a matching secret of type s3: appends `<prefix>name` and `<prefix><key>` (lower case) with
//! their values for each of the secret's non-NULL entries to `options`, alternating keys and values.
void AddS3Secret(ClientContext &context, const string &path, const string &prefix, vector<string> &options);

} // namespace moraine
