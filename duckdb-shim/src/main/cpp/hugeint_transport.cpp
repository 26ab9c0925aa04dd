#include "hugeint_transport.hpp"

#include "duckdb/common/arrow/arrow_converter.hpp"

#include <cstring>

namespace moraine {

namespace {

bool ContainsHugeint(const LogicalType &type) {
	switch (type.id()) {
	case LogicalTypeId::HUGEINT:
	case LogicalTypeId::UHUGEINT:
		return true;
	case LogicalTypeId::STRUCT:
		for (auto &child : StructType::GetChildTypes(type)) {
			if (ContainsHugeint(child.second)) {
				return true;
			}
		}
		return false;
	case LogicalTypeId::LIST:
	case LogicalTypeId::MAP:
		return ContainsHugeint(ListType::GetChildType(type));
	case LogicalTypeId::ARRAY:
		return ContainsHugeint(ArrayType::GetChildType(type));
	default:
		return false;
	}
}

//! Arrow's C metadata holding one entry: an int32 count, then the key and the value, each after its int32 length.
unsafe_unique_array<char> OneEntryMetadata(const string &key, const string &value) {
	auto size = 3 * sizeof(int32_t) + key.size() + value.size();
	auto metadata = make_unsafe_uniq_array<char>(size);
	auto at = metadata.get();
	auto put_int = [&at](int32_t number) {
		memcpy(at, &number, sizeof(number));
		at += sizeof(number);
	};
	put_int(1);
	put_int(static_cast<int32_t>(key.size()));
	memcpy(at, key.data(), key.size());
	at += key.size();
	put_int(static_cast<int32_t>(value.size()));
	memcpy(at, value.data(), value.size());
	return metadata;
}

void MarkField(DuckDBArrowSchemaHolder &holder, ArrowSchema &field, const LogicalType &type) {
	switch (type.id()) {
	case LogicalTypeId::HUGEINT:
	case LogicalTypeId::UHUGEINT: {
		// The 16 bytes DuckDB's appender writes for both types, named by a key of moraine's own: Arrow Java logs every
		// Arrow extension it does not know each time it imports one, and the Java side stores the column in DuckDB's
		// lossless form (arrow.opaque) anyway. The holder keeps the metadata alive as long as the schema.
		field.format = "w:16";
		holder.metadata_info.emplace_back(
		    OneEntryMetadata(HUGEINT_TYPE_KEY, type.id() == LogicalTypeId::HUGEINT ? "HUGEINT" : "UHUGEINT"));
		field.metadata = holder.metadata_info.back().get();
		return;
	}
	case LogicalTypeId::STRUCT: {
		auto &children = StructType::GetChildTypes(type);
		if (static_cast<idx_t>(field.n_children) != children.size()) {
			throw InternalException("moraine: the Arrow export of %s has %d children", type.ToString(), field.n_children);
		}
		for (idx_t i = 0; i < children.size(); i++) {
			if (ContainsHugeint(children[i].second)) {
				MarkField(holder, *field.children[i], children[i].second);
			}
		}
		return;
	}
	case LogicalTypeId::LIST:
	case LogicalTypeId::ARRAY: {
		if (field.n_children != 1) {
			throw InternalException("moraine: the Arrow export of %s has %d children", type.ToString(), field.n_children);
		}
		auto &child = type.id() == LogicalTypeId::LIST ? ListType::GetChildType(type) : ArrayType::GetChildType(type);
		MarkField(holder, *field.children[0], child);
		return;
	}
	case LogicalTypeId::MAP: {
		// An Arrow map holds one "entries" struct of key and value, which is the MAP's LIST child type.
		if (field.n_children != 1) {
			throw InternalException("moraine: the Arrow export of %s has %d children", type.ToString(), field.n_children);
		}
		MarkField(holder, *field.children[0], ListType::GetChildType(type));
		return;
	}
	default:
		return;
	}
}

} // namespace

void MarkHugeintFields(ArrowSchema &schema, const vector<LogicalType> &types) {
	bool any = false;
	for (auto &type : types) {
		any = any || ContainsHugeint(type);
	}
	if (!any) {
		return;
	}
	if (!schema.private_data || static_cast<idx_t>(schema.n_children) != types.size()) {
		throw InternalException("moraine: unexpected Arrow schema from DuckDB's export (%d columns for %d types)",
		                        schema.n_children, types.size());
	}
	// ArrowConverter::ToArrowSchema keeps everything the schema points to in the root's holder.
	auto &holder = *static_cast<DuckDBArrowSchemaHolder *>(schema.private_data);
	for (idx_t i = 0; i < types.size(); i++) {
		if (ContainsHugeint(types[i])) {
			MarkField(holder, *schema.children[i], types[i]);
		}
	}
}

} // namespace moraine
