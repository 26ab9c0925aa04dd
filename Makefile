# moraine — the two commands a user needs are `make test` and `make demo` (see README.md).
SHELL := /bin/bash
.DEFAULT_GOAL := help

JAVA_HOME := $(shell build-support/find-jdk.sh)
export JAVA_HOME
# Maven's own Guava calls sun.misc.Unsafe, which JDK 25 warns about on every run.
export MAVEN_OPTS ?= --sun-misc-unsafe-memory-access=allow
MVN := mvn -B -ntp
MVN_FLAGS ?=

.PHONY: help bootstrap build test test-clusters demo clean

ARGS ?=

help:
	@echo "make test       prepare native dependencies (cached under ~/.cache/moraine), build, run every test"
	@echo "make test-clusters  build, then run the multi-process cluster tests (Trino coordinator + workers, Spark local-cluster, both engines writing one store)"
	@echo "make demo       build, write a demo lake, serve it with a local Trino (ARGS=--once: run the queries and stop)"
	@echo "make build      build all modules without running tests"
	@echo "make bootstrap  only prepare SlateDB's Java binding and the DuckLake extension"
	@echo "make clean      remove build output (keeps ~/.cache/moraine)"

bootstrap:
	build-support/bootstrap.sh

build: bootstrap
	$(MVN) $(MVN_FLAGS) install -DskipTests

test: bootstrap
	$(MVN) $(MVN_FLAGS) install

test-clusters: build
	$(MVN) $(MVN_FLAGS) test -pl engine-launchers -Dmoraine.test.excludedGroups= -Dgroups=cluster

demo: build
	MORAINE_REBUILD= bin/moraine demo $(ARGS)

clean:
	$(MVN) -q clean
