#!/usr/bin/env python3
"""Runs DuckLake's own sqllogictest corpus (test/sql/**/*.test) on Python's duckdb, once with a DuckDB-file
catalog and once through moraine, and compares the two.

Two modes:

  run-file FILE   runs one .test file in this process and prints one JSON line: status (pass/fail/skip), records
                  run, the first failing record (line, SQL, expected and actual or the error) or the skip reason.
  run             the driver: runs every selected file in child processes with a timeout (workers that run file
                  after file; a file that fails or crashes there runs again in a process of its own), on each
                  catalog, prints both tallies and every file that passes on the DuckDB-file catalog but not on
                  moraine. Exit status: 0 every such file passes on moraine (or is listed as not applicable), 1 not,
                  2 usage error.

The catalogs: `duckdb-file` runs each file as written (DUCKLAKE_CONNECTION defaults to a DuckDB file in the file's
test directory); `moraine` loads the moraine extension into each database and puts `moraine:` before the file's own default of
DUCKLAKE_CONNECTION (and DUCKLAKE_CONNECTION_2, _A, _B), so each becomes a store where the file would keep its DuckDB
catalog (as upstream's configurations put `sqlite:` or `postgres:` before theirs).

The semantics follow DuckDB's sqllogictest runner: statement ok|error|maybe [connection], query with sort modes,
labels and result hashing, named connections, require, require-env, test-env, loops (concurrentloop and
concurrentforeach run their iterations in threads, one connection each, as DuckDB's runner does), skipif/onlyif,
mode skip/unskip, unzip, set/reset, sleep and keyword substitution. Values are rendered by DuckDB itself
(CAST(... AS VARCHAR) on the query's own connection), with the runner's rules for NULL, empty strings, booleans
and the numeric comparison of mismatching values (floating point within 1%).

Run with the Python that has duckdb==1.5.5 (build-support/python-duckdb.sh prints it), from anywhere:

  python3 conformance/ducklake_corpus.py run --catalogs duckdb-file,moraine --jobs 2 --json /tmp/out.json
  python3 conformance/ducklake_corpus.py run-file test/sql/data_inlining/data_inlining_flush.test --catalog moraine

bin/moraine conformance ducklake-corpus [options] runs the driver with the right interpreter and settings.
"""

import argparse
import concurrent.futures
import gzip
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import queue
import tempfile
import threading
import time
import traceback
import uuid

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CORPUS = os.path.normpath(os.path.join(REPO, "..", "shared", "ducklake-corpus"))
NOT_APPLICABLE_FILE = os.path.join(REPO, "conformance", "not-applicable.txt")
DEFAULT_MORAINE_EXTENSION = os.path.join(REPO, "duckdb-shim", "target", "extension", "moraine.duckdb_extension")
DEFAULT_MORAINE_JAR = os.path.join(REPO, "duckdb-extension", "target", "moraine-duckdb.jar")
CATALOGS = ("duckdb-file", "moraine")
MORAINE_CONNECTION_VARIABLES = ("DUCKLAKE_CONNECTION", "DUCKLAKE_CONNECTION_2", "DUCKLAKE_CONNECTION_A",
                                "DUCKLAKE_CONNECTION_B")
BUILTIN_EXTENSIONS = {"core_functions", "parquet", "icu", "json"}
# Extensions a file requires to test a catalog in that database: with DUCKLAKE_CONNECTION, the file's premise is
# that the run's configuration points DUCKLAKE_CONNECTION at such a database, which neither catalog here does.
CATALOG_SCANNERS = {"sqlite_scanner": "SQLite", "postgres_scanner": "PostgreSQL"}
ALWAYS_PRESENT = {"notwindows", "notmusl", "notmingw", "64bit", "nothreadsan", "strinline", "noforcestorage",
                  "no_force_storage", "no_alternative_verify", "no_latest_storage", "no_vector_verification",
                  "allow_unsigned_extensions", "skip_reload", "longdouble"}
ALWAYS_MISSING = {"windows", "mingw", "vacuum_rebuild_indexes"}
STANDARD_VECTOR_SIZE = 2048
DEFAULT_BLOCK_SIZE = 262144
NUMERIC_TYPES = re.compile(r"^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|"
                           r"FLOAT|DOUBLE|DECIMAL\(\d+,\d+\))$")
HASH_RESULT = re.compile(r"^[0-9]+ values hashing to [0-9a-z]{32}$")
SORT_STYLES = {"nosort": "none", "none": "none", "rowsort": "row", "sort": "row", "valuesort": "value"}
SINGLE_LINE_COMMANDS = {"hash-threshold", "halt", "mode", "set", "reset", "loop", "foreach", "concurrentloop",
                        "concurrentforeach", "endloop", "require", "require-env", "test-env", "load", "restart",
                        "reconnect", "sleep", "unzip", "tags", "continue"}
KNOWN_COMMANDS = SINGLE_LINE_COMMANDS | {"skipif", "onlyif", "statement", "query"}
MAX_SHOWN_VALUES = 40


# ---------------------------------------------------------------------------------------------------------------
# Outcomes of a file
# ---------------------------------------------------------------------------------------------------------------

class SkipFile(Exception):
    """The file does not run here (a missing extension, an unset environment variable, an ignored error)."""


class RecordFailure(Exception):
    """A record did not do what the file expects; carries the details of the first failing record."""

    def __init__(self, line, sql, message, error=None, expected=None, actual=None):
        super().__init__(message)
        self.details = {"line": line, "sql": sql, "message": message}
        if error is not None:
            self.details["error"] = error
        if expected is not None:
            self.details["expected"] = shorten(expected)
        if actual is not None:
            self.details["actual"] = shorten(actual)


class ParseFailure(RecordFailure):
    """The file itself is malformed at a line."""

    def __init__(self, line, message):
        super().__init__(line, None, message)


def shorten(values):
    if len(values) <= MAX_SHOWN_VALUES:
        return list(values)
    return list(values[:MAX_SHOWN_VALUES]) + ["... %d more" % (len(values) - MAX_SHOWN_VALUES)]


# ---------------------------------------------------------------------------------------------------------------
# The parser: records of a .test file, as DuckDB's runner splits them
# ---------------------------------------------------------------------------------------------------------------

def empty_or_comment(line):
    return line == "" or line.startswith("#")


class Script:
    """The lines of a .test file and a cursor over them."""

    def __init__(self, path):
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            self.lines = [line.rstrip("\n").replace("\r", "") for line in handle]
        self.current = 0
        self.seen_statement = False

    def next_record(self):
        """Moves to the first line of the next record; False at the end of the file."""
        if self.seen_statement:
            while self.current < len(self.lines) and not empty_or_comment(self.lines[self.current]):
                self.current += 1
        self.seen_statement = True
        while self.current < len(self.lines) and empty_or_comment(self.lines[self.current]):
            self.current += 1
        return self.current < len(self.lines)

    def next_line_empty_or_comment(self):
        return self.current + 1 >= len(self.lines) or empty_or_comment(self.lines[self.current + 1])

    def line_number(self):
        return self.current + 1

    def tokenize(self):
        if self.current >= len(self.lines):
            raise ParseFailure(self.line_number(), "unexpected end of file")
        words = self.lines[self.current].split()
        if not words:
            raise ParseFailure(self.line_number(), "empty line")
        if words[0] not in KNOWN_COMMANDS:
            raise ParseFailure(self.line_number(), "unrecognized command %r" % words[0])
        return words[0], words[1:]

    def extract_statement(self):
        """The SQL of a record: the lines up to an empty line, a comment or the ---- separator."""
        lines = []
        while self.current < len(self.lines) and not empty_or_comment(self.lines[self.current]):
            if self.lines[self.current] == "----":
                break
            lines.append(self.lines[self.current])
            self.current += 1
        return "\n".join(lines)

    def extract_expected_result(self):
        if self.current < len(self.lines) and self.lines[self.current] == "----":
            self.current += 1
        values = []
        while self.current < len(self.lines) and self.lines[self.current] != "":
            values.append(self.lines[self.current])
            self.current += 1
        return values

    def extract_expected_error(self, expects_error):
        if self.current >= len(self.lines) or self.lines[self.current] != "----":
            if expects_error:
                raise ParseFailure(self.line_number(),
                                   "statement error and maybe need an expected error message after ----")
            return ""
        if not expects_error:
            raise ParseFailure(self.line_number(), "only statement error or maybe can have an expected error message")
        self.current += 1
        lines = []
        while self.current < len(self.lines) and self.lines[self.current] != "":
            lines.append(self.lines[self.current])
            self.current += 1
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------------
# Commands (executed at once, or collected into a loop and executed when it ends)
# ---------------------------------------------------------------------------------------------------------------

