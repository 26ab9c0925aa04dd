package io.moraine.duckdb.ext;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy in front of an object store (S3Proxy) that forwards bytes unchanged until {@link #close(boolean)}d:
 * from then on, what a client sends is held, not forwarded, so every request made meanwhile blocks (a store whose
 * writes hang, as behind a stalled network) until the gate opens again.
 */
final class GatedProxy
        implements AutoCloseable
{
    private final ServerSocket server;
    private final int upstreamPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private boolean closedGate;
    private volatile CountDownLatch held = new CountDownLatch(1);
    private volatile boolean shutDown;

    GatedProxy(int upstreamPort)
            throws IOException
    {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.upstreamPort = upstreamPort;
        Thread.ofPlatform().daemon().name("gated-proxy").start(this::accept);
    }

    /** host:port, for a DuckDB secret's ENDPOINT. */
    String endpoint()
    {
        return "127.0.0.1:" + server.getLocalPort();
    }

    /** Closes the gate ({@code true}: from now on requests are held) or opens it (held bytes flow on). */
    void close(boolean closed)
    {
        synchronized (gate) {
            closedGate = closed;
            if (closed) {
                held = new CountDownLatch(1);
            }
            gate.notifyAll();
        }
    }

    /** Waits until a request is held at the closed gate. */
    boolean awaitHeld(long seconds)
            throws InterruptedException
    {
        return held.await(seconds, TimeUnit.SECONDS);
    }

    private void accept()
    {
        while (!shutDown) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                sockets.add(client);
                sockets.add(upstream);
                Thread.ofVirtual().start(() -> pump(client, upstream, true));
                Thread.ofVirtual().start(() -> pump(upstream, client, false));
            }
            catch (IOException e) {
                // Shut down, or the upstream went away: the client sees its connection fail.
            }
        }
    }

    private void pump(Socket from, Socket to, boolean gated)
    {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                if (gated) {
                    passGate();
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        }
        catch (IOException | InterruptedException e) {
            // One side closed.
        }
        finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void passGate()
            throws InterruptedException
    {
        synchronized (gate) {
            while (closedGate && !shutDown) {
                held.countDown();
                gate.wait();
            }
        }
    }

    @Override
    public void close()
    {
        shutDown = true;
        close(false);
        closeQuietly(server);
        sockets.forEach(GatedProxy::closeQuietly);
    }

    private static void closeQuietly(AutoCloseable closeable)
    {
        try {
            closeable.close();
        }
        catch (Exception e) {
            // Closing anyway.
        }
    }
}
