#!/usr/bin/env bash
# Prints the home of a JDK 25, the one JDK this build uses (Trino 483 requires it).
# Order: $MORAINE_JAVA_HOME, $JAVA_HOME if it is a 25, then the usual install places.
set -euo pipefail

is_jdk25() {
  [ -x "$1/bin/javac" ] || return 1
  "$1/bin/java" -version 2>&1 | grep -q 'version "25'
}

for candidate in "${MORAINE_JAVA_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25* \
    /usr/lib/jvm/java-25* /usr/lib/jvm/jdk-25* /opt/java/openjdk /Library/Java/JavaVirtualMachines/*25*/Contents/Home; do
  if [ -n "$candidate" ] && is_jdk25 "$candidate"; then
    echo "$candidate"
    exit 0
  fi
done
echo "moraine needs JDK 25 (Temurin 25 recommended) and found none. Install it, or set MORAINE_JAVA_HOME to its home." >&2
exit 1