class LoopDefinition:
    def __init__(self, name, start, end, tokens, parallel):
        self.name = name
        self.start = start
        self.end = end
        self.tokens = tokens
        self.parallel = parallel

    def value(self, index):
        return self.tokens[index] if self.tokens else str(index)


class ExecuteContext:
    """Where a command runs: the enclosing loops with their current index, and the connection of a parallel loop's
    thread (None outside parallel loops)."""

    def __init__(self, connection=None, loops=None):
        self.connection = connection
        self.loops = loops or []
        self.continue_requested = False

    @property
    def parallel(self):
        return self.connection is not None


class Condition:
    def __init__(self, keyword, comparison, value, skip_if):
        self.keyword = keyword
        self.comparison = comparison
        self.value = value
        self.skip_if = skip_if

    def holds(self, loop_value):
        if self.comparison == "=":
            return loop_value == self.value
        if self.comparison == "<>":
            return loop_value != self.value
        left, right = int(loop_value), int(self.value)
        return {">": left > right, "<": left < right, ">=": left >= right, "<=": left <= right}[self.comparison]


def conditions_allow(context, conditions):
    if not conditions:
        return True
    if not context.loops:
        raise RuntimeError("Conditions (onlyif/skipif) on loop parameters can only occur within a loop")
    for condition in conditions:
        holds = None
        for loop, index in context.loops:
            if loop.name == condition.keyword:
                holds = condition.holds(loop.value(index))
        if holds is None:
            raise RuntimeError("Condition in onlyif/skipif not found: %s must be a loop iterator name"
                               % condition.keyword)
        if holds == condition.skip_if:
            return False
    return True


class Command:
    def __init__(self, runner, line, conditions=()):
        self.runner = runner
        self.line = line
        self.conditions = list(conditions)

    def execute(self, context):
        if self.runner.finished:
            return
        if not conditions_allow(context, self.conditions):
            return
        self.run(context)

    def run(self, context):
        raise NotImplementedError

    def supports_concurrent(self):
        return True


class StatementCommand(Command):
    def __init__(self, runner, line, conditions, sql, expected, expected_error, connection_name):
        super().__init__(runner, line, conditions)
        self.sql = sql
        self.expected = expected
        self.expected_error = expected_error
        self.connection_name = connection_name

    def run(self, context):
        sql = self.runner.loop_replacement(self.sql, context)
        connection = self.runner.command_connection(context, self.connection_name)
        self.runner.count_record(self.line, sql)
        error = execute_statement(connection, sql)
        self.runner.check_statement(self, sql, error)


class QueryCommand(Command):
    def __init__(self, runner, line, conditions, sql, column_count, values, sort_style, connection_name, label):
        super().__init__(runner, line, conditions)
        self.sql = sql
        self.column_count = column_count
        self.values = values
        self.sort_style = sort_style
        self.connection_name = connection_name
        self.label = label

    def run(self, context):
        sql = self.runner.loop_replacement(self.sql, context)
        connection = self.runner.command_connection(context, self.connection_name)
        self.runner.count_record(self.line, sql)
        try:
            result = run_sql(connection, sql)
        except Exception as error:  # noqa: BLE001 - every engine error is a result to check
            self.runner.check_query_error(self, sql, error_text(error))
            return
        if self.runner.trace:
            print("    -> %s" % result_values(result)[:MAX_SHOWN_VALUES], file=sys.stderr, flush=True)
        self.runner.check_query_result(self, sql, result)


