package io.moraine.duckdb.ext;

import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.catalog.NewCatalog;
import io.moraine.core.store.StoreUri;
import io.moraine.testing.S3ProxyServer;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.List;

import static io.moraine.duckdb.ext.ExtensionConnections.count;
import static io.moraine.duckdb.ext.ExtensionConnections.execute;
import static io.moraine.duckdb.ext.ExtensionConnections.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store on S3 (S3Proxy; credentials from the AWS_* environment). DuckDB treats an ATTACH of an s3:// path, in either
 * form, as a remote file: httpfs must be loaded, and an attach without a mode is bumped to READ_ONLY, so a missing
 * store is refused with the READ_WRITE fix, and READ_WRITE opens the writer.
 */
class S3AttachTest
{
    @Test
    void anS3StoreAttachesReadOnlyByDefaultAndReadWriteWhenAsked()
            throws Exception
    {
        String bucket = S3ProxyServer.shared().createBucket("moraine-duckdb-attach");
        StoreUri store = StoreUri.parse("s3://" + bucket + "/catalog");
        MoraineCatalog.create(store, NewCatalog.bootstrapped("s3://" + bucket + "/data/")).close();
        try (Connection connection = ExtensionConnections.open()) {
            execute(connection, "LOAD httpfs");
            execute(connection, "ATTACH '" + store + "' AS m (TYPE moraine)");
            assertThat(query(connection, "SELECT readonly FROM duckdb_databases() WHERE database_name = 'm'")).containsExactly(List.of("true"));
            assertThat(count(connection, "SELECT count(*) FROM m.ducklake_snapshot")).isEqualTo(1);
            assertThat(query(connection, "SELECT value FROM m.ducklake_metadata WHERE key = 'data_path'"))
                    .containsExactly(List.of("s3://" + bucket + "/data/"));

            assertThatThrownBy(() -> execute(connection, "ATTACH 'moraine:s3://" + bucket + "/missing' AS x"))
                    .hasMessageContaining("Catalog Error").hasMessageContaining("READ_WRITE");

            execute(connection, "ATTACH 'moraine:" + store + "' AS w (READ_WRITE)");
            assertThat(query(connection, "SELECT readonly FROM duckdb_databases() WHERE database_name = 'w'")).containsExactly(List.of("false"));
            String id = query(connection, "SELECT checkpoint_id FROM moraine_create_checkpoint('w')").getFirst().getFirst();
            // The READ_ONLY attach keeps a checkpoint of its own (with an expiry) while it is open.
            assertThat(query(connection, "SELECT checkpoint_id FROM moraine_checkpoints('" + store + "') WHERE expires_at IS NULL"))
                    .containsExactly(List.of(id));
        }
    }
}
