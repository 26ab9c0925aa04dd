package io.moraine.spark;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.SupportsCatalogOptions;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * {@code spark.read.format("moraine").option("store", <store>).load("<schema>.<table>")}: the table resolved through a
 * {@link MoraineSparkCatalog} on that store (registered in the session under a name derived from the settings), so that
 * {@code versionAsOf} / {@code timestampAsOf} reach the catalog's time travel, and Delta's {@code readChangeFeed} options
 * the table's change feed ({@link ChangeFeedRequest}, carried to the catalog in the identifier).
 */
public class MoraineDataSource
        implements SupportsCatalogOptions, DataSourceRegister
{
    public static final String SHORT_NAME = "moraine";
    /** The reader option naming the table when {@code load()} is called without a path. */
    public static final String TABLE = "table";

    @Override
    public String shortName()
    {
        return SHORT_NAME;
    }

    @Override
    public Identifier extractIdentifier(CaseInsensitiveStringMap options)
    {
        String table = Optional.ofNullable(options.get("path")).orElse(options.get(TABLE));
        if (table == null || table.isBlank()) {
            throw SparkErrors.invalidSetting("format(\"moraine\") needs the table: .load(\"<schema>.<table>\") or .option(\"table\", \"<schema>.<table>\")");
        }
        String[] parts = table.strip().split("\\.");
        if (parts.length > 2) {
            throw SparkErrors.invalidSetting("format(\"moraine\") reads '<schema>.<table>' or '<table>' (schema main), not '" + table + "'");
        }
        String schema = parts.length == 1 ? "main" : parts[0];
        String name = parts[parts.length - 1];
        if (ChangeFeedRequest.requested(options)) {
            ChangeFeedRequest request = ChangeFeedRequest.of(options, java.time.ZoneId.of(SparkSession.active().sessionState().conf().sessionLocalTimeZone()));
            return Identifier.of(new String[] {schema, name}, request.identifierName());
        }
        return Identifier.of(new String[] {schema}, name);
    }

    /**
     * A session catalog for these settings, registered on first use: its name is derived from the settings, so equal
     * reads share one catalog and one open store.
     */
    @Override
    public String extractCatalog(CaseInsensitiveStringMap options)
    {
        MoraineSettings settings = MoraineSettings.from(options, "format(\"moraine\")");
        Map<String, String> settingOptions = settings.asOptions();
        String name = "moraine_" + HexFormat.of().formatHex(java.util.Arrays.copyOf(sha256(settingOptions.toString()), 8));
        SparkSession session = SparkSession.active();
        String prefix = "spark.sql.catalog." + name;
        if (!session.conf().contains(prefix)) {
            settingOptions.forEach((key, value) -> session.conf().set(prefix + "." + key, value));
            session.conf().set(prefix, MoraineSparkCatalog.class.getName());
        }
        return name;
    }

    @Override
    public Optional<String> extractTimeTravelVersion(CaseInsensitiveStringMap options)
    {
        if (ChangeFeedRequest.requested(options) && (options.containsKey("versionAsOf") || options.containsKey("timestampAsOf"))) {
            throw SparkErrors.invalidTimeTravel("readChangeFeed reads a range of snapshots (startingVersion / endingVersion); drop versionAsOf / timestampAsOf");
        }
        return Optional.ofNullable(options.get("versionAsOf"));
    }

    @Override
    public Optional<String> extractTimeTravelTimestamp(CaseInsensitiveStringMap options)
    {
        return Optional.ofNullable(options.get("timestampAsOf"));
    }

    /**
     * Batch reads and writes resolve the table through {@link #extractCatalog} and {@link #extractIdentifier}; a
     * streaming write ({@code writeStream.format("moraine").start("<schema>.<table>")}) asks the provider itself, so the
     * table is loaded through the same catalog here.
     */
    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options)
    {
        return loadTable(options).schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties)
    {
        return loadTable(new CaseInsensitiveStringMap(properties));
    }

    private Table loadTable(CaseInsensitiveStringMap options)
    {
        String catalogName = extractCatalog(options);
        Identifier identifier = extractIdentifier(options);
        TableCatalog catalog = (TableCatalog) SparkSession.active().sessionState().catalogManager().catalog(catalogName);
        try {
            return catalog.loadTable(identifier);
        }
        catch (NoSuchTableException e) {
            throw SparkErrors.analysis("MORAINE_TABLE_NOT_FOUND", "42P01", "table " + String.join(".", identifier.namespace()) + "." + identifier.name()
                    + " does not exist in store " + options.get("store") + "; create it first (CREATE TABLE, or df.writeTo(...).create())", e);
        }
    }

    private static byte[] sha256(String text)
    {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        }
        catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