class LoopCommand(Command):
    def __init__(self, runner, line, definition):
        super().__init__(runner, line)
        self.definition = definition
        self.commands = []

    def supports_concurrent(self):
        return all(command.supports_concurrent() for command in self.commands)

    def run(self, context):
        if self.definition.parallel:
            self.run_parallel(context)
        else:
            self.run_sequential(context)

    def run_sequential(self, context):
        for index in range(self.definition.start, self.definition.end):
            if self.runner.finished:
                break
            loop_context = ExecuteContext(context.connection, context.loops + [(self.definition, index)])
            for command in self.commands:
                command.execute(loop_context)
                if loop_context.continue_requested:
                    break

    def run_parallel(self, context):
        if any(loop.parallel for loop, _ in context.loops):
            raise RecordFailure(self.line, None, "Nested parallel loop commands not allowed")
        if not self.supports_concurrent():
            raise RecordFailure(self.line, None, "Concurrent loop is not supported over this command")
        failures = []
        threads = [threading.Thread(target=self.run_iteration, args=(context, index, failures))
                   for index in range(self.definition.start, self.definition.end)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures:
            raise min(failures, key=lambda failure: failure.details["line"] or 0)

    def run_iteration(self, context, index, failures):
        connection = None
        try:
            connection = self.runner.new_connection()
            loop_context = ExecuteContext(connection, context.loops + [(self.definition, index)])
            for command in self.commands:
                command.execute(loop_context)
        except RecordFailure as failure:
            self.runner.finished = True
            failures.append(failure)
        except Exception as error:  # noqa: BLE001 - a thread's failure is reported as the file's failure
            self.runner.finished = True
            failures.append(RecordFailure(self.line, None, "failure in concurrent loop iteration %d: %s"
                                          % (index, error_text(error))))
        finally:
            if connection is not None:
                connection.close()


class ContinueCommand(Command):
    def supports_concurrent(self):
        return False

    def run(self, context):
        context.continue_requested = True


class SleepCommand(Command):
    UNITS = {"second": 1.0, "seconds": 1.0, "sec": 1.0, "millisecond": 1e-3, "milliseconds": 1e-3, "milli": 1e-3,
             "microsecond": 1e-6, "microseconds": 1e-6, "micro": 1e-6, "nanosecond": 1e-9, "nanoseconds": 1e-9,
             "nano": 1e-9}

    def __init__(self, runner, line, seconds):
        super().__init__(runner, line)
        self.seconds = seconds

    def run(self, context):
        time.sleep(self.seconds)


class UnzipCommand(Command):
    def __init__(self, runner, line, source, target):
        super().__init__(runner, line)
        self.source = source
        self.target = target

    def run(self, context):
        with gzip.open(self.source, "rb") as source, open(self.target, "wb") as target:
            shutil.copyfileobj(source, target)


class ResetLabelCommand(Command):
    def __init__(self, runner, line, label):
        super().__init__(runner, line)
        self.label = label

    def run(self, context):
        with self.runner.labels_lock:
            if self.runner.labels.pop(self.label, None) is None:
                raise RecordFailure(self.line, None, "reset label %s: no such label" % self.label)


class ReconnectCommand(Command):
    def supports_concurrent(self):
        return False

    def run(self, context):
        if context.parallel:
            raise RecordFailure(self.line, None, "Cannot reconnect in parallel")
        self.runner.reconnect()


# ---------------------------------------------------------------------------------------------------------------
# Executing SQL and rendering results the way DuckDB's runner does
# ---------------------------------------------------------------------------------------------------------------

def error_text(error):
    return str(error)


def execute_statement(connection, sql):
    """Runs a statement record's SQL to completion; returns the error message, or None."""
    try:
        run_sql(connection, sql)
        return None
    except Exception as error:  # noqa: BLE001 - every engine error is a result to check
        return error_text(error)


class QueryResult:
    def __init__(self, types, rows):
        self.types = types
        self.rows = rows

    @property
    def column_count(self):
        return len(self.types)


# Statements whose result is a count of changed rows (or nothing); their values are plain Python numbers.
ROW_COUNT_STATEMENTS = {"INSERT", "UPDATE", "DELETE", "MERGE_INTO", "COPY", "CREATE", "DROP", "ALTER", "ATTACH",
                        "DETACH", "TRANSACTION", "SET", "VARIABLE_SET", "LOAD", "EXTENSION", "VACUUM", "ANALYZE",
                        "CREATE_FUNC", "EXPORT", "COPY_DATABASE", "PREPARE"}


def run_sql(connection, sql):
    """Runs every statement of the SQL to completion, one after the other, as DuckDB's runner does (Python's
    execute() leaves a SELECT's result to be streamed, so a query nobody fetches never finishes); returns the last
    statement's result."""
    try:
        statements = connection.extract_statements(sql)
    except Exception:  # noqa: BLE001 - executing the text reports the parser's error as DuckDB words it
        connection.execute(sql)
        raise
    result = QueryResult([], [])
    for statement in statements:
        result = run_statement(connection, statement)
    return result


def run_statement(connection, statement):
    """One statement's result, every value rendered by DuckDB (CAST(... AS VARCHAR)) on the statement's own
    connection, so that DuckDB formats it exactly as its runner's Value::CastAs(VARCHAR) does."""
    if statement.type.name in ROW_COUNT_STATEMENTS:
        cursor = connection.execute(statement)
        types = [str(column[1]) for column in cursor.description] if cursor.description else []
        rows = [tuple(render_python_value(value) for value in row) for row in cursor.fetchall()]
        return QueryResult(types, rows)
    relation = connection.sql(statement)
    if relation is None:
        return QueryResult([], [])
    types = [str(column_type) for column_type in relation.types]
    casts = ", ".join("CAST(#%d AS VARCHAR)" % (index + 1) for index in range(len(types)))
    return QueryResult(types, relation.project(casts).fetchall())


def render_python_value(value):
    """Row counts and the rare RETURNING value of a data-changing statement, rendered as DuckDB would."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def sqllogic_value(value, column_type):
    """DuckDB's runner: NULL, booleans as 1/0, empty strings as (empty), NUL bytes escaped."""
    if value is None:
        return "NULL"
    if column_type == "BOOLEAN":
        return "1" if value == "true" else "0"
    if value == "":
        return "(empty)"
    return value.replace("\0", "\\0")


def result_values(result):
    values = []
    for row in result.rows:
        for value, column_type in zip(row, result.types):
            values.append(sqllogic_value(value, column_type))
    return values


def sort_values(values, sort_style, column_count):
    if sort_style == "value":
        values.sort()
        return values
    if sort_style != "row" or column_count == 0:
        return values
    if len(values) % column_count != 0:
        raise ValueError("Failed to sort query result - result is not aligned. Found %d rows with %d columns"
                         % (len(values), column_count))
    rows = [values[index:index + column_count] for index in range(0, len(values), column_count)]
    rows.sort()
    return [value for row in rows for value in row]


def hash_values(values):
    digest = hashlib.md5()
    for value in values:
        digest.update(value.encode("utf-8", errors="surrogateescape"))
        digest.update(b"\n")
    return "%d values hashing to %s" % (len(values), digest.hexdigest())


def approx_equal(left, right):
    if left != left and right != right:
        return True
    if left in (float("inf"), float("-inf")) or right in (float("inf"), float("-inf")) or left != left \
            or right != right:
        return left == right
    return abs(left - right) <= abs(right) * 0.01 + 0.00000001


def regex_matches(value, pattern):
    want_match = pattern.startswith("<REGEX>:")
    expression = pattern.replace("<REGEX>:", "").replace("<!REGEX>:", "")
    try:
        matches = re.fullmatch(expression, value, re.DOTALL) is not None
    except re.error:
        return False
    return matches == want_match


# ---------------------------------------------------------------------------------------------------------------
# The runner of one file
# ---------------------------------------------------------------------------------------------------------------

class RunConfig:
    """What a run needs to know beyond the file: its catalog and where the extensions are."""

    def __init__(self, catalog, corpus, extension_dir, moraine_extension):
        self.catalog = catalog
        self.corpus = corpus
        self.extension_dir = extension_dir
        self.moraine_extension = moraine_extension


class FileRunner:
    def __init__(self, config, test_name):
        self.config = config
        self.test_name = test_name
        self.test_dir = tempfile.mkdtemp(prefix="ducklake-corpus-")
        self.environment = {}
        self.test_env_overrides = self.catalog_test_env()
        self.labels = {}
        self.labels_lock = threading.Lock()
        self.records = 0
        self.records_lock = threading.Lock()
        self.hash_threshold = 0
        self.ignore_error_messages = {"HTTP", "Unable to connect"}
        self.always_fail_error_messages = {"differs from original result!", "INTERNAL"}
        self.finished = False
        self.skip_reason = None
        self.active_loops = []
        self.top_loop = None
        self.database = None
        self.connection = None
        self.named_connections = {}
        self.uses_catalog_variable = False
        self.comparer = None
        self.trace = False

    # --- configuration -------------------------------------------------------------------------------------------

    def catalog_test_env(self):
        """Values the run gives instead of a file's test-env defaults: none; see catalog_value."""
        return {}

    def catalog_value(self, name, default):
        """A catalog variable's value on this run's catalog: on moraine, a store where the file's own default puts its
        DuckDB file (`moraine:` before it), so a file that names or globs its catalog's path finds the store there."""
        if self.config.catalog == "moraine" and name in MORAINE_CONNECTION_VARIABLES:
            return "moraine:" + default
        return default

    def open_database(self):
        import duckdb
        settings = {
            "allow_unsigned_extensions": "true",
            "allow_unredacted_secrets": "true",
            "autoinstall_known_extensions": "false",
            "autoload_known_extensions": "true",
            "extension_directory": self.config.extension_dir,
            "secret_directory": os.path.join(self.test_dir, "test_secret_dir"),
            "checkpoint_threshold": "0b",
            "temp_directory": os.path.join(self.test_dir, "duckdb_temp"),
        }
        self.database = duckdb.connect(":memory:", config=settings)
        if self.config.catalog == "moraine":
            self.database.execute("LOAD '%s'" % self.config.moraine_extension.replace("'", "''"))
        self.connection = self.database.cursor()
        self.comparer = duckdb.connect(":memory:", config={"threads": "1"})

    def new_connection(self):
        return self.database.cursor()

    def reconnect(self):
        self.connection.close()
        self.connection = self.new_connection()

    def close(self):
        for connection in list(self.named_connections.values()) + [self.connection, self.database, self.comparer]:
            if connection is not None:
                try:
                    connection.close()
                except Exception:  # noqa: BLE001 - closing after the verdict changes nothing
                    pass
        shutil.rmtree(self.test_dir, ignore_errors=True)

    def command_connection(self, context, name):
        if not name:
            return context.connection if context.parallel else self.connection
        if context.parallel:
            raise RuntimeError("Named connections not supported in parallel loop")
        if name not in self.named_connections:
            self.named_connections[name] = self.new_connection()
        return self.named_connections[name]

    def count_record(self, line, sql):
        with self.records_lock:
            self.records += 1
        if self.trace:
            print("[%d] %s" % (line, " ".join(sql.split())[:300]), file=sys.stderr, flush=True)

    # --- keywords ------------------------------------------------------------------------------------------------

    def replace_keywords(self, text):
        for name, value in self.environment.items():
            text = text.replace("${%s}" % name, value).replace("{%s}" % name, value)
        text = text.replace("{TEST_DIR}", self.test_dir)
        text = text.replace("{UUID}", str(uuid.uuid4()))
        text = text.replace("{TEST_NAME}", self.test_name)
        text = text.replace("{BASE_TEST_NAME}", self.test_name.replace("/", "_"))
        text = text.replace("__TEST_DIR__", self.test_dir)
        text = text.replace("__WORKING_DIRECTORY__", os.getcwd())
        return text

    def loop_replacement(self, text, context):
        for loop, index in context.loops:
            replacement = self.replace_keywords(loop.value(index))
            names = loop.name.split(",")
            values = replacement.split(",") if len(names) > 1 else [replacement]
            if len(names) != len(values):
                raise RuntimeError("foreach loop: number of commas in loop iterator (%s) does not match number of "
                                   "commas in replacement (%s)" % (loop.name, replacement))
            for name, value in zip(names, values):
                text = text.replace("${%s}" % name, value).replace("{%s}" % name, value)
        return text

    # --- checks --------------------------------------------------------------------------------------------------

    def skip_error_message(self, error):
        for message in self.ignore_error_messages:
            if message in error:
                self.skip_reason = "skip on error message matching %r: %s" % (message, error.splitlines()[0])
                self.finished = True
                return True
        return False

    def check_statement(self, command, sql, error):
        if command.expected == "ok":
            if error is not None and not self.skip_error_message(error):
                raise RecordFailure(command.line, sql, "statement failed", error=error)
            return
        if error is None:
            if command.expected == "error":
                raise RecordFailure(command.line, sql, "statement succeeded but an error was expected",
                                    expected=[command.expected_error])
            return
        if any(message in error for message in self.always_fail_error_messages):
            raise RecordFailure(command.line, sql, "internal error where an error was expected", error=error)
        expected = command.expected_error
        if expected and not self.error_matches(error, expected) and not self.skip_error_message(error):
            raise RecordFailure(command.line, sql, "the error differs from the expected one", error=error,
                                expected=[expected])

    def error_matches(self, error, expected):
        """DuckDB's runner: the expected message is a substring of the error (as written, or with its keywords
        replaced), or a <REGEX>: / <!REGEX>: pattern."""
        if expected in error or self.replace_keywords(expected) in error:
            return True
        return expected.startswith(("<REGEX>:", "<!REGEX>:")) and regex_matches(error, expected)

    def check_query_error(self, command, sql, error):
        if self.skip_error_message(error):
            return
        raise RecordFailure(command.line, sql, "query failed", error=error, expected=command.values)

    def check_query_result(self, command, sql, result):
        values = command.values
        total = len(result.rows) * result.column_count
        compare_hash = bool(command.label) or (0 < self.hash_threshold < total)
        result_is_hash = len(values) == 1 and HASH_RESULT.match(values[0]) is not None
        compare_hash = compare_hash or result_is_hash
        actual = result_values(result)
        try:
            actual = sort_values(actual, command.sort_style, result.column_count)
        except ValueError as error:
            raise RecordFailure(command.line, sql, str(error))
        if values and values[0].startswith("<FILE>:"):
            raise RecordFailure(command.line, sql, "<FILE>: expected results are not supported by this runner")
        if compare_hash:
            self.check_hash(command, sql, actual, hash_values(actual), values if result_is_hash else None)
        else:
            self.check_values(command, sql, result, actual, list(values))

    def check_hash(self, command, sql, actual, hash_value, expected_hash):
        mismatch = False
        if command.label:
            with self.labels_lock:
                known = self.labels.get(command.label)
                if known is None:
                    self.labels[command.label] = hash_value
                else:
                    mismatch = known != hash_value
        if expected_hash is not None:
            mismatch = expected_hash[0] != hash_value
        if mismatch:
            raise RecordFailure(command.line, sql, "wrong result hash: %s" % hash_value,
                                expected=expected_hash or ["label %s" % command.label], actual=actual)

    def check_values(self, command, sql, result, actual, expected):
        column_count = command.column_count
        column_count_mismatch = column_count != result.column_count
        if column_count_mismatch:
            column_count = result.column_count
        if column_count == 0:
            raise RecordFailure(command.line, sql, "the query returned no columns", expected=expected, actual=[])
        row_count = len(result.rows)
        shown_actual = ["\t".join(actual[index:index + column_count])
                        for index in range(0, len(actual), column_count)]

        def fail(message):
            if column_count_mismatch:
                message = "wrong column count: expected %d, got %d; %s" % (command.column_count,
                                                                          result.column_count, message)
            raise RecordFailure(command.line, sql, message, expected=expected, actual=shown_actual)

        expected_rows = len(expected) // column_count
        row_wise = column_count > 1 and len(expected) == row_count
        if not row_wise:
            row_wise = all("\t" in value for value in expected)
        if row_wise:
            expected_rows = len(expected)
        elif len(expected) % column_count != 0:
            fail("the expected values do not divide into %d columns" % column_count)
        if expected_rows != row_count:
            fail("wrong row count: expected %d rows, got %d" % (expected_rows, row_count))
        if row_wise:
            split = []
            for index, value in enumerate(expected):
                parts = value.split("\t")
                if len(parts) != column_count:
                    fail("expected row %d has %d values, not %d" % (index + 1, len(parts), column_count))
                split.extend(parts)
            comparison = split
        else:
            comparison = expected
        for index in range(min(len(actual), len(comparison))):
            column = index % column_count
            if not self.values_equal(actual[index], comparison[index], result.types[column]):
                fail("mismatch on row %d, column %d: %s <> %s" % (index // column_count + 1, column + 1,
                                                                   actual[index], comparison[index]))
        if column_count_mismatch:
            fail("the values match")

    def values_equal(self, actual, expected, column_type):
        if actual == expected or actual == self.replace_keywords(expected):
            return True
        if expected.startswith("<REGEX>:") or expected.startswith("<!REGEX>:"):
            if regex_matches(actual, expected):
                return True
        if NUMERIC_TYPES.match(column_type):
            return self.numbers_equal(actual, expected, column_type)
        if column_type == "BOOLEAN":
            return boolean_value(actual) == boolean_value(expected)
        return False

    def numbers_equal(self, actual, expected, column_type):
        left = self.cast_number(actual, column_type)
        right = self.cast_number(expected, column_type)
        if left is False or right is False:
            return False
        if left is None or right is None:
            return left is None and right is None
        if column_type in ("FLOAT", "DOUBLE"):
            return approx_equal(float(left), float(right))
        return left == right

    def cast_number(self, text, column_type):
        """The value of a rendered number as DuckDB casts it; None for NULL, False when it does not cast."""
        if text == "NULL":
            return None
        value = self.comparer.execute("SELECT TRY_CAST($1 AS %s)" % column_type, [text]).fetchone()[0]
        return False if value is None else value

    # --- the file ------------------------------------------------------------------------------------------------

    def run(self, path):
        script = Script(path)
        self.uses_catalog_variable = any(line.startswith("test-env DUCKLAKE_CONNECTION") for line in script.lines)
        self.open_database()
        skip_level = 0
        while script.next_record():
            if self.finished:
                break
            command, parameters = script.tokenize()
            if command in SINGLE_LINE_COMMANDS and not script.next_line_empty_or_comment():
                raise ParseFailure(script.line_number(), "all test statements need to be separated by an empty line")
            conditions, skip = self.parse_conditions(script, command, parameters)
            if skip:
                continue
            command, parameters = script.tokenize()
            if skip_level > 0 and command != "mode":
                continue
            if command == "mode" and parameters[:1] == ["skip"]:
                skip_level += 1
            elif command == "mode" and parameters[:1] == ["unskip"]:
                skip_level -= 1
            else:
                self.dispatch(script, command, parameters, conditions)
        if self.active_loops:
            raise ParseFailure(script.line_number(), "Missing endloop!")

    def parse_conditions(self, script, command, parameters):
        conditions = []
        while command in ("skipif", "onlyif"):
            skip_if = command == "skipif"
            if not parameters:
                raise ParseFailure(script.line_number(), "skipif/onlyif requires a single parameter")
            text = parameters[0].lower()
            if any(character in text for character in "=<>"):
                conditions.extend(parse_loop_conditions(script, text, skip_if))
            elif (text == "duckdb") == skip_if:
                return conditions, True
            script.current += 1
            command, parameters = script.tokenize()
        return conditions, False

    def dispatch(self, script, command, parameters, conditions):
        line = script.line_number()
        handler = {
            "statement": self.parse_statement, "query": self.parse_query, "hash-threshold": self.parse_hash_threshold,
            "mode": self.parse_mode, "set": self.parse_set, "reset": self.parse_reset, "loop": self.parse_loop,
            "concurrentloop": self.parse_loop, "foreach": self.parse_foreach, "concurrentforeach": self.parse_foreach,
            "endloop": self.parse_endloop, "require": self.parse_require, "require-env": self.parse_require_env,
            "test-env": self.parse_test_env, "sleep": self.parse_sleep, "unzip": self.parse_unzip,
            "tags": lambda *args: None, "continue": self.parse_continue, "reconnect": self.parse_reconnect,
            "halt": self.parse_halt, "load": self.parse_unsupported, "restart": self.parse_unsupported,
        }[command]
        handler(script, command, parameters, conditions, line)

    def execute_command(self, command):
        if self.active_loops:
            self.active_loops[-1].commands.append(command)
        else:
            command.execute(ExecuteContext())

    def parse_statement(self, script, command, parameters, conditions, line):
        if not parameters or parameters[0] not in ("ok", "error", "maybe"):
            raise ParseFailure(line, "statement argument should be 'ok', 'error' or 'maybe'")
        script.current += 1
        sql = script.extract_statement()
        if not sql:
            raise ParseFailure(line, "Unexpected empty statement text")
        expected_error = script.extract_expected_error(parameters[0] != "ok")
        connection = parameters[1] if len(parameters) >= 2 else None
        self.execute_command(StatementCommand(self, line, conditions, self.replace_keywords(sql), parameters[0],
                                              expected_error, connection))

    def parse_query(self, script, command, parameters, conditions, line):
        if not parameters:
            raise ParseFailure(line, "query requires at least one parameter (query III)")
        types = parameters[0]
        if not types or any(character not in "TIR" for character in types):
            raise ParseFailure(line, "unknown type characters in %r, expected T, I or R only" % types)
        script.current += 1
        sql = self.replace_keywords(script.extract_statement())
        values = script.extract_expected_result()
        sort_style, connection = "none", None
        if len(parameters) > 1:
            if parameters[1] in SORT_STYLES:
                sort_style = SORT_STYLES[parameters[1]]
            else:
                connection = parameters[1]
        label = parameters[2] if len(parameters) > 2 else None
        self.execute_command(QueryCommand(self, line, conditions, sql, len(types), values, sort_style, connection,
                                          label))

    def parse_hash_threshold(self, script, command, parameters, conditions, line):
        if len(parameters) != 1 or not parameters[0].lstrip("-").isdigit():
            raise ParseFailure(line, "hash-threshold requires a number")
        self.hash_threshold = int(parameters[0])

    def parse_mode(self, script, command, parameters, conditions, line):
        if len(parameters) != 1:
            raise ParseFailure(line, "mode requires one parameter")
        if parameters[0] not in ("output_hash", "output_result", "no_output", "debug"):
            raise ParseFailure(line, "unrecognized mode: %s" % parameters[0])
        if parameters[0] in ("output_hash", "output_result"):
            raise ParseFailure(line, "mode %s prints results instead of checking them; not supported here"
                               % parameters[0])

    def parse_set(self, script, command, parameters, conditions, line):
        if not parameters:
            raise ParseFailure(line, "set requires at least 1 parameter")
        if parameters[0] in ("ignore_error_messages", "always_fail_error_messages"):
            messages = {part.strip() for part in " ".join(parameters[1:]).split(",")} - {""}
            if parameters[0] == "ignore_error_messages":
                self.ignore_error_messages = messages
            else:
                self.always_fail_error_messages = messages
        elif parameters[0] == "seed" and len(parameters) == 2:
            self.connection.execute("SELECT SETSEED(%s)" % float(parameters[1]))
        else:
            raise ParseFailure(line, "unrecognized set parameter: %s" % parameters[0])

    def parse_reset(self, script, command, parameters, conditions, line):
        if len(parameters) != 2 or parameters[0].lower() != "label":
            raise ParseFailure(line, "Expected reset label [name]")
        self.execute_command(ResetLabelCommand(self, line, parameters[1]))

    def parse_loop(self, script, command, parameters, conditions, line):
        if len(parameters) != 3:
            raise ParseFailure(line, "Expected loop [iterator_name] [start] [end] (e.g. loop i 1 300)")
        try:
            start, end = int(parameters[1]), int(parameters[2])
        except ValueError:
            raise ParseFailure(line, "loop_start and loop_end must be a number")
        self.start_loop(line, LoopDefinition(parameters[0], start, end, None, command == "concurrentloop"))

    def parse_foreach(self, script, command, parameters, conditions, line):
        if len(parameters) < 2:
            raise ParseFailure(line, "expected foreach [iterator_name] [m1] [m2] [etc...]")
        tokens = []
        for parameter in parameters[1:]:
            if not expand_foreach_token(parameter, tokens):
                tokens.append(parameter)
        self.start_loop(line, LoopDefinition(parameters[0], 0, len(tokens), tokens, command == "concurrentforeach"))

    def start_loop(self, line, definition):
        loop = LoopCommand(self, line, definition)
        if self.active_loops:
            self.active_loops[-1].commands.append(loop)
        else:
            self.top_loop = loop
        self.active_loops.append(loop)

    def parse_endloop(self, script, command, parameters, conditions, line):
        if not self.active_loops:
            raise ParseFailure(line, "endloop without active loop!")
        self.active_loops.pop()
        if not self.active_loops:
            loop, self.top_loop = self.top_loop, None
            loop.execute(ExecuteContext())

    def parse_require(self, script, command, parameters, conditions, line):
        if not parameters:
            raise ParseFailure(line, "require requires a single parameter")
        missing = self.check_require(parameters)
        if missing:
            raise SkipFile("require %s: %s" % (" ".join(parameters), missing))

    def check_require(self, parameters):
        """None when the requirement holds, else why not."""
        name = parameters[0].lower()
        if name in ALWAYS_PRESENT:
            return None
        if name in ALWAYS_MISSING:
            return "not this platform or build"
        if name == "no_extension_autoloading":
            return "extension autoloading is on in this runner"
        if name in ("vector_size", "exact_vector_size", "block_size", "ram", "disk_space"):
            return check_size_requirement(name, parameters[1] if len(parameters) > 1 else "")
        if name in CATALOG_SCANNERS and self.uses_catalog_variable:
            return ("the file tests a %s catalog through DUCKLAKE_CONNECTION; this run's catalog is %s"
                    % (CATALOG_SCANNERS[name], self.config.catalog))
        try:
            self.connection.execute("LOAD %s" % name)
        except Exception as error:  # noqa: BLE001 - any refusal means the extension is not available
            return "extension not available (%s)" % error_text(error).splitlines()[0]
        return None

    def parse_require_env(self, script, command, parameters, conditions, line):
        if self.active_loops:
            raise ParseFailure(line, "require-env cannot be called in a loop")
        if len(parameters) not in (1, 2):
            raise ParseFailure(line, "require-env requires 1 argument: <env name> [optional: <expected env val>]")
        name = parameters[0]
        value = self.test_env_overrides.get(name, os.environ.get(name))
        if value is None:
            raise SkipFile("require-env %s: not set" % name)
        if len(parameters) == 2 and value != parameters[1]:
            raise SkipFile("require-env %s %s: it is %r" % (name, parameters[1], value))
        self.environment[name] = value

    def parse_test_env(self, script, command, parameters, conditions, line):
        if self.active_loops:
            raise ParseFailure(line, "test-env cannot be called in a loop")
        if len(parameters) != 2:
            raise ParseFailure(line, "test-env requires 2 arguments: <env name> <default env val>")
        name = parameters[0]
        self.environment[name] = self.test_env_overrides.get(name, self.catalog_value(name, parameters[1]))

    def parse_sleep(self, script, command, parameters, conditions, line):
        if len(parameters) != 2 or not parameters[0].isdigit() or parameters[1] not in SleepCommand.UNITS:
            raise ParseFailure(line, "sleep requires two parameters (e.g. sleep 1 second)")
        self.execute_command(SleepCommand(self, line, int(parameters[0]) * SleepCommand.UNITS[parameters[1]]))

    def parse_unzip(self, script, command, parameters, conditions, line):
        if len(parameters) not in (1, 2):
            raise ParseFailure(line, "unzip requires 1 argument: <path/to/file.db.gz> [<path/to/unzipped_file.db>]")
        source = self.replace_keywords(parameters[0])
        if not source.endswith(".gz"):
            raise ParseFailure(line, "unzip: input has not a GZIP extension")
        default_target = self.replace_keywords("__TEST_DIR__/" + os.path.basename(source)[:-3])
        target = self.replace_keywords(parameters[1]) if len(parameters) == 2 else default_target
        if target == "NULL":
            target = default_target
        self.execute_command(UnzipCommand(self, line, source, target))

    def parse_continue(self, script, command, parameters, conditions, line):
        if not self.active_loops:
            raise ParseFailure(line, "continue cannot be called outside of a loop")
        self.execute_command(ContinueCommand(self, line, conditions))

    def parse_reconnect(self, script, command, parameters, conditions, line):
        self.execute_command(ReconnectCommand(self, line))

    def parse_halt(self, script, command, parameters, conditions, line):
        self.finished = True

    def parse_unsupported(self, script, command, parameters, conditions, line):
        raise ParseFailure(line, "%s is not supported by this runner (the corpus does not use it)" % command)


def parse_loop_conditions(script, text, skip_if):
    conditions = []
    for part in text.split("&&"):
        for comparator in ("<>", ">=", ">", "<=", "<", "="):
            if comparator in part:
                sides = [side.strip() for side in part.split(comparator)]
                break
        else:
            sides = []
        if len(sides) != 2:
            raise ParseFailure(script.line_number(), "skipif/onlyif must be in the form of x=y or x>y")
        conditions.append(Condition(sides[0], comparator, sides[1], skip_if))
    return conditions


FOREACH_GROUPS = {
    "<signed>": ["tinyint", "smallint", "integer", "bigint", "hugeint"],
    "<unsigned>": ["utinyint", "usmallint", "uinteger", "ubigint", "uhugeint"],
    "<numeric_only>": ["float", "double"],
    "<compression>": ["none", "uncompressed", "rle", "bitpacking", "dictionary", "fsst", "dict_fsst", "alp", "alprd"],
    "<all_types_columns>": [
        "bool", "tinyint", "smallint", "int", "bigint", "hugeint", "uhugeint", "utinyint", "usmallint", "uint",
        "ubigint", "date", "time", "timestamp", "timestamp_s", "timestamp_ms", "timestamp_ns", "time_tz",
        "timestamp_tz", "float", "double", "dec_4_1", "dec_9_4", "dec_18_6", "dec38_10", "uuid", "interval",
        "varchar", "blob", "bit", "small_enum", "medium_enum", "large_enum", "int_array", "double_array",
        "date_array", "timestamp_array", "timestamptz_array", "varchar_array", "nested_int_array", "struct",
        "struct_of_arrays", "array_of_structs", "map", "union", "fixed_int_array", "fixed_varchar_array",
        "fixed_nested_int_array", "fixed_nested_varchar_array", "fixed_struct_array", "struct_of_fixed_array",
        "fixed_array_of_int_list", "list_of_fixed_int_array"],
}


def expand_foreach_token(parameter, tokens):
    """DuckDB's foreach shorthands (<integral>, <numeric>, <alltypes>, ... and !token); False if none applies."""
    name = parameter.strip().lower()
    if name.startswith("!"):
        if parameter[1:] not in tokens:
            return False
        tokens.remove(parameter[1:])
        return True
    is_all = name == "<alltypes>"
    is_numeric = is_all or name == "<numeric>"
    is_integral = is_numeric or name == "<integral>"
    groups = []
    if is_integral or name == "<signed>":
        groups.append("<signed>")
    if is_integral or name == "<unsigned>":
        groups.append("<unsigned>")
    if is_numeric:
        groups.append("<numeric_only>")
    if name in ("<compression>", "<all_types_columns>"):
        groups.append(name)
    for group in groups:
        tokens.extend(FOREACH_GROUPS[group])
    if is_all:
        tokens.extend(["bool", "interval", "varchar"])
    return bool(groups)


def check_size_requirement(name, argument):
    if name in ("vector_size", "exact_vector_size", "block_size"):
        if not argument.isdigit():
            return "require %s needs a number" % name
        wanted = int(argument)
        if name == "vector_size":
            return None if STANDARD_VECTOR_SIZE >= wanted else "the vector size is %d" % STANDARD_VECTOR_SIZE
        if name == "exact_vector_size":
            return None if STANDARD_VECTOR_SIZE == wanted else "the vector size is %d" % STANDARD_VECTOR_SIZE
        return None if DEFAULT_BLOCK_SIZE == wanted else "the block size is %d" % DEFAULT_BLOCK_SIZE
    wanted = parse_memory(argument)
    if wanted is None:
        return "require %s needs a size" % name
    if name == "ram":
        available = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    else:
        available = shutil.disk_usage(".").free
    return None if available >= wanted else "only %d bytes available" % available


def parse_memory(text):
    match = re.fullmatch(r"\s*([0-9.]+)\s*([kmgt]?i?b?)\s*", text.lower())
    if not match:
        return None
    unit = match.group(2).rstrip("b").rstrip("i")
    scale = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12}[unit]
    return float(match.group(1)) * scale


