package io.moraine.files;

import io.trino.filesystem.TrinoFileSystemFactory;

/** The Trino file system factory of one family of URI schemes, and how to release what it holds (clients, threads). */
record SchemeFileSystem(TrinoFileSystemFactory factory, AutoCloseable release) {}
