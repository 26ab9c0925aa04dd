// The catalog a moraine store appears as in DuckDB: schemas holding the ducklake_* tables, the live inlined tables
// and the lake's user tables, as DuckDB catalog entries. Every row comes from the Java core; nothing here decides
// what a DuckLake row means.
#pragma once

#include "duckdb.hpp"
#include "duckdb/catalog/catalog.hpp"
#include "duckdb/catalog/catalog_entry/schema_catalog_entry.hpp"
#include "duckdb/catalog/catalog_entry/table_catalog_entry.hpp"
#include "duckdb/common/case_insensitive_map.hpp"
#include "duckdb/function/table/arrow.hpp"
#include "duckdb/transaction/transaction.hpp"
#include "duckdb/transaction/transaction_manager.hpp"

#include <jni.h>

namespace moraine {

using namespace duckdb;

//! How an attach opened its store (RFC 0006, "Attach modes").
struct AttachSettings {
	string uri;
	string mode; // READ_WRITE, READ_ONLY or CHECKPOINT
	string checkpoint_id;
	string wal_path;
};

class MoraineCatalog;

//! The schema in which the Java side serves a lake's ducklake_* and inlined tables.
static constexpr const char *METADATA_SCHEMA_NAME = "main";

class MoraineTableEntry : public TableCatalogEntry {
public:
	MoraineTableEntry(Catalog &catalog, SchemaCatalogEntry &schema, CreateTableInfo &info, bool served,
	                  unique_ptr<ArrowTableSchema> arrow_schema);

	//! Whether the core serves this table's rows here (ducklake_* and inlined tables) or refuses them (user tables).
	bool served;
	//! The Arrow form of a served table's columns, which scans convert from.
	unique_ptr<ArrowTableSchema> arrow_schema;

	unique_ptr<BaseStatistics> GetStatistics(ClientContext &context, column_t column_id) override;
	TableFunction GetScanFunction(ClientContext &context, unique_ptr<FunctionData> &bind_data) override;
	TableStorageInfo GetStorageInfo(ClientContext &context) override;
};

class MoraineSchemaEntry : public SchemaCatalogEntry {
public:
	//! `handle`: the Java attach serving the schema's tables, known there as schema `served_name` (a metadata
	//! schema's lake serves its ducklake_* tables as "main").
	MoraineSchemaEntry(Catalog &catalog, CreateSchemaInfo &info, jlong handle, string served_name);

	const jlong handle;
	const string served_name;
	//! The Java transaction of `context`'s DuckDB transaction on this schema's attach.
	jlong JavaTransaction(ClientContext &context);

	void AddTable(unique_ptr<MoraineTableEntry> table);
	optional_ptr<MoraineTableEntry> FindTable(const string &name);
	//! Unlists a table; its entry lives on, as bound plans may still refer to it.
	void RemoveTable(const string &name);

	void Scan(ClientContext &context, CatalogType type, const std::function<void(CatalogEntry &)> &callback) override;
	void Scan(CatalogType type, const std::function<void(CatalogEntry &)> &callback) override;
	optional_ptr<CatalogEntry> LookupEntry(CatalogTransaction transaction, const EntryLookupInfo &lookup_info) override;

	optional_ptr<CatalogEntry> CreateIndex(CatalogTransaction transaction, CreateIndexInfo &info,
	                                       TableCatalogEntry &table) override;
	optional_ptr<CatalogEntry> CreateFunction(CatalogTransaction transaction, CreateFunctionInfo &info) override;
	optional_ptr<CatalogEntry> CreateTable(CatalogTransaction transaction, BoundCreateTableInfo &info) override;
	optional_ptr<CatalogEntry> CreateView(CatalogTransaction transaction, CreateViewInfo &info) override;
	optional_ptr<CatalogEntry> CreateSequence(CatalogTransaction transaction, CreateSequenceInfo &info) override;
	optional_ptr<CatalogEntry> CreateTableFunction(CatalogTransaction transaction,
	                                               CreateTableFunctionInfo &info) override;
	optional_ptr<CatalogEntry> CreateCopyFunction(CatalogTransaction transaction, CreateCopyFunctionInfo &info) override;
	optional_ptr<CatalogEntry> CreatePragmaFunction(CatalogTransaction transaction,
	                                                CreatePragmaFunctionInfo &info) override;
	optional_ptr<CatalogEntry> CreateCollation(CatalogTransaction transaction, CreateCollationInfo &info) override;
	optional_ptr<CatalogEntry> CreateType(CatalogTransaction transaction, CreateTypeInfo &info) override;
	void DropEntry(ClientContext &context, DropInfo &info) override;
	void Alter(CatalogTransaction transaction, AlterInfo &info) override;

private:
	mutex tables_lock;
	case_insensitive_map_t<unique_ptr<MoraineTableEntry>> tables;
	vector<string> order;
	vector<unique_ptr<MoraineTableEntry>> dropped;
};

class MoraineCatalog : public Catalog {
public:
	MoraineCatalog(AttachedDatabase &db, AttachSettings settings, jlong handle);
	~MoraineCatalog() override;