def boolean_value(text):
    lowered = text.lower()
    if lowered == "true" or text == "1":
        return 1
    if lowered == "false" or text == "0":
        return 0
    return None


# ---------------------------------------------------------------------------------------------------------------
# run-file: one file in this process
# ---------------------------------------------------------------------------------------------------------------

def run_file(config, test_path, trace=False):
    """Runs one file; returns its result as a dict."""
    test_name = os.path.relpath(os.path.abspath(test_path), config.corpus)
    runner = FileRunner(config, test_name)
    runner.trace = trace
    started = time.monotonic()
    result = {"file": test_name, "catalog": config.catalog}
    try:
        runner.run(os.path.join(config.corpus, test_name))
        if runner.skip_reason:
            result.update(status="skip", skip_reason=runner.skip_reason)
        else:
            result["status"] = "pass"
    except SkipFile as skip:
        result.update(status="skip", skip_reason=str(skip))
    except RecordFailure as failure:
        result.update(status="fail", failure=failure.details)
    except Exception as error:  # noqa: BLE001 - the runner's own failure is the file's failure, with its trace
        result.update(status="fail", failure={"line": None, "sql": None, "message": "runner error: %s" % error,
                                              "error": traceback.format_exc()})
    finally:
        runner.close()
    result["records"] = runner.records
    result["seconds"] = round(time.monotonic() - started, 2)
    return result


