package io.moraine.launchers.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A real Spark distribution's {@code spark-submit}, as a user runs it: PyPI's {@code pyspark} in the cache
 * ({@code build-support/install-pyspark.sh} installs it on first use), on this JDK, in local mode (or on another
 * master, {@link #onMaster}), with the moraine
 * bundle jar ({@code spark-connector/target/moraine-spark-bundle-<version>.jar}) and nothing else of moraine's.
 * Spark's own launcher adds the JVM options Spark needs on JDK 25 (and SlateDB's native access) to the driver and
 * executors; this adds only a quieter log configuration.
 */
public final class SparkSubmit
{
    public static final String BUNDLE_PREFIX = "moraine-spark-bundle-";

    private final Path root;
    private final Path sparkSubmit;
    private final Path bundle;
    private final String master;

    private SparkSubmit(Path root, Path sparkSubmit, Path bundle, String master)
    {
        this.root = root;
        this.sparkSubmit = sparkSubmit;
        this.bundle = bundle;
        this.master = master;
    }

    /** The distribution and bundle of the moraine checkout at {@code root}, installing PySpark if it is missing. */
    public static SparkSubmit of(Path root)
            throws IOException, InterruptedException
    {
        Path script = root.resolve("build-support/install-pyspark.sh");
        Path submit = cacheDirectory().resolve("pyspark-" + pysparkVersion(root)).resolve("venv/bin/spark-submit");
        if (!Files.isExecutable(submit)) {
            Process install = new ProcessBuilder(script.toString()).inheritIO().start();
            if (install.waitFor() != 0 || !Files.isExecutable(submit)) {
                throw new SparkUnavailableException("PySpark is not installed and " + script + " could not install it (see its message above); "
                        + "it needs PyPI once, then works offline");
            }
        }
        return new SparkSubmit(root, submit, bundle(root), "local[2]");
    }

    /** The checkout this process runs in: {@code -Dmoraine.root} (bin/moraine sets it), else the nearest directory up with build-support. */
    public static Path checkoutRoot()
    {
        String configured = System.getProperty("moraine.root");
        if (configured != null) {
            return Path.of(configured).toAbsolutePath();
        }
        for (Path directory = Path.of("").toAbsolutePath(); directory != null; directory = directory.getParent()) {
            if (Files.isRegularFile(directory.resolve("build-support/install-pyspark.sh"))) {
                return directory;
            }
        }
        throw new IllegalStateException("cannot find the moraine checkout (no build-support/install-pyspark.sh above " + Path.of("").toAbsolutePath()
                + "); set -Dmoraine.root");
    }

    /**
     * The same distribution submitting to {@code master} instead of {@code local[2]}: {@code local-cluster[2,1,1024]}
     * runs two executors in JVMs of their own, started by Spark's standalone worker from the distribution's jars.
     */
    public SparkSubmit onMaster(String master)
    {
        return new SparkSubmit(root, sparkSubmit, bundle, master);
    }

    public Path bundle()
    {
        return bundle;
    }

    public Path root()
    {
        return root;
    }

    /** {@code spark-submit} running Java's {@code mainClass} from {@code applicationJar} (the bundle, or a jar besides it). */
    public ProcessBuilder java(String mainClass, Path applicationJar, Map<String, String> conf, List<String> arguments, Map<String, String> environment)
            throws IOException
    {
        return java(mainClass, applicationJar, List.of(), conf, arguments, environment);
    }

    /** As {@link #java(String, Path, Map, List, Map)}, with {@code moreJars} besides the bundle (a benchmark's baseline engine, say). */
    public ProcessBuilder java(String mainClass, Path applicationJar, List<Path> moreJars, Map<String, String> conf, List<String> arguments,
            Map<String, String> environment)
            throws IOException
    {
        List<String> application = new ArrayList<>(List.of("--class", mainClass, applicationJar.toString()));
        application.addAll(arguments);
        List<Path> jars = new ArrayList<>(applicationJar.equals(bundle) ? List.of() : List.of(bundle));
        jars.addAll(moreJars);
        return command(jars, conf, application, environment);
    }

    /** {@code spark-submit} running a PySpark application, with only the bundle jar added. */
    public ProcessBuilder python(Path script, Map<String, String> conf, List<String> arguments, Map<String, String> environment)
            throws IOException
    {
        List<String> application = new ArrayList<>(List.of(script.toString()));
        application.addAll(arguments);
        return command(List.of(bundle), conf, application, environment);
    }

    /** {@code conf} comes after this class's defaults and wins; {@code environment} is added to this process's (S3 settings, say). */
    private ProcessBuilder command(List<Path> jars, Map<String, String> conf, List<String> application, Map<String, String> environment)
            throws IOException
    {
        Path log4j = Files.createTempFile("moraine-spark-log4j2", ".properties");
        log4j.toFile().deleteOnExit();
        Files.writeString(log4j, """
                rootLogger.level = warn
                rootLogger.appenderRef.stderr.ref = console
                appender.console.type = Console
                appender.console.name = console
                appender.console.target = SYSTEM_ERR
                appender.console.layout.type = PatternLayout
                appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex
                logger.native.name = org.apache.hadoop.util.NativeCodeLoader
                logger.native.level = error
                """, StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(sparkSubmit.toString(), "--master", master,
                "--driver-java-options", "-Dlog4j2.configurationFile=" + log4j.toUri()));
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("spark.ui.enabled", "false");
        settings.put("spark.driver.host", "127.0.0.1");
        settings.put("spark.driver.bindAddress", "127.0.0.1");
        settings.put("spark.sql.session.timeZone", "UTC");
        settings.putAll(conf);
        settings.forEach((key, value) -> command.addAll(List.of("--conf", key + "=" + value)));
        if (!jars.isEmpty()) {
            command.addAll(List.of("--jars", String.join(",", jars.stream().map(Path::toString).toList())));
        }
        command.addAll(application);
        ProcessBuilder builder = new ProcessBuilder(command);
        // This JVM's JDK (25), for Spark's driver; no SPARK_HOME or Python of the caller's leaks in.
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        builder.environment().remove("SPARK_HOME");
        builder.environment().remove("PYSPARK_PYTHON");
        builder.environment().put("PYSPARK_PYTHON", sparkSubmit.resolveSibling("python").toString());
        builder.environment().putAll(environment);
        return builder;
    }

    private static Path bundle(Path root)
            throws IOException
    {
        Path target = root.resolve("spark-connector/target");
        List<Path> found;
        try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
            found = files.filter(file -> file.getFileName().toString().startsWith(BUNDLE_PREFIX) && file.getFileName().toString().endsWith(".jar")).toList();
        }
        if (found.size() != 1) {
            throw new SparkUnavailableException("expected one " + BUNDLE_PREFIX + "<version>.jar in " + target + ", found " + found.size()
                    + ": build it with 'make build' (or mvn package -pl spark-connector -am)");
        }
        return found.getFirst();
    }

    private static String pysparkVersion(Path root)
            throws IOException
    {
        return Files.readAllLines(root.resolve("build-support/versions.env")).stream()
                .filter(line -> line.startsWith("PYSPARK_VERSION="))
                .map(line -> line.substring("PYSPARK_VERSION=".length()).strip())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("build-support/versions.env has no PYSPARK_VERSION"));
    }

    private static Path cacheDirectory()
    {
        String configured = System.getenv("MORAINE_CACHE_DIR");
        return configured != null ? Path.of(configured) : Path.of(System.getProperty("user.home"), ".cache", "moraine");
    }

    /** No Spark distribution or no bundle jar here: what to do is in the message. */
    public static final class SparkUnavailableException
            extends IllegalStateException
    {
        public SparkUnavailableException(String message)
        {
            super(message);
        }
    }
}
