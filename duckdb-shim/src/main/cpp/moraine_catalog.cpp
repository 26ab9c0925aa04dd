#include "moraine_catalog.hpp"

#include "jvm_bridge.hpp"
#include "moraine_scan.hpp"

#include "duckdb/common/exception/catalog_exception.hpp"
#include "duckdb/parser/parsed_data/create_schema_info.hpp"
#include "duckdb/parser/parsed_data/create_table_info.hpp"
#include "duckdb/parser/parsed_data/drop_info.hpp"
#include "duckdb/storage/database_size.hpp"
#include "duckdb/storage/table_storage_info.hpp"

namespace moraine {

void RefuseWrite(const string &what) {
	throw NotImplementedException("moraine: %s is not supported by this version of the moraine extension: its "
	                              "standalone attach serves the catalog for reading (writes through DuckLake come "
	                              "with a later version)",
	                              what);
}

// ---------------------------------------------------------------------------------------------------------------
// Tables

MoraineTableEntry::MoraineTableEntry(Catalog &catalog, SchemaCatalogEntry &schema, CreateTableInfo &info,
                                     bool served_p, unique_ptr<ArrowTableSchema> arrow_schema_p)
    : TableCatalogEntry(catalog, schema, info), served(served_p), arrow_schema(std::move(arrow_schema_p)) {
}

unique_ptr<BaseStatistics> MoraineTableEntry::GetStatistics(ClientContext &context, column_t column_id) {
	return nullptr;
}

TableFunction MoraineTableEntry::GetScanFunction(ClientContext &context, unique_ptr<FunctionData> &bind_data) {
	bind_data = make_uniq<MoraineScanBindData>(*this);
	return MoraineScanFunction();
}

TableStorageInfo MoraineTableEntry::GetStorageInfo(ClientContext &context) {
	return TableStorageInfo();
}

// ---------------------------------------------------------------------------------------------------------------
// Schemas

MoraineSchemaEntry::MoraineSchemaEntry(Catalog &catalog, CreateSchemaInfo &info) : SchemaCatalogEntry(catalog, info) {
}

void MoraineSchemaEntry::AddTable(unique_ptr<MoraineTableEntry> table) {
	auto name = table->name;
	if (tables.find(name) != tables.end()) {
		// A user table named like a served table: the served one stays addressable.
		return;
	}
	order.push_back(name);
	tables[name] = std::move(table);
}

void MoraineSchemaEntry::Scan(ClientContext &context, CatalogType type,
                              const std::function<void(CatalogEntry &)> &callback) {
	Scan(type, callback);
}

void MoraineSchemaEntry::Scan(CatalogType type, const std::function<void(CatalogEntry &)> &callback) {
	if (type != CatalogType::TABLE_ENTRY) {
		return;
	}
	for (auto &name : order) {
		callback(*tables[name]);
	}
}

optional_ptr<CatalogEntry> MoraineSchemaEntry::LookupEntry(CatalogTransaction transaction,
                                                           const EntryLookupInfo &lookup_info) {
	if (lookup_info.GetCatalogType() != CatalogType::TABLE_ENTRY) {
		return nullptr;
	}
	auto found = tables.find(lookup_info.GetEntryName());
	if (found == tables.end()) {
		return nullptr;
	}
	return found->second.get();
}

optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateIndex(CatalogTransaction, CreateIndexInfo &, TableCatalogEntry &) {
	RefuseWrite("CREATE INDEX");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateFunction(CatalogTransaction, CreateFunctionInfo &) {
	RefuseWrite("CREATE FUNCTION");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateTable(CatalogTransaction, BoundCreateTableInfo &) {
	RefuseWrite("CREATE TABLE");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateView(CatalogTransaction, CreateViewInfo &) {
	RefuseWrite("CREATE VIEW");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateSequence(CatalogTransaction, CreateSequenceInfo &) {
	RefuseWrite("CREATE SEQUENCE");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateTableFunction(CatalogTransaction, CreateTableFunctionInfo &) {
	RefuseWrite("creating a table function");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateCopyFunction(CatalogTransaction, CreateCopyFunctionInfo &) {
	RefuseWrite("creating a copy function");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreatePragmaFunction(CatalogTransaction, CreatePragmaFunctionInfo &) {
	RefuseWrite("creating a pragma function");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateCollation(CatalogTransaction, CreateCollationInfo &) {
	RefuseWrite("CREATE COLLATION");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateType(CatalogTransaction, CreateTypeInfo &) {
	RefuseWrite("CREATE TYPE");
}
void MoraineSchemaEntry::DropEntry(ClientContext &, DropInfo &) {
	RefuseWrite("DROP");
}
void MoraineSchemaEntry::Alter(CatalogTransaction, AlterInfo &) {
	RefuseWrite("ALTER");
}

// ---------------------------------------------------------------------------------------------------------------
// Catalog

MoraineCatalog::MoraineCatalog(AttachedDatabase &db, AttachSettings settings_p, jlong handle_p)
    : Catalog(db), settings(std::move(settings_p)), handle(handle_p) {
}

MoraineCatalog::~MoraineCatalog() {
	try {
		Close();
	} catch (...) {
		// Nothing may escape a destructor; the store closes when the process ends.
	}
}

void MoraineCatalog::Close() {
	if (handle == 0) {
		return;
	}
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	auto closing = handle;
	handle = 0;
	env->CallStaticVoidMethod(jvm.bridge, jvm.close_catalog, closing);
	jvm.Check(env);
}

void MoraineCatalog::OnDetach(ClientContext &context) {
	Close();
}

void MoraineCatalog::Initialize(bool load_builtin) {
}

MoraineSchemaEntry &MoraineCatalog::SchemaFor(const string &name) {
	auto found = schemas.find(name);
	if (found != schemas.end()) {
		return *found->second;
	}
	CreateSchemaInfo info;
	info.schema = name;
	auto schema = make_uniq<MoraineSchemaEntry>(*this, info);
	auto &result = *schema;
	schema_order.push_back(name);
	schemas[name] = std::move(schema);
	return result;
}

static vector<string> Split(const string &text, char separator) {
	vector<string> parts;
	size_t start = 0;
	while (true) {
		auto end = text.find(separator, start);
		parts.push_back(text.substr(start, end == string::npos ? string::npos : end - start));
		if (end == string::npos) {
			return parts;
		}
		start = end + 1;
	}
}

void MoraineCatalog::LoadEntries(ClientContext &context) {
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	LocalFrame frame(env);
	auto listing = static_cast<jobjectArray>(env->CallStaticObjectMethod(jvm.bridge, jvm.list_tables, handle));
	jvm.Check(env);
	// One entry per table: schema, name, "1" if served (its columns then come as an Arrow schema) or "0" followed by
	// the user table's column names and DuckDB types.
	for (auto &line : FromJava(env, listing)) {
		auto parts = Split(line, '\x1f');
		if (parts.size() < 3) {
			throw InternalException("moraine: malformed table listing entry from the Java side");
		}
		auto &schema = SchemaFor(parts[0]);
		CreateTableInfo info(schema, parts[1]);
		bool served = parts[2] == "1";
		unique_ptr<ArrowTableSchema> arrow_schema;
		if (served) {
			ArrowSchemaWrapper wrapper;
			LocalFrame call(env);
			env->CallStaticVoidMethod(jvm.bridge, jvm.table_schema, handle, ToJava(env, parts[0]), ToJava(env, parts[1]),
			                          reinterpret_cast<jlong>(&wrapper.arrow_schema));
			jvm.Check(env);
			arrow_schema = make_uniq<ArrowTableSchema>();
			ArrowTableFunction::PopulateArrowTableSchema(context, *arrow_schema, wrapper.arrow_schema);
			auto &names = arrow_schema->GetNames();
			auto &types = arrow_schema->GetTypes();
			for (idx_t i = 0; i < names.size(); i++) {
				info.columns.AddColumn(ColumnDefinition(names[i], types[i]));
			}
		} else {
			for (idx_t i = 3; i + 1 < parts.size(); i += 2) {
				info.columns.AddColumn(ColumnDefinition(parts[i], TransformStringToLogicalType(parts[i + 1], context)));
			}
		}
		schema.AddTable(make_uniq<MoraineTableEntry>(*this, schema, info, served, std::move(arrow_schema)));
	}
}

optional_ptr<CatalogEntry> MoraineCatalog::CreateSchema(CatalogTransaction, CreateSchemaInfo &) {
	RefuseWrite("CREATE SCHEMA");
}

void MoraineCatalog::DropSchema(ClientContext &, DropInfo &) {
	RefuseWrite("DROP SCHEMA");
}

optional_ptr<SchemaCatalogEntry> MoraineCatalog::LookupSchema(CatalogTransaction transaction,
                                                              const EntryLookupInfo &schema_lookup,
                                                              OnEntryNotFound if_not_found) {
	auto found = schemas.find(schema_lookup.GetEntryName());
	if (found != schemas.end()) {
		return found->second.get();
	}
	if (if_not_found == OnEntryNotFound::RETURN_NULL) {
		return nullptr;
	}
	throw CatalogException("moraine catalog %s has no schema %s", GetName(), schema_lookup.GetEntryName());
}

void MoraineCatalog::ScanSchemas(ClientContext &context, std::function<void(SchemaCatalogEntry &)> callback) {
	for (auto &name : schema_order) {
		callback(*schemas[name]);
	}
}

PhysicalOperator &MoraineCatalog::PlanCreateTableAs(ClientContext &, PhysicalPlanGenerator &, LogicalCreateTable &,
                                                    PhysicalOperator &) {
	RefuseWrite("CREATE TABLE AS");
}
PhysicalOperator &MoraineCatalog::PlanInsert(ClientContext &, PhysicalPlanGenerator &, LogicalInsert &,
                                             optional_ptr<PhysicalOperator>) {
	RefuseWrite("INSERT");
}
PhysicalOperator &MoraineCatalog::PlanDelete(ClientContext &, PhysicalPlanGenerator &, LogicalDelete &,
                                             PhysicalOperator &) {
	RefuseWrite("DELETE");
}
PhysicalOperator &MoraineCatalog::PlanUpdate(ClientContext &, PhysicalPlanGenerator &, LogicalUpdate &,
                                             PhysicalOperator &) {
	RefuseWrite("UPDATE");
}

DatabaseSize MoraineCatalog::GetDatabaseSize(ClientContext &context) {
	return DatabaseSize();
}

CatalogLookupBehavior MoraineCatalog::CatalogTypeLookupRule(CatalogType type) const {
	// Only tables live here; the binder never needs to ask this catalog for functions, types or macros.
	return type == CatalogType::TABLE_ENTRY ? CatalogLookupBehavior::STANDARD : CatalogLookupBehavior::NEVER_LOOKUP;
}

// ---------------------------------------------------------------------------------------------------------------
// Transactions: reads need none of their own yet (each scan reads the store's latest state).

MoraineTransactionManager::MoraineTransactionManager(AttachedDatabase &db, MoraineCatalog &catalog)
    : TransactionManager(db) {
}

Transaction &MoraineTransactionManager::StartTransaction(ClientContext &context) {
	auto transaction = make_uniq<MoraineTransaction>(*this, context);
	auto &result = *transaction;
	lock_guard<mutex> guard(lock);
	transactions[result] = std::move(transaction);
	return result;
}

ErrorData MoraineTransactionManager::CommitTransaction(ClientContext &context, Transaction &transaction) {
	lock_guard<mutex> guard(lock);
	transactions.erase(transaction);
	return ErrorData();
}

void MoraineTransactionManager::RollbackTransaction(Transaction &transaction) {
	lock_guard<mutex> guard(lock);
	transactions.erase(transaction);
}

void MoraineTransactionManager::Checkpoint(ClientContext &context, bool force) {
}

} // namespace moraine
