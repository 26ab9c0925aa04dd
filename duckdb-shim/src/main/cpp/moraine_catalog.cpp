#include "moraine_catalog.hpp"

#include "interrupt_watcher.hpp"
#include "jvm_bridge.hpp"
#include "moraine_scan.hpp"
#include "moraine_write.hpp"
#include "hugeint_transport.hpp"
#include "variant_transport.hpp"

#include "duckdb/common/arrow/arrow_converter.hpp"
#include "duckdb/execution/physical_plan_generator.hpp"
#include "duckdb/main/client_context.hpp"
#include "duckdb/common/string_util.hpp"
#include "duckdb/planner/expression/bound_reference_expression.hpp"
#include "duckdb/planner/operator/logical_delete.hpp"
#include "duckdb/planner/operator/logical_insert.hpp"
#include "duckdb/planner/operator/logical_update.hpp"
#include "duckdb/planner/parsed_data/bound_create_table_info.hpp"

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

MoraineSchemaEntry::MoraineSchemaEntry(Catalog &catalog, CreateSchemaInfo &info, jlong handle_p, string served_name_p)
    : SchemaCatalogEntry(catalog, info), handle(handle_p), served_name(std::move(served_name_p)) {
}

jlong MoraineSchemaEntry::JavaTransaction(ClientContext &context) {
	return Transaction::Get(context, ParentCatalog()).Cast<MoraineTransaction>().JavaTransaction(handle);
}

optional_ptr<MoraineTableEntry> MoraineSchemaEntry::FindTable(const string &name) {
	lock_guard<mutex> guard(tables_lock);
	auto found = tables.find(name);
	return found == tables.end() ? nullptr : found->second.get();
}

void MoraineSchemaEntry::AddTable(unique_ptr<MoraineTableEntry> table) {
	lock_guard<mutex> guard(tables_lock);
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
	vector<reference<MoraineTableEntry>> listed;
	{
		lock_guard<mutex> guard(tables_lock);
		for (auto &name : order) {
			listed.push_back(*tables[name]);
		}
	}
	for (auto &table : listed) {
		callback(table.get());
	}
}

optional_ptr<CatalogEntry> MoraineSchemaEntry::LookupEntry(CatalogTransaction transaction,
                                                           const EntryLookupInfo &lookup_info) {
	if (lookup_info.GetCatalogType() != CatalogType::TABLE_ENTRY) {
		return nullptr;
	}
	auto &name = lookup_info.GetEntryName();
	auto table = FindTable(name);
	if (!table && served_name == "main" && transaction.context && StringUtil::StartsWith(name, "ducklake_inlined_")) {
		// An inlined table another process created after this attach listed its tables, served by this transaction's
		// first read (the Java side reads nothing here: DuckLake takes a failed lookup for absence).
		auto &jvm = Jvm::Existing();
		auto env = jvm.Env();
		jboolean serves;
		{
			LocalFrame frame(env);
			serves = env->CallStaticBooleanMethod(jvm.bridge, jvm.serves_table, handle, ToJava(env, name));
		}
		jvm.Check(env);
		if (serves) {
			AddTable(ParentCatalog().Cast<MoraineCatalog>().ServedEntry(*transaction.context, *this, name));
			table = FindTable(name);
		}
	}
	return table ? optional_ptr<CatalogEntry>(table.get()) : nullptr;
}

optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateIndex(CatalogTransaction, CreateIndexInfo &, TableCatalogEntry &) {
	RefuseWrite("CREATE INDEX");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateFunction(CatalogTransaction, CreateFunctionInfo &) {
	RefuseWrite("CREATE FUNCTION");
}
optional_ptr<CatalogEntry> MoraineSchemaEntry::CreateTable(CatalogTransaction transaction, BoundCreateTableInfo &info) {
	auto &base = info.Base();
	if (info.query) {
		RefuseWrite("CREATE TABLE AS");
	}
	if (!transaction.context || !transaction.transaction) {
		throw InternalException("moraine: CREATE TABLE outside a transaction");
	}
	auto &context = *transaction.context;
	auto &catalog = ParentCatalog().Cast<MoraineCatalog>();
	catalog.RequireWritable("CREATE TABLE");
	optional_ptr<MoraineTableEntry> existing;
	{
		// The core decides which tables a moraine catalog holds, and whether this transaction creates the table (also
		// one an uncommitted transaction created, when DuckLake retries its commit); the columns go as DuckDB exports them.
		vector<string> names;
		vector<LogicalType> types;
		vector<string> uuid_columns;
		vector<string> variant_columns;
		for (auto &column : base.columns.Physical()) {
			names.push_back(column.Name());
			// A VARIANT column goes as its transport struct, and is named so that the core stores it as a VARIANT.
			types.push_back(TransportType(column.Type(), column.Name()));
			if (column.Type().id() == LogicalTypeId::UUID) {
				uuid_columns.push_back(column.Name());
			}
			if (column.Type().id() == LogicalTypeId::VARIANT) {
				variant_columns.push_back(column.Name());
			}
		}
		ArrowSchema schema;
		auto properties = context.GetClientProperties();
		ArrowConverter::ToArrowSchema(&schema, types, names, properties);
		// HUGEINT and UHUGEINT go as 16-byte integers naming their type, not as DECIMAL(38,0) (hugeint_transport.hpp).
		MarkHugeintFields(schema, types);
		auto &jvm = Jvm::Existing();
		auto env = jvm.Env();
		LocalFrame frame(env);
		auto java_transaction = transaction.transaction->Cast<MoraineTransaction>().JavaTransaction(handle);
		auto created = env->CallStaticBooleanMethod(jvm.bridge, jvm.create_table, java_transaction,
		                                            ToJava(env, served_name), ToJava(env, base.table),
		                                            reinterpret_cast<jlong>(&schema), ToJava(env, uuid_columns),
		                                            ToJava(env, variant_columns));
		jvm.Check(env);
		if (created) {
			if (!FindTable(base.table)) {
				AddTable(catalog.ServedEntry(context, *this, base.table));
			}
			return FindTable(base.table).get();
		}
		// The core serves the table already.
		existing = FindTable(base.table);
		if (!existing) {
			AddTable(catalog.ServedEntry(context, *this, base.table));
			existing = FindTable(base.table);
		}
	}
	if (base.on_conflict == OnCreateConflict::IGNORE_ON_CONFLICT) {
		return existing.get();
	}
	throw CatalogException("moraine: table %s.%s already exists", name, base.table);
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
void MoraineSchemaEntry::RemoveTable(const string &name) {
	lock_guard<mutex> guard(tables_lock);
	auto found = tables.find(name);
	if (found == tables.end()) {
		return;
	}
	dropped.push_back(std::move(found->second));
	tables.erase(found);
	for (auto it = order.begin(); it != order.end(); ++it) {
		if (StringUtil::CIEquals(*it, name)) {
			order.erase(it);
			break;
		}
	}
}

void MoraineSchemaEntry::DropEntry(ClientContext &context, DropInfo &info) {
	if (info.type != CatalogType::TABLE_ENTRY) {
		RefuseWrite("DROP of anything but a table");
	}
	auto &catalog = ParentCatalog().Cast<MoraineCatalog>();
	catalog.RequireWritable("DROP TABLE");
	bool existed = false;
	if (FindTable(info.name)) {
		auto &jvm = Jvm::Existing();
		auto env = jvm.Env();
		LocalFrame frame(env);
		existed = env->CallStaticBooleanMethod(jvm.bridge, jvm.drop_table, JavaTransaction(context),
		                                       ToJava(env, served_name),
		                                       ToJava(env, info.name));
		jvm.Check(env);
	}
	if (existed) {
		RemoveTable(info.name);
		return;
	}
	if (info.if_not_found != OnEntryNotFound::RETURN_NULL) {
		throw CatalogException("moraine: table %s.%s does not exist", name, info.name);
	}
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
	vector<jlong> closing {handle};
	{
		lock_guard<mutex> guard(schemas_lock);
		closing.insert(closing.end(), schema_handles.begin(), schema_handles.end());
		schema_handles.clear();
	}
	handle = 0;
	for (auto attach : closing) {
		env->CallStaticVoidMethod(jvm.bridge, jvm.close_catalog, attach);
		jvm.Check(env);
	}
}

void MoraineCatalog::RequireWritable(const string &statement) {
	// AUTOMATIC opens a local store read-write (DuckDB bumps remote ones to READ_ONLY before the attach).
	if (settings.mode == "READ_ONLY" || !settings.checkpoint_id.empty()) {
		throw NotImplementedException("moraine: %s is not supported on a %s attach of %s; attach it READ_WRITE (the only "
		                              "writer of the store) to write",
		                              statement, settings.checkpoint_id.empty() ? settings.mode : "CHECKPOINT", settings.uri);
	}
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
	auto schema = make_uniq<MoraineSchemaEntry>(*this, info, handle, name);
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
	lock_guard<mutex> guard(schemas_lock);
	// Schema main always exists: a new lake's DuckLake bootstrap creates its tables there.
	SchemaFor("main");
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
		if (parts[2] == "1") {
			schema.AddTable(ServedEntry(context, schema, parts[1]));
			continue;
		}
		CreateTableInfo info(schema, parts[1]);
		for (idx_t i = 3; i + 1 < parts.size(); i += 2) {
			info.columns.AddColumn(ColumnDefinition(parts[i], TransformStringToLogicalType(parts[i + 1], context)));
		}
		schema.AddTable(make_uniq<MoraineTableEntry>(*this, schema, info, false, nullptr));
	}
}

unique_ptr<MoraineTableEntry> MoraineCatalog::ServedEntry(ClientContext &context, MoraineSchemaEntry &schema,
                                                          const string &name) {
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	CreateTableInfo info(schema, name);
	ArrowSchemaWrapper wrapper;
	{
		LocalFrame call(env);
		env->CallStaticVoidMethod(jvm.bridge, jvm.table_schema, schema.handle, ToJava(env, schema.served_name),
		                          ToJava(env, name),
		                          reinterpret_cast<jlong>(&wrapper.arrow_schema));
		jvm.Check(env);
	}
	auto arrow_schema = make_uniq<ArrowTableSchema>();
	ArrowTableFunction::PopulateArrowTableSchema(context, *arrow_schema, wrapper.arrow_schema);
	auto &names = arrow_schema->GetNames();
	auto &types = arrow_schema->GetTypes();
	for (idx_t i = 0; i < names.size(); i++) {
		// DuckDB reads an arrow.parquet.variant field as its storage struct; the column is a VARIANT, converted per scan.
		bool variant = IsArrowVariantField(*wrapper.arrow_schema.children[i]);
		info.columns.AddColumn(ColumnDefinition(names[i], variant ? LogicalType::VARIANT() : types[i]));
	}
	return make_uniq<MoraineTableEntry>(*this, schema, info, true, std::move(arrow_schema));
}

MoraineSchemaEntry &MoraineCatalog::AddMetadataSchema(ClientContext &context, const string &name, jlong schema_handle) {
	schema_handles.push_back(schema_handle);
	CreateSchemaInfo info;
	info.schema = name;
	auto schema = make_uniq<MoraineSchemaEntry>(*this, info, schema_handle, string(METADATA_SCHEMA_NAME));
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	LocalFrame frame(env);
	auto listing = static_cast<jobjectArray>(env->CallStaticObjectMethod(jvm.bridge, jvm.list_tables, schema_handle));
	jvm.Check(env);
	// Only the lake's metadata tables: its user tables are read through the DuckLake attach that uses this schema.
	for (auto &line : FromJava(env, listing)) {
		auto parts = Split(line, '\x1f');
		if (parts.size() >= 3 && parts[0] == METADATA_SCHEMA_NAME && parts[2] == "1") {
			schema->AddTable(ServedEntry(context, *schema, parts[1]));
		}
	}
	auto &result = *schema;
	schema_order.push_back(name);
	schemas[name] = std::move(schema);
	return result;
}

// CREATE SCHEMA makes a metadata schema: DuckLake's METADATA_SCHEMA, whose lake is a store of its own under this one.
// Nothing is written until DuckLake's bootstrap commits there.
optional_ptr<CatalogEntry> MoraineCatalog::CreateSchema(CatalogTransaction transaction, CreateSchemaInfo &info) {
	if (!transaction.context) {
		throw InternalException("moraine: CREATE SCHEMA outside a client context");
	}
	auto existing = LookupSchema(transaction, EntryLookupInfo(CatalogType::SCHEMA_ENTRY, info.schema),
	                             OnEntryNotFound::RETURN_NULL);
	if (existing) {
		if (info.on_conflict == OnCreateConflict::IGNORE_ON_CONFLICT) {
			return existing.get();
		}
		throw CatalogException("moraine: schema %s already exists in %s", info.schema, GetName());
	}
	RequireWritable("CREATE SCHEMA");
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	jlong schema_handle;
	{
		LocalFrame frame(env);
		schema_handle = env->CallStaticLongMethod(jvm.bridge, jvm.open_metadata_schema, handle,
		                                          ToJava(env, info.schema), static_cast<jboolean>(true));
		jvm.Check(env);
	}
	lock_guard<mutex> guard(schemas_lock);
	return &AddMetadataSchema(*transaction.context, info.schema, schema_handle);
}

void MoraineCatalog::DropSchema(ClientContext &, DropInfo &) {
	RefuseWrite("DROP SCHEMA");
}

optional_ptr<SchemaCatalogEntry> MoraineCatalog::LookupSchema(CatalogTransaction transaction,
                                                              const EntryLookupInfo &schema_lookup,
                                                              OnEntryNotFound if_not_found) {
	auto &name = schema_lookup.GetEntryName();
	lock_guard<mutex> guard(schemas_lock);
	auto found = schemas.find(name);
	if (found != schemas.end()) {
		return found->second.get();
	}
	// A metadata schema another attach created: its lake, if it holds one.
	if (transaction.context && handle != 0) {
		auto &jvm = Jvm::Existing();
		auto env = jvm.Env();
		jlong schema_handle;
		{
			LocalFrame frame(env);
			schema_handle = env->CallStaticLongMethod(jvm.bridge, jvm.open_metadata_schema, handle, ToJava(env, name),
			                                          static_cast<jboolean>(false));
			jvm.Check(env);
		}
		if (schema_handle != 0) {
			return &AddMetadataSchema(*transaction.context, name, schema_handle);
		}
	}
	if (if_not_found == OnEntryNotFound::RETURN_NULL) {
		return nullptr;
	}
	throw CatalogException("moraine catalog %s has no schema %s", GetName(), schema_lookup.GetEntryName());
}

void MoraineCatalog::ScanSchemas(ClientContext &context, std::function<void(SchemaCatalogEntry &)> callback) {
	vector<reference<MoraineSchemaEntry>> listed;
	{
		lock_guard<mutex> guard(schemas_lock);
		for (auto &name : schema_order) {
			listed.push_back(*schemas[name]);
		}
	}
	for (auto &schema : listed) {
		callback(schema.get());
	}
}

PhysicalOperator &MoraineCatalog::PlanCreateTableAs(ClientContext &, PhysicalPlanGenerator &, LogicalCreateTable &,
                                                    PhysicalOperator &) {
	RefuseWrite("CREATE TABLE AS");
}
static MoraineTableEntry &WritableTable(TableCatalogEntry &table, const string &statement) {
	table.catalog.Cast<MoraineCatalog>().RequireWritable(statement);
	auto &entry = table.Cast<MoraineTableEntry>();
	if (!entry.served) {
		throw InvalidInputException("moraine: %s on %s.%s: a moraine catalog's user tables are lake data, written through DuckLake "
		                            "(ATTACH 'ducklake:moraine:<store>' AS lake)",
		                            statement, table.schema.name, table.name);
	}
	return entry;
}

PhysicalOperator &MoraineCatalog::PlanInsert(ClientContext &context, PhysicalPlanGenerator &planner, LogicalInsert &op,
                                             optional_ptr<PhysicalOperator> plan) {
	auto &table = WritableTable(op.table, "INSERT");
	if (op.return_chunk) {
		RefuseWrite("INSERT ... RETURNING");
	}
	if (op.on_conflict_info.action_type != OnConflictAction::THROW) {
		RefuseWrite("INSERT ... ON CONFLICT");
	}
	if (!plan) {
		RefuseWrite("INSERT without a source");
	}
	auto &insert = planner.Make<MoraineInsert>(op.types, table, op.column_index_map, std::move(op.bound_defaults));
	insert.children.push_back(*plan);
	return insert;
}

PhysicalOperator &MoraineCatalog::PlanDelete(ClientContext &context, PhysicalPlanGenerator &planner, LogicalDelete &op,
                                             PhysicalOperator &plan) {
	auto &table = WritableTable(op.table, "DELETE");
	if (op.return_chunk) {
		RefuseWrite("DELETE ... RETURNING");
	}
	auto &row_id = op.expressions[0]->Cast<BoundReferenceExpression>();
	auto &remove = planner.Make<MoraineDelete>(op.types, table, row_id.index);
	remove.children.push_back(plan);
	return remove;
}

PhysicalOperator &MoraineCatalog::PlanUpdate(ClientContext &context, PhysicalPlanGenerator &planner, LogicalUpdate &op,
                                             PhysicalOperator &plan) {
	auto &table = WritableTable(op.table, "UPDATE");
	if (op.return_chunk) {
		RefuseWrite("UPDATE ... RETURNING");
	}
	if (op.update_is_del_and_insert) {
		RefuseWrite("an UPDATE DuckDB plans as a delete and an insert");
	}
	for (auto &expression : op.expressions) {
		if (expression->GetExpressionType() == ExpressionType::VALUE_DEFAULT) {
			RefuseWrite("UPDATE ... SET column = DEFAULT");
		}
	}
	auto &update = planner.Make<MoraineUpdate>(op.types, table, op.columns, std::move(op.expressions));
	update.children.push_back(plan);
	return update;
}

// A plan may hold a served column's range folded into a constant (MIN/MAX from the scan's partition statistics), and
// the rows change with every commit and with the transaction's own writes: a version per query makes DuckDB plan a
// prepared statement on this attach again at each execution.
optional_idx MoraineCatalog::GetCatalogVersion(ClientContext &context) {
	auto query = context.transaction.GetActiveQuery();
	// Outside a query (a prepare through the C API): no version, which no later execution's version equals.
	return query == DConstants::INVALID_INDEX ? optional_idx() : optional_idx(query);
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

MoraineTransactionManager::MoraineTransactionManager(AttachedDatabase &db, MoraineCatalog &catalog_p)
    : TransactionManager(db), catalog(catalog_p) {
}

jlong MoraineTransaction::JavaTransaction(jlong handle) {
	lock_guard<mutex> guard(lock);
	for (auto &begun : java_transactions) {
		if (begun.first == handle) {
			return begun.second;
		}
	}
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	auto java_transaction = env->CallStaticLongMethod(jvm.bridge, jvm.tx_begin, handle);
	jvm.Check(env);
	java_transactions.emplace_back(handle, java_transaction);
	return java_transaction;
}

vector<jlong> MoraineTransaction::TakeJavaTransactions() {
	lock_guard<mutex> guard(lock);
	vector<jlong> result;
	for (auto &begun : java_transactions) {
		result.push_back(begun.second);
	}
	java_transactions.clear();
	return result;
}

Transaction &MoraineTransactionManager::StartTransaction(ClientContext &context) {
	auto transaction = make_uniq<MoraineTransaction>(*this, context);
	auto &result = *transaction;
	lock_guard<mutex> guard(lock);
	transactions[result] = std::move(transaction);
	return result;
}

ErrorData MoraineTransactionManager::CommitTransaction(ClientContext &context, Transaction &transaction) {
	auto java_transactions = transaction.Cast<MoraineTransaction>().TakeJavaTransactions();
	{
		lock_guard<mutex> guard(lock);
		transactions.erase(transaction);
	}
	// DuckDB does not roll a transaction back whose commit failed: the Java side ends it either way. A transaction on
	// two lakes (main and a metadata schema's) commits them one after the other; DuckLake writes one lake per
	// transaction.
	ErrorData error;
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	for (auto java_transaction : java_transactions) {
		try {
			if (error.HasError()) {
				env->CallStaticVoidMethod(jvm.bridge, jvm.tx_rollback, java_transaction);
			} else {
				// Interruptible: interrupted once its batch is submitted, the core reports the outcome unknown.
				InterruptibleCall call(context, catalog.GetName());
				env->CallStaticVoidMethod(jvm.bridge, jvm.tx_commit, java_transaction, call.id);
			}
			jvm.Check(env);
		} catch (std::exception &ex) {
			if (!error.HasError()) {
				error = ErrorData(ex);
			}
		}
	}
	return error;
}

void MoraineTransactionManager::RollbackTransaction(Transaction &transaction) {
	auto java_transactions = transaction.Cast<MoraineTransaction>().TakeJavaTransactions();
	{
		lock_guard<mutex> guard(lock);
		transactions.erase(transaction);
	}
	auto &jvm = Jvm::Existing();
	auto env = jvm.Env();
	for (auto java_transaction : java_transactions) {
		env->CallStaticVoidMethod(jvm.bridge, jvm.tx_rollback, java_transaction);
		jvm.Check(env);
	}
}

void MoraineTransactionManager::Checkpoint(ClientContext &context, bool force) {
}

} // namespace moraine