	AttachSettings settings;
	//! The Java catalog this attach opened (a handle into the bridge's registry): the store's lake, schema main.
	jlong handle;

	//! Refuses a write on an attach that is not READ_WRITE.
	void RequireWritable(const string &statement);
	//! Reads the schemas and tables from the core (at ATTACH, on the attaching thread).
	void LoadEntries(ClientContext &context);
	//! The entry of a table the core serves, its columns from the core's Arrow schema for it.
	unique_ptr<MoraineTableEntry> ServedEntry(ClientContext &context, MoraineSchemaEntry &schema, const string &name);

	void Initialize(bool load_builtin) override;
	string GetCatalogType() override {
		return "moraine";
	}
	optional_ptr<CatalogEntry> CreateSchema(CatalogTransaction transaction, CreateSchemaInfo &info) override;
	optional_ptr<SchemaCatalogEntry> LookupSchema(CatalogTransaction transaction, const EntryLookupInfo &schema_lookup,
	                                              OnEntryNotFound if_not_found) override;
	void ScanSchemas(ClientContext &context, std::function<void(SchemaCatalogEntry &)> callback) override;
	PhysicalOperator &PlanCreateTableAs(ClientContext &context, PhysicalPlanGenerator &planner, LogicalCreateTable &op,
	                                    PhysicalOperator &plan) override;
	PhysicalOperator &PlanInsert(ClientContext &context, PhysicalPlanGenerator &planner, LogicalInsert &op,
	                             optional_ptr<PhysicalOperator> plan) override;
	PhysicalOperator &PlanDelete(ClientContext &context, PhysicalPlanGenerator &planner, LogicalDelete &op,
	                             PhysicalOperator &plan) override;
	PhysicalOperator &PlanUpdate(ClientContext &context, PhysicalPlanGenerator &planner, LogicalUpdate &op,
	                             PhysicalOperator &plan) override;
	DatabaseSize GetDatabaseSize(ClientContext &context) override;
	bool InMemory() override {
		return false;
	}
	string GetDBPath() override {
		return settings.uri;
	}
	CatalogLookupBehavior CatalogTypeLookupRule(CatalogType type) const override;
	optional_idx GetCatalogVersion(ClientContext &context) override;
	void OnDetach(ClientContext &context) override;

private:
	void DropSchema(ClientContext &context, DropInfo &info) override;
	MoraineSchemaEntry &SchemaFor(const string &name);
	//! Lists the schema of a metadata schema's lake (opened as Java attach `schema_handle`).
	MoraineSchemaEntry &AddMetadataSchema(ClientContext &context, const string &name, jlong schema_handle);
	void Close();

	//! Guards the schema map: DuckLake's probe and CREATE SCHEMA add schemas after the attach.
	mutex schemas_lock;
	case_insensitive_map_t<unique_ptr<MoraineSchemaEntry>> schemas;
	vector<string> schema_order;
	//! The Java attaches of metadata schemas (docs/duckdb.md, "Metadata schemas"), closed with this one.
	vector<jlong> schema_handles;
};

//! A DuckDB transaction on a moraine attach, and the Java transactions its writes are staged in: one per Java attach
//! it uses (the store's lake and the lakes of metadata schemas), begun at first use.
class MoraineTransaction : public Transaction {
public:
	MoraineTransaction(TransactionManager &manager, ClientContext &context) : Transaction(manager, context) {
	}
	//! The Java transaction on attach `handle`.
	jlong JavaTransaction(jlong handle);
	//! Every Java transaction begun, handing them over (the transaction ends with them).
	vector<jlong> TakeJavaTransactions();

private:
	mutex lock;
	vector<std::pair<jlong, jlong>> java_transactions;
};

class MoraineTransactionManager : public TransactionManager {
public:
	MoraineTransactionManager(AttachedDatabase &db, MoraineCatalog &catalog);

	Transaction &StartTransaction(ClientContext &context) override;
	ErrorData CommitTransaction(ClientContext &context, Transaction &transaction) override;
	void RollbackTransaction(Transaction &transaction) override;
	void Checkpoint(ClientContext &context, bool force = false) override;

private:
	MoraineCatalog &catalog;
	mutex lock;
	reference_map_t<Transaction, unique_ptr<MoraineTransaction>> transactions;
};

//! The refusal every write path gives in this version of the extension.
[[noreturn]] void RefuseWrite(const string &what);

} // namespace moraine
