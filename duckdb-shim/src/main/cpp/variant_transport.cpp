#include "variant_transport.hpp"

#include "duckdb/execution/expression_executor.hpp"
#include "duckdb/function/function_binder.hpp"
#include "duckdb/planner/expression/bound_reference_expression.hpp"

#include <cstring>

namespace moraine {

namespace {

bool ContainsVariant(const LogicalType &type) {
	switch (type.id()) {
	case LogicalTypeId::VARIANT:
		return true;
	case LogicalTypeId::STRUCT:
		for (auto &child : StructType::GetChildTypes(type)) {
			if (ContainsVariant(child.second)) {
				return true;
			}
		}
		return false;
	case LogicalTypeId::LIST:
	case LogicalTypeId::MAP:
		return ContainsVariant(ListType::GetChildType(type));
	case LogicalTypeId::ARRAY:
		return ContainsVariant(ArrayType::GetChildType(type));
	default:
		return false;
	}
}

//! `name`(argument 0 of `argument_type`), bound against the functions DuckDB's parquet extension registers.
unique_ptr<Expression> BindConversion(ClientContext &context, const string &name, const LogicalType &argument_type) {
	vector<unique_ptr<Expression>> children;
	children.push_back(make_uniq<BoundReferenceExpression>(argument_type, 0));
	ErrorData error;
	FunctionBinder binder(context);
	auto function = binder.BindScalarFunction(DEFAULT_SCHEMA, name, std::move(children), error);
	if (!function) {
		throw NotImplementedException("moraine: VARIANT columns of inlined tables are converted with DuckDB's %s, which is "
		                              "not available (%s); load DuckDB's parquet extension (LOAD parquet) and retry",
		                              name, error.Message());
	}
	return function;
}

//! Runs `function` over `input` (one column of `count` rows) into `result`.
void Execute(ClientContext &context, Expression &function, Vector &input, Vector &result, idx_t count) {
	DataChunk arguments;
	arguments.InitializeEmpty({input.GetType()});
	arguments.data[0].Reference(input);
	arguments.SetCardinality(count);
	ExpressionExecutor executor(context, function);
	executor.ExecuteExpression(arguments, result);
}

} // namespace

LogicalType VariantTransportType() {
	child_list_t<LogicalType> children;
	children.emplace_back("metadata", LogicalType::BLOB);
	children.emplace_back("value", LogicalType::BLOB);
	return LogicalType::STRUCT(std::move(children));
}

LogicalType TransportType(const LogicalType &type, const string &column) {
	if (type.id() == LogicalTypeId::VARIANT) {
		return VariantTransportType();
	}
	if (ContainsVariant(type)) {
		throw NotImplementedException("moraine: column %s has type %s; a VARIANT inside a STRUCT, LIST, MAP or ARRAY cannot "
		                              "be kept in an inlined table (only a top-level VARIANT column can): set "
		                              "DATA_INLINING_ROW_LIMIT 0 on the DuckLake attach to write such tables to Parquet",
		                              column, type.ToString());
	}
	return type;
}

bool IsArrowVariantField(const ArrowSchema &field) {
	// Arrow's C metadata: an int32 count, then per entry an int32 key length, the key, an int32 value length, the value.
	if (!field.metadata) {
		return false;
	}
	auto read_int = [](const char *&at) {
		int32_t value;
		memcpy(&value, at, sizeof(value));
		at += sizeof(value);
		return value;
	};
	const char *at = field.metadata;
	auto entries = read_int(at);
	for (int32_t i = 0; i < entries; i++) {
		auto key_length = read_int(at);
		string key(at, static_cast<size_t>(key_length));
		at += key_length;
		auto value_length = read_int(at);
		string value(at, static_cast<size_t>(value_length));
		at += value_length;
		if (key == "ARROW:extension:name") {
			return value == "arrow.parquet.variant";
		}
	}
	return false;
}

void VariantToTransport(ClientContext &context, Vector &variants, Vector &result, idx_t count) {
	auto function = BindConversion(context, "variant_to_parquet_variant", LogicalType::VARIANT());
	Vector encoded(function->return_type, count);
	Execute(context, *function, variants, encoded, count);
	encoded.Flatten(count);
	result.SetVectorType(VectorType::FLAT_VECTOR);
	auto &encoded_parts = StructVector::GetEntries(encoded);
	auto &result_parts = StructVector::GetEntries(result);
	result_parts[0]->Reference(*encoded_parts[0]);
	result_parts[1]->Reference(*encoded_parts[1]);
	// variant_to_parquet_variant turns SQL NULL into a Variant null value; SQL NULL stays SQL NULL here.
	UnifiedVectorFormat source;
	variants.ToUnifiedFormat(count, source);
	auto &validity = FlatVector::Validity(result);
	validity.Reset();
	for (idx_t i = 0; i < count; i++) {
		if (!source.validity.RowIsValid(source.sel->get_index(i))) {
			validity.SetInvalid(i);
		}
	}
}

void TransportToVariant(ClientContext &context, Vector &transport, Vector &result, idx_t count) {
	// variant_bytes_to_variant reads the metadata and the value as one blob, one after the other.
	Vector bytes(LogicalType::BLOB, count);
	UnifiedVectorFormat outer;
	transport.ToUnifiedFormat(count, outer);
	auto &parts = StructVector::GetEntries(transport);
	UnifiedVectorFormat metadata_format;
	UnifiedVectorFormat value_format;
	parts[0]->ToUnifiedFormat(count, metadata_format);
	parts[1]->ToUnifiedFormat(count, value_format);
	auto metadata = UnifiedVectorFormat::GetData<string_t>(metadata_format);
	auto values = UnifiedVectorFormat::GetData<string_t>(value_format);
	auto target = FlatVector::GetData<string_t>(bytes);
	for (idx_t i = 0; i < count; i++) {
		auto row = outer.sel->get_index(i);
		auto metadata_row = metadata_format.sel->get_index(i);
		auto value_row = value_format.sel->get_index(i);
		if (!outer.validity.RowIsValid(row) || !metadata_format.validity.RowIsValid(metadata_row) ||
		    !value_format.validity.RowIsValid(value_row)) {
			FlatVector::SetNull(bytes, i, true);
			continue;
		}
		auto &first = metadata[metadata_row];
		auto &second = values[value_row];
		auto joined = StringVector::EmptyString(bytes, first.GetSize() + second.GetSize());
		memcpy(joined.GetDataWriteable(), first.GetData(), first.GetSize());
		memcpy(joined.GetDataWriteable() + first.GetSize(), second.GetData(), second.GetSize());
		joined.Finalize();
		target[i] = joined;
	}
	auto function = BindConversion(context, "variant_bytes_to_variant", LogicalType::BLOB);
	Execute(context, *function, bytes, result, count);
}

} // namespace moraine
