package io.moraine.testing;

import com.google.common.io.ByteSource;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.domain.Blob;
import org.gaul.s3proxy.blobstore.domain.PageSet;
import org.gaul.s3proxy.blobstore.domain.StorageMetadata;
import org.gaul.s3proxy.blobstore.options.CreateContainerOptions;
import org.gaul.s3proxy.blobstore.options.GetOptions;
import org.gaul.s3proxy.blobstore.options.ListContainerOptions;
import org.gaul.s3proxy.blobstore.options.PutOptions;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * A real S3 server (S3Proxy 4.0, in-memory blobs) on 127.0.0.1 for tests. SlateDB's S3 client reads its settings
 * from the environment, which the build sets for the test JVM (pom.xml, surefire {@code environmentVariables}):
 * the endpoint port is reserved by the build and passed as {@code moraine.s3proxy.port}.
 */
public final class S3ProxyServer
        implements AutoCloseable
{
    public static final String ACCESS_KEY = "moraine-test";
    public static final String SECRET_KEY = "moraine-test-secret";

    private static S3ProxyServer shared;

    private final S3Proxy proxy;
    private final BlobStore blobStore;

    private S3ProxyServer(int port, String accessKey, String secretKey, BlobStore blobStore)
            throws Exception
    {
        this.blobStore = blobStore;
        proxy = S3Proxy.builder()
                .blobStore(blobStore)
                .endpoint(URI.create("http://127.0.0.1:" + port))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
                .ignoreUnknownHeaders(true)
                .build();
        proxy.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!"STARTED".equals(proxy.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("S3Proxy did not start on port " + port + ": " + proxy.getState());
            }
            Thread.sleep(10);
        }
    }

    /** The server of this test JVM, started on first use on the port the build reserved; it lives as long as the JVM. */
    public static synchronized S3ProxyServer shared()
            throws Exception
    {
        if (shared == null) {
            String port = System.getProperty("moraine.s3proxy.port");
            String endpoint = System.getenv("AWS_ENDPOINT");
            if (port == null || endpoint == null || !endpoint.endsWith(":" + port)) {
                throw new IllegalStateException("S3 tests need the build's S3 settings: run them through Maven "
                        + "(make test), which reserves moraine.s3proxy.port and sets AWS_ENDPOINT to match");
            }
            shared = new S3ProxyServer(Integer.parseInt(port), ACCESS_KEY, SECRET_KEY, new TransientNio2BlobStore());
        }
        return shared;
    }

    /**
     * A server of its own on a free port, accepting only {@code accessKey} and {@code secretKey}: a store on it is
     * reachable only with settings given explicitly, never with the build's {@code AWS_*} environment (which names
     * the shared server's endpoint and credentials). Close it after use.
     */
    public static S3ProxyServer startPrivate(String accessKey, String secretKey)
            throws Exception
    {
        return new S3ProxyServer(freePort(), accessKey, secretKey, new TransientNio2BlobStore());
    }

    /** {@link #startPrivate(String, String)} keeping its objects in files under {@code directory} instead of the heap (for benchmarks of many gigabytes). */
    public static S3ProxyServer startPrivate(String accessKey, String secretKey, Path directory)
            throws Exception
    {
        Files.createDirectories(directory);
        return new S3ProxyServer(freePort(), accessKey, secretKey, new FilesystemNio2BlobStore(directory.toString()));
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** {@link #shared()} for callers that cannot throw checked exceptions. */
    public static S3ProxyServer sharedUnchecked()
    {
        try {
            return shared();
        }
        catch (Exception e) {
            throw new IllegalStateException("cannot start S3Proxy: " + e, e);
        }
    }

    /** Creates a bucket (moraine never creates buckets itself) and returns its name. */
    public String createBucket(String name)
    {
        blobStore.createContainer(name, CreateContainerOptions.NONE);
        return name;
    }

    /** Uploads every file under {@code directory} to {@code bucket}, keyed {@code prefix + relative path}. */
    public void upload(String bucket, Path directory, String prefix)
            throws IOException
    {
        try (var paths = Files.walk(directory)) {
            for (Path file : paths.filter(Files::isRegularFile).toList()) {
                String key = prefix + directory.relativize(file).toString().replace(File.separatorChar, '/');
                byte[] bytes = Files.readAllBytes(file);
                blobStore.putBlob(bucket, Blob.builder(key).payload(ByteSource.wrap(bytes)).contentLength(bytes.length).build(), PutOptions.NONE);
            }
        }
    }

    /** The objects under {@code prefix} in {@code bucket}: key to size in bytes. */
    public Map<String, Long> objects(String bucket, String prefix)
    {
        Map<String, Long> objects = new TreeMap<>();
        String marker = null;
        do {
            ListContainerOptions.Builder options = ListContainerOptions.builder().prefix(prefix);
            if (marker != null) {
                options.afterMarker(marker);
            }
            PageSet<? extends StorageMetadata> page = blobStore.list(bucket, options.build());
            page.forEach(object -> objects.put(object.name(), object.size()));
            marker = page.nextMarker();
        }
        while (marker != null);
        return objects;
    }

    /** Copies the object {@code key} of {@code bucket} to the local {@code file}. */
    public Path download(String bucket, String key, Path file)
            throws IOException
    {
        Blob blob = blobStore.getBlob(bucket, key, GetOptions.NONE);
        if (blob == null) {
            throw new IOException("no object " + key + " in bucket " + bucket);
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (InputStream in = blob.getPayload()) {
            Files.copy(in, file);
        }
        return file;
    }

    public URI endpoint()
    {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    @Override
    public void close()
            throws Exception
    {
        proxy.stop();
    }
}
