"""A PySpark application that runs SQL statements read from a named pipe (its argument; spark-submit does not pass
stdin on to the Python process), one per line, through the session's catalogs: for each it prints the answer's rows
as 'ROW <values joined by |>' (NULL for a null), then 'DONE', or 'ERROR <message>' then 'DONE', so a test can drive
one Spark driver statement by statement."""
import sys

from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
print("READY", flush=True)
with open(sys.argv[1]) as statements:
    for line in statements:
        sql = line.strip()
        if not sql:
            continue
        try:
            for row in spark.sql(sql).collect():
                print("ROW " + "|".join("NULL" if value is None else str(value) for value in row), flush=True)
        except Exception as e:
            print("ERROR " + str(e).replace("\n", " "), flush=True)
        print("DONE", flush=True)
spark.stop()
