package io.moraine.files;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * fake-gcs-server, a Google Cloud Storage emulator, run as a process on a free loopback port with its objects in
 * memory. The build passes the binary's path (installed by build-support/bootstrap.sh) as {@code moraine.fake-gcs-server}.
 */
final class FakeGcsServer
        implements AutoCloseable
{
    private final Process process;
    private final int port;

    private FakeGcsServer(Process process, int port)
    {
        this.process = process;
        this.port = port;
    }

    /** Starts the emulator with the given (empty) buckets. */
    static FakeGcsServer start(String... buckets)
            throws IOException, InterruptedException
    {
        String binary = System.getProperty("moraine.fake-gcs-server");
        if (binary == null || !Files.isExecutable(Path.of(binary))) {
            throw new IllegalStateException("GCS tests need fake-gcs-server at the path the build passes as moraine.fake-gcs-server (" + binary
                    + "): run build-support/bootstrap.sh (make bootstrap), which installs it");
        }
        Path data = Files.createTempDirectory("moraine-fake-gcs");
        for (String bucket : buckets) {
            Files.createDirectories(data.resolve(bucket));
        }
        int port = freePort();
        String url = "http://127.0.0.1:" + port;
        Process process = new ProcessBuilder(binary, "-scheme", "http", "-host", "127.0.0.1", "-port", String.valueOf(port),
                "-backend", "memory", "-data", data.toString(), "-external-url", url, "-public-host", "127.0.0.1:" + port, "-log-level", "warn")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .start();
        FakeGcsServer server = new FakeGcsServer(process, port);
        server.awaitListening();
        return server;
    }

    String endpoint()
    {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close()
    {
        process.destroy();
    }

    private void awaitListening()
            throws InterruptedException
    {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("fake-gcs-server exited with " + process.exitValue() + " before it listened on port " + port);
            }
            try {
                new Socket(InetAddress.getLoopbackAddress(), port).close();
                return;
            }
            catch (IOException e) {
                Thread.sleep(50);
            }
        }
        process.destroy();
        throw new IllegalStateException("fake-gcs-server did not listen on port " + port + " within 20 s");
    }

    private static int freePort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