def ensure_moraine_environment(args):
    """The extension starts its JVM from MORAINE_JAVA_HOME and MORAINE_CLASSPATH; fills them in when unset."""
    if not os.environ.get("MORAINE_JAVA_HOME"):
        finder = os.path.join(REPO, "build-support", "find-jdk.sh")
        os.environ["MORAINE_JAVA_HOME"] = subprocess.run([finder], check=True, capture_output=True,
                                                         text=True).stdout.strip()
    if not os.environ.get("MORAINE_CLASSPATH"):
        os.environ["MORAINE_CLASSPATH"] = DEFAULT_MORAINE_JAR
    for path in os.environ["MORAINE_CLASSPATH"].split(os.pathsep)[:1] + [args.moraine_extension]:
        if not os.path.exists(path):
            raise UsageError("%s does not exist; build the tree first (make build)" % path)


def file_runner_config(args):
    """The configuration a process that runs files (run-file, run-worker) runs them with, from the corpus root."""
    corpus = os.path.abspath(args.corpus)
    if args.catalog == "moraine":
        ensure_moraine_environment(args)
    config = RunConfig(args.catalog, corpus, args.extension_dir, os.path.abspath(args.moraine_extension))
    os.chdir(corpus)
    return config


def command_run_file(args):
    config = file_runner_config(args)
    corpus = config.corpus
    result = run_file(config, args.file if os.path.isabs(args.file) else os.path.join(corpus, args.file), args.trace)
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    # The extension's JVM (moraine) keeps threads that would hold up an orderly interpreter exit.
    os._exit(0)


