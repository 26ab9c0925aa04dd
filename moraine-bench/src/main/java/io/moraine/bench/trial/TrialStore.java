package io.moraine.bench.trial;

import io.moraine.core.store.S3Settings;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.options.CreateContainerOptions;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where a trial's catalog lives: a local SlateDB store, or a store on S3 served by an S3Proxy in the parent process
 * whose blobs are files on disk (so they outlive every killed child). The lake's data files are local either way.
 */
final class TrialStore
        implements AutoCloseable
{
    static final String ACCESS_KEY = "moraine-trial";
    static final String SECRET_KEY = "moraine-trial-secret";
    private static final String BUCKET = "trial";

    private final StoreUri uri;
    private final S3Proxy proxy;

    private TrialStore(StoreUri uri, S3Proxy proxy)
    {
        this.uri = uri;
        this.proxy = proxy;
    }

    static TrialStore local(Path work)
    {
        return new TrialStore(StoreUri.parse("file://" + work.resolve("store")), null);
    }

    static TrialStore s3(Path work)
            throws Exception
    {
        Path blobs = Files.createDirectories(work.resolve("s3proxy-blobs"));
        BlobStore blobStore = new FilesystemNio2BlobStore(blobs.toString());
        blobStore.createContainer(BUCKET, CreateContainerOptions.NONE);
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(blobStore)
                .endpoint(URI.create("http://127.0.0.1:" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .ignoreUnknownHeaders(true)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start on port " + port + ": " + proxy.getState());
            }
            Thread.sleep(10);
        }
        return new TrialStore(StoreUri.parse("s3://" + BUCKET + "/catalog"), proxy);
    }

    StoreUri uri()
    {
        return uri;
    }

    boolean onS3()
    {
        return proxy != null;
    }

    /** The S3Proxy's own endpoint; the parent checks through it, never through a fault proxy. */
    String endpoint()
    {
        return proxy == null ? "none" : "http://127.0.0.1:" + proxy.getPort();
    }

    int port()
    {
        return proxy.getPort();
    }

    /** The store options of a process reaching the store at {@code endpoint} ({@code none}: not on S3). */
    static StoreOptions options(StoreUri store, Duration timeout, String endpoint)
    {
        StoreOptions options = StoreOptions.DEFAULTS.withTimeout(timeout);
        if (endpoint.equals("none")) {
            return options;
        }
        return options.withS3Settings(store, new S3Settings(Optional.of(ACCESS_KEY), Optional.of(SECRET_KEY), Optional.empty(), Optional.of("us-east-1"),
                Optional.of(endpoint), false, "trial S3Proxy"));
    }

    @Override
    public void close()
            throws Exception
    {
        if (proxy != null) {
            proxy.stop();
        }
    }
}
