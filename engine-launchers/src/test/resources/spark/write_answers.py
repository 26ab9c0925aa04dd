"""A PySpark application: runs each query of a JSON list [{"name": ..., "sql": ...}] through the session's
catalogs and writes its answer as Parquet to <output>/<name>, so the test can compare it with DuckDB's."""
import json
import sys

from pyspark.sql import SparkSession

queries_file, output = sys.argv[1], sys.argv[2]
spark = SparkSession.builder.getOrCreate()
with open(queries_file) as f:
    queries = json.load(f)
for query in queries:
    spark.sql(query["sql"]).write.mode("overwrite").parquet(output + "/" + query["name"])
print("wrote %d answers" % len(queries))
spark.stop()