RESULT_PREFIX = "RESULT "


def command_run_worker(args):
    """Runs the files named on standard input, one a line, one after another in this process; prints each result."""
    config = file_runner_config(args)
    corpus = config.corpus
    for line in sys.stdin:
        name = line.strip()
        if not name:
            continue
        result = run_file(config, os.path.join(corpus, name))
        sys.stdout.write(RESULT_PREFIX + json.dumps(result) + "\n")
        sys.stdout.flush()
    sys.stderr.flush()
    # The extension's JVM (moraine) keeps threads that would hold up an orderly interpreter exit.
    os._exit(0)


# ---------------------------------------------------------------------------------------------------------------
# run: the driver
# ---------------------------------------------------------------------------------------------------------------

class UsageError(Exception):
    pass


def select_files(corpus, filters, list_file):
    root = os.path.join(corpus, "test", "sql")
    if not os.path.isdir(root):
        raise UsageError("%s has no test/sql directory; is --corpus the DuckLake corpus?" % corpus)
    if list_file:
        files = read_list(list_file)
        for name in files:
            if not os.path.isfile(os.path.join(corpus, name)):
                raise UsageError("%s (listed in %s) is not in the corpus" % (name, list_file))
    else:
        files = sorted(os.path.relpath(os.path.join(directory, name), corpus)
                       for directory, _, names in os.walk(root) for name in names if name.endswith(".test"))
    if filters:
        files = [name for name in files if any(part in name for part in filters)]
    return files


