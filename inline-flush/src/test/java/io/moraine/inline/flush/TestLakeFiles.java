package io.moraine.inline.flush;

import io.moraine.files.LakeFileSystems;

/**
 * The lake's files as the command line reaches them: Trino's file systems configured from the environment, which the
 * build points at the tests' S3Proxy. One for the test JVM.
 */
final class TestLakeFiles
{
    static final LakeFileSystems FILES = LakeFileSystems.fromEnvironment(System.getenv());

    private TestLakeFiles() {}
}
