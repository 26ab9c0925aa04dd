"""Runs in Python's duckdb==1.5.5: loads moraine.duckdb_extension (which starts the JVM itself from
MORAINE_JAVA_HOME / MORAINE_CLASSPATH), attaches the source DuckLake catalog file and the imported store, and
compares every ducklake_* and inlined table: columns, types and rows as multisets. Prints one summary line."""
import re
import sys

import duckdb

extension, source_catalog, store = sys.argv[1:4]
con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
con.execute("SET TimeZone = 'UTC'")
con.execute(f"LOAD '{extension}'")
con.execute(f"ATTACH '{source_catalog}' AS src (READ_ONLY)")
con.execute(f"ATTACH 'moraine:{store}' AS m (READ_ONLY)")

listing = ("SELECT table_name FROM duckdb_tables() WHERE database_name = '{}' AND schema_name = 'main' "
           "AND table_name LIKE 'ducklake_%' ORDER BY table_name")
source_tables = [row[0] for row in con.execute(listing.format("src")).fetchall()]
attached_tables = [row[0] for row in con.execute(listing.format("m")).fetchall()]
if source_tables != attached_tables:
    sys.exit(f"listings differ: {source_tables} vs {attached_tables}")
tables = inlined = rows = 0
for table in source_tables:
    columns = ("SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = '{}' AND schema_name = 'main' "
               f"AND table_name = '{table}' ORDER BY column_index")
    if con.execute(columns.format("src")).fetchall() != con.execute(columns.format("m")).fetchall():
        sys.exit(f"{table}: columns differ")
    source_rows = con.execute(f"SELECT count(*) FROM src.main.{table}").fetchone()[0]
    if con.execute(f"SELECT count(*) FROM m.main.{table}").fetchone()[0] != source_rows:
        sys.exit(f"{table}: row counts differ")
    for first, second in (("src", "m"), ("m", "src")):
        missing = con.execute(f"SELECT count(*) FROM (FROM {first}.main.{table} EXCEPT ALL FROM {second}.main.{table})").fetchone()[0]
        if missing != 0:
            sys.exit(f"{table}: {missing} rows of {first} are not in {second}")
    tables += 1
    rows += source_rows
    if re.fullmatch(r"ducklake_inlined_data_\d+_\d+|ducklake_inlined_delete_\d+", table):
        inlined += 1
try:
    con.execute("SELECT * FROM m.sales.orders").fetchall()
    sys.exit("a user-table scan was not refused")
except duckdb.InvalidInputException as e:
    if "ducklake:moraine:" not in str(e):
        sys.exit(f"the refusal does not name the DuckLake attach: {e}")
print(f"python host: tables={tables} inlined={inlined} rows={rows}")