def read_list(path):
    with open(path, encoding="utf-8") as handle:
        return [line.split("\t")[0].strip() for line in handle if line.strip() and not line.startswith("#")]


def read_not_applicable(path):
    entries = {}
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip() and not line.startswith("#"):
                    name, _, reason = line.rstrip("\n").partition("\t")
                    entries[name.strip()] = reason.strip()
    return entries


def jvm_crash_log_in(work_dir):
    """Where a JVM the extension starts writes its crash log: the run's scratch folder, not the corpus (the cwd)."""
    options = " ".join(filter(None, [os.environ.get("JAVA_TOOL_OPTIONS"),
                                     "-XX:ErrorFile=" + os.path.join(work_dir, "hs_err_pid%p.log")]))
    return {"JAVA_TOOL_OPTIONS": options}


def run_child(args, catalog, name, work_dir):
    command = [sys.executable, os.path.abspath(__file__), "run-file", name, "--catalog", catalog,
               "--corpus", args.corpus, "--extension-dir", args.extension_dir,
               "--moraine-extension", args.moraine_extension]
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               errors="replace", start_new_session=True, cwd=args.corpus,
                               env=dict(os.environ, TMPDIR=work_dir, **jvm_crash_log_in(work_dir)))
    try:
        stdout, stderr = process.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return {"file": name, "catalog": catalog, "status": "fail", "records": None,
                "seconds": round(time.monotonic() - started, 2),
                "failure": {"line": None, "sql": None, "message": "timed out after %d s" % args.timeout}}
    for line in reversed(stdout.splitlines()):
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                break
    return {"file": name, "catalog": catalog, "status": "fail", "records": None,
            "seconds": round(time.monotonic() - started, 2),
            "failure": {"line": None, "sql": None,
                        "message": "the child process exited with %d without a result" % process.returncode,
                        "error": (stderr or stdout)[-3000:]}}


def crashed(result):
    """A child killed by a signal (a native crash of DuckDB, DuckLake or the JVM) before it printed its result."""
    failure = result.get("failure") or {}
    return result["status"] == "fail" and failure.get("message", "").startswith("the child process exited with -")


def run_child_retrying_a_crash(args, catalog, name, work_dir):
    """run_child; with --retry-crashed, a crashed file runs once more and its result keeps the crash's message."""
    result = run_child(args, catalog, name, work_dir)
    if args.retry_crashed and crashed(result):
        first = result
        result = run_child(args, catalog, name, work_dir)
        result["crashed_first"] = one_line(first["failure"]["message"] + ": " + first["failure"].get("error", ""))
    return result


class Worker:
    """A child process (run-worker) that runs files one after another, so that a catalog's start-up (the moraine
    extension's JVM) is paid once per worker instead of once per file. A file that takes longer than the timeout
    kills the worker; so does a crash: either way the file's result says so and the next file gets a new worker."""

    def __init__(self, args, catalog, work_dir):
        command = [sys.executable, os.path.abspath(__file__), "run-worker", "--catalog", catalog,
                   "--corpus", args.corpus, "--extension-dir", args.extension_dir,
                   "--moraine-extension", args.moraine_extension]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, errors="replace",
                                        start_new_session=True, cwd=args.corpus,
                                        env=dict(os.environ, TMPDIR=work_dir, **jvm_crash_log_in(work_dir)))
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            if line.startswith(RESULT_PREFIX):
                self.lines.put(line[len(RESULT_PREFIX):])
        self.lines.put(None)

    def run(self, name, catalog, timeout):
        """The file's result (a timeout kills the worker and is the file's failure), or None if the worker ended
        without one (it crashed)."""
        started = time.monotonic()
        try:
            self.process.stdin.write(name + "\n")
            self.process.stdin.flush()
        except OSError:
            return None
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            return {"file": name, "catalog": catalog, "status": "fail", "records": None, "timed_out": True,
                    "seconds": round(time.monotonic() - started, 2),
                    "failure": {"line": None, "sql": None, "message": "timed out after %d s" % timeout}}
        return json.loads(line) if line is not None else None

    def alive(self):
        return self.process.poll() is None

    def kill(self):
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()

    def close(self):
        try:
            self.process.stdin.close()
            self.process.wait(timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            self.kill()


def run_in_workers(args, tasks, work_dir, on_result):
    """Runs (name, catalog) tasks on --jobs threads, each keeping a worker per catalog. What a reused worker cannot
    vouch for is run again alone, as without workers: a file that failed (it may have met another file's leftovers)
    or crashed. A file that timed out is not run again."""
    pending = queue.Queue()
    for task in tasks:
        pending.put(task)

    def serve():
        workers = {}
        try:
            while True:
                try:
                    name, catalog = pending.get_nowait()
                except queue.Empty:
                    return
                worker = workers.get(catalog) or Worker(args, catalog, work_dir)
                workers[catalog] = worker
                result = worker.run(name, catalog, args.timeout)
                if result is None or not worker.alive():
                    workers.pop(catalog).kill()
                if result is None or result["status"] == "fail" and not result.get("timed_out"):
                    result = run_child_retrying_a_crash(args, catalog, name, work_dir)
                on_result((name, catalog), result)
        finally:
            for worker in workers.values():
                worker.close()

    threads = [threading.Thread(target=serve) for _ in range(args.jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def describe_failure(result):
    failure = result.get("failure") or {}
    if result["status"] == "skip":
        return "skipped: %s" % result.get("skip_reason")
    parts = ["line %s" % failure.get("line") if failure.get("line") else "", failure.get("message", "")]
    text = ": ".join(part for part in parts if part)
    if failure.get("sql"):
        text += "\n      SQL: " + one_line(failure["sql"])
    if failure.get("error"):
        text += "\n      error: " + one_line(failure["error"])
    if failure.get("expected") is not None and not failure.get("error"):
        text += "\n      expected: " + one_line(" | ".join(failure["expected"]))
    if failure.get("actual") is not None:
        text += "\n      actual:   " + one_line(" | ".join(failure["actual"]))
    return text


def one_line(text, limit=400):
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[:limit] + " ..."


def tally(results):
    counts = {"pass": 0, "fail": 0, "skip": 0}
    records = 0
    for result in results:
        counts[result["status"]] += 1
        records += result.get("records") or 0
    return counts, records


def print_summary(files, catalogs, by_key, not_applicable_list, out):
    """Prints the tallies and the lists; returns the files that make the run fail."""
    for catalog in catalogs:
        counts, records = tally(by_key[(name, catalog)] for name in files)
        print("%-12s %d files: %d passed, %d failed, %d skipped; %d records run"
              % (catalog, len(files), counts["pass"], counts["fail"], counts["skip"], records), file=out)
    if len(catalogs) == 1:
        failing = [name for name in files if by_key[(name, catalogs[0])]["status"] == "fail"]
        skipped = [name for name in files if by_key[(name, catalogs[0])]["status"] == "skip"]
        print_list("failing on %s" % catalogs[0], failing, catalogs[0], by_key, not_applicable_list, out)
        if skipped:
            print_list("skipped on %s" % catalogs[0], skipped, catalogs[0], by_key, None, out)
        return [name for name in failing if name not in not_applicable_list[1]]
    baseline, candidate = catalogs
    regressions = [name for name in files if by_key[(name, baseline)]["status"] == "pass"
                   and by_key[(name, candidate)]["status"] != "pass"]
    baseline_failures = [name for name in files if by_key[(name, baseline)]["status"] == "fail"]
    if baseline_failures:
        print_list("failing on %s (a runner or environment problem: these are not compared)" % baseline,
                   baseline_failures, baseline, by_key, None, out)
    print_list("passing on %s but not on %s" % (baseline, candidate), regressions, candidate, by_key,
               not_applicable_list, out)
    return [name for name in regressions if name not in not_applicable_list[1]]


def print_list(title, names, catalog, by_key, not_applicable_list, out):
    """Prints files with their first failing record; those of the not-applicable list (path, entries) apart."""
    list_path, not_applicable = not_applicable_list or (None, {})
    applicable = [name for name in names if name not in not_applicable]
    excluded = [name for name in names if name in not_applicable]
    print("\n%s: %d" % (title, len(applicable)), file=out)
    for name in applicable:
        print("  %s\n      %s" % (name, describe_failure(by_key[(name, catalog)])), file=out)
    if excluded:
        shown = os.path.relpath(list_path, REPO) if list_path.startswith(REPO + os.sep) else list_path
        print("\nnot applicable (%s): %d" % (shown, len(excluded)), file=out)
        for name in excluded:
            print("  %s  (%s)\n      %s" % (name, not_applicable[name], describe_failure(by_key[(name, catalog)])),
                  file=out)


def command_run(args):
    args.corpus = os.path.abspath(args.corpus)
    args.moraine_extension = os.path.abspath(args.moraine_extension)
    catalogs = [catalog.strip() for catalog in args.catalogs.split(",") if catalog.strip()]
    unknown = [catalog for catalog in catalogs if catalog not in CATALOGS]
    if unknown or not catalogs or len(set(catalogs)) != len(catalogs):
        raise UsageError("--catalogs takes duckdb-file, moraine or both, comma-separated; not %r" % args.catalogs)
    if args.jobs < 1 or args.timeout < 1:
        raise UsageError("--jobs and --timeout must be at least 1")
    if not os.path.isdir(args.extension_dir):
        raise UsageError("the DuckDB extension directory %s does not exist; run build-support/bootstrap.sh"
                         % args.extension_dir)
    if "moraine" in catalogs:
        ensure_moraine_environment(args)
    files = select_files(args.corpus, args.filter, args.files)
    if not files:
        raise UsageError("no test file matches")
    not_applicable = read_not_applicable(args.not_applicable)
    tasks = [(name, catalog) for name in files for catalog in catalogs]
    by_key = {}
    started = time.monotonic()
    print("running %d files on %s, %d at a time (timeout %d s each)" % (len(files), " and ".join(catalogs),
                                                                       args.jobs, args.timeout), file=sys.stderr)
    # Each child makes its test directory in here (TMPDIR), so that a child killed at its timeout leaves nothing.
    work_dir = tempfile.mkdtemp(prefix="ducklake-corpus-run-")
    progress = threading.Lock()

    def record(key, result):
        with progress:
            by_key[key] = result
            print("[%d/%d] %-11s %-4s %s (%s s)" % (len(by_key), len(tasks), result["catalog"], result["status"],
                                                   result["file"], result["seconds"]), file=sys.stderr)
    try:
        if args.process_per_file:
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                futures = {pool.submit(run_child_retrying_a_crash, args, catalog, name, work_dir): (name, catalog)
                           for name, catalog in tasks}
                for future in concurrent.futures.as_completed(futures):
                    record(futures[future], future.result())
        else:
            run_in_workers(args, tasks, work_dir, record)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)
    elapsed = time.monotonic() - started
    print("", file=sys.stdout)
    failing = print_summary(files, catalogs, by_key, (args.not_applicable, not_applicable), sys.stdout)
    retried = [result for result in by_key.values() if result.get("crashed_first")]
    if retried:
        print("\ncrashed, then run again (--retry-crashed): %d" % len(retried), file=sys.stdout)
        for result in retried:
            print("  %s on %s, then %s\n      %s" % (result["file"], result["catalog"], result["status"],
                                                   result["crashed_first"]), file=sys.stdout)
    print("\n%.0f s in all" % elapsed, file=sys.stdout)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"corpus": args.corpus, "catalogs": catalogs, "seconds": round(elapsed, 1),
                       "not_applicable": not_applicable,
                       "results": [by_key[task] for task in tasks]}, handle, indent=1)
    return 1 if failing else 0


