"""A PySpark application for a cluster: waits until <executors> executors have registered, prints their ids, then runs
each step of a JSON list in order: {"name": ..., "sql": ...} writes the query's answer as Parquet to <output>/<name>;
{"sql": ...} alone runs a statement (a write)."""
import json
import sys
import time

from pyspark.sql import SparkSession

steps_file, output, executors = sys.argv[1], sys.argv[2], int(sys.argv[3])
began = time.time()
spark = SparkSession.builder.getOrCreate()
tracker = spark.sparkContext._jsc.sc()
deadline = time.time() + 300
while tracker.getExecutorIds().size() < executors:
    if time.time() > deadline:
        raise SystemExit("only %d of %d executors registered within 300 s" % (tracker.getExecutorIds().size(), executors))
    time.sleep(0.2)
print("executors: %s" % sorted(tracker.getExecutorIds().mkString(",").split(",")))
print("timing: session and %d executors in %.1f s" % (executors, time.time() - began))
with open(steps_file) as f:
    steps = json.load(f)
answers = 0
for step in steps:
    started = time.time()
    if "name" in step:
        spark.sql(step["sql"]).write.mode("overwrite").parquet(output + "/" + step["name"])
        answers += 1
    else:
        spark.sql(step["sql"]).collect()
    print("timing: %.1f s %s" % (time.time() - started, step.get("name", step["sql"][:60])))
print("ran %d steps, wrote %d answers" % (len(steps), answers))
spark.stop()