# ---------------------------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------------------------

def default_extension_dir():
    cache = os.environ.get("MORAINE_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "moraine")
    return os.environ.get("MORAINE_DUCKDB_EXTENSION_DIR") or os.path.join(cache, "duckdb-extensions")


class Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print("%s: error: %s" % (self.prog, message), file=sys.stderr)
        sys.exit(2)


def argument_parser(prog=None):
    parser = Parser(prog=prog, description="Runs DuckLake's sqllogictest corpus on a DuckDB-file catalog and "
                                           "through moraine, and compares them.")
    commands = parser.add_subparsers(dest="mode", required=True, parser_class=Parser)
    common = Parser(add_help=False)
    common.add_argument("--corpus", default=DEFAULT_CORPUS,
                        help="the corpus root, with test/sql and data/ (default: %(default)s)")
    common.add_argument("--extension-dir", default=default_extension_dir(),
                        help="DuckDB's extension directory with ducklake and friends (default: %(default)s)")
    common.add_argument("--moraine-extension", default=DEFAULT_MORAINE_EXTENSION,
                        help="moraine.duckdb_extension (default: %(default)s)")

    run = commands.add_parser(
        "run", parents=[common], prog=os.environ.get("MORAINE_CONFORMANCE_PROG"),
        help="run many files in child processes",
        description="Runs DuckLake's sqllogictest corpus (test/sql/**/*.test) on a DuckDB-file catalog and through "
                    "moraine in child processes (workers running file after file; a file failing there runs again in "
                    "a process of its own), and lists every file that passes on the DuckDB-file "
                    "catalog but not on moraine, with its first failing record.",
        epilog="Exit status: 0 every file that passes on duckdb-file passes on moraine (with one catalog: no file "
               "fails), files listed as not applicable aside; 1 otherwise; 2 usage error. Progress goes to standard "
               "error, the tallies and lists to standard output.")
    run.add_argument("--filter", nargs="+", metavar="SUBSTRING", default=[],
                     help="only files whose path contains one of these")
    run.add_argument("--files", metavar="LIST_FILE",
                     help="only the files listed (paths relative to the corpus root, one per line, # comments)")
    run.add_argument("--catalogs", default="duckdb-file,moraine",
                     help="duckdb-file, moraine or both, comma-separated (default: %(default)s)")
    run.add_argument("--jobs", type=int, default=2, help="files run at once (default: %(default)s)")
    run.add_argument("--timeout", type=int, default=300,
                     help="seconds a file may take; more is a failure (default: %(default)s)")
    run.add_argument("--json", metavar="OUT", help="write every file's result to this JSON file")
    run.add_argument("--retry-crashed", action="store_true",
                     help="run a file once more when its process crashed (killed by a signal) and report both; "
                          "a second crash or a wrong answer still fails (default: off)")
    run.add_argument("--process-per-file", action="store_true",
                     help="run every file in a new process; by default each of the --jobs workers runs file after "
                          "file (a catalog's start-up once per worker) and a file that fails, times out or crashes "
                          "there is run again in a new process, whose result counts")
    run.add_argument("--not-applicable", default=NOT_APPLICABLE_FILE,
                     help="reviewed files that do not apply to moraine, path<TAB>reason (default: %(default)s)")

    one = commands.add_parser("run-file", parents=[common], help="run one file in this process, print JSON",
                              description="Runs one .test file in this process and prints one JSON line.")
    one.add_argument("file", help="the .test file, relative to the corpus root or absolute")
    one.add_argument("--catalog", choices=CATALOGS, default="duckdb-file", help="(default: %(default)s)")
    one.add_argument("--trace", action="store_true", help="print each record as it runs, and its result, on stderr")
    worker = commands.add_parser("run-worker", parents=[common], help="run the files named on standard input, print "
                                 "a JSON line each (the driver's workers)",
                                 description="Runs the .test files named on standard input (one a line, relative to "
                                             "the corpus root) one after another in this process, printing a line "
                                             "'RESULT <json>' for each.")
    worker.add_argument("--catalog", choices=CATALOGS, default="duckdb-file", help="(default: %(default)s)")
    return parser, {"run": run, "run-file": one, "run-worker": worker}


def main(argv=None, prog=None):
    parser, modes = argument_parser(prog)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        modes[args.mode].error("unrecognized arguments: %s" % " ".join(unknown))
    try:
        if args.mode == "run-file":
            command_run_file(args)
            return 0
        if args.mode == "run-worker":
            command_run_worker(args)
            return 0
        return command_run(args)
    except UsageError as error:
        print("error: %s" % error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
