package io.moraine.launchers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback HTTP proxy in front of an S3 server (S3Proxy) for one process (or one kind of process) of a cluster: it
 * forwards every byte unchanged (signatures stay valid) and counts the requests by method and bucket (path-style
 * requests, {@code /bucket/key}). A process given this proxy's endpoint as its only S3 endpoint makes no request that
 * is not counted here, so {@code requests("catalog-bucket") == 0} proves it never touched that bucket.
 */
public final class CountingS3Proxy
        implements AutoCloseable
{
    private final String name;
    private final ServerSocket server;
    private final int upstreamPort;
    private final Map<String, Long> counts = new TreeMap<>();
    private final List<String> changes = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    public CountingS3Proxy(String name, URI upstream)
            throws IOException
    {
        this.name = name;
        this.server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        this.upstreamPort = upstream.getPort();
        Thread.ofPlatform().daemon().name("counting-s3-proxy-" + name).start(this::accept);
    }

    /** {@code http://127.0.0.1:<port>}, for {@code AWS_ENDPOINT} or a file system's {@code s3.endpoint}. */
    public String endpoint()
    {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Requests so far by {@code "<METHOD> <bucket>"}. */
    public synchronized Map<String, Long> counts()
    {
        return new TreeMap<>(counts);
    }

    /** Requests so far for {@code bucket}, any method. */
    public synchronized long requests(String bucket)
    {
        return counts.entrySet().stream().filter(entry -> entry.getKey().endsWith(" " + bucket)).mapToLong(Map.Entry::getValue).sum();
    }

    /** Requests so far of {@code method} for {@code bucket}. */
    public synchronized long requests(String method, String bucket)
    {
        return counts.getOrDefault(method + " " + bucket, 0L);
    }

    /** The request lines of every request other than a GET or HEAD so far ({@code PUT /bucket/key}, {@code DELETE ...}), in order. */
    public List<String> changes()
    {
        return List.copyOf(changes);
    }

    @Override
    public String toString()
    {
        return name + " " + counts();
    }

    private void accept()
    {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                sockets.add(client);
                sockets.add(upstream);
                Thread.ofVirtual().start(() -> forwardRequests(client, upstream));
                Thread.ofVirtual().start(() -> pump(upstream, client));
            }
            catch (IOException e) {
                // Closed, or the S3 server went away: the client sees its connection fail.
            }
        }
    }

    /** Client to server: each request's head is counted, then it and its body go on unchanged. */
    private void forwardRequests(Socket client, Socket upstream)
    {
        try (client; upstream) {
            InputStream in = client.getInputStream();
            OutputStream out = upstream.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                count(head);
                out.write(head.getBytes(StandardCharsets.ISO_8859_1));
                String lower = head.toLowerCase(Locale.ROOT);
                if (lower.contains("\r\ntransfer-encoding:") && lower.contains("chunked")) {
                    copyChunked(in, out);
                }
                else {
                    long length = contentLength(lower);
                    out.write(in.readNBytes((int) length));
                }
                out.flush();
            }
        }
        catch (IOException e) {
            // A side closed its connection.
        }
    }

    private synchronized void count(String head)
    {
        String[] requestLine = head.substring(0, head.indexOf("\r\n")).split(" ");
        String path = requestLine.length > 1 ? requestLine[1] : "";
        int query = path.indexOf('?');
        String[] segments = (query < 0 ? path : path.substring(0, query)).split("/");
        String bucket = segments.length > 1 ? segments[1] : "(no bucket)";
        counts.merge(requestLine[0] + " " + bucket, 1L, Long::sum);
        if (!requestLine[0].equals("GET") && !requestLine[0].equals("HEAD")) {
            changes.add(requestLine[0] + " " + path);
        }
    }

    private static void pump(Socket from, Socket to)
    {
        try (from; to) {
            from.getInputStream().transferTo(to.getOutputStream());
        }
        catch (IOException e) {
            // A side closed its connection.
        }
    }

    /** The request line and headers up to and including the empty line; null at a clean end of stream. */
    private static String readHead(InputStream in)
            throws IOException
    {
        ByteArrayOutputStream head = new ByteArrayOutputStream(512);
        int last4 = 0;
        while (last4 != 0x0D0A0D0A) {
            int b = in.read();
            if (b < 0) {
                if (head.size() == 0) {
                    return null;
                }
                throw new IOException("the request head ended early");
            }
            head.write(b);
            last4 = (last4 << 8) | b;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private static long contentLength(String lowerHead)
    {
        int at = lowerHead.indexOf("\r\ncontent-length:");
        if (at < 0) {
            return 0;
        }
        int start = at + "\r\ncontent-length:".length();
        return Long.parseLong(lowerHead.substring(start, lowerHead.indexOf("\r\n", start)).trim());
    }

    private static void copyChunked(InputStream in, OutputStream out)
            throws IOException
    {
        while (true) {
            String sizeLine = readLine(in);
            out.write((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                for (String trailer = readLine(in); ; trailer = readLine(in)) {
                    out.write((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    if (trailer.isEmpty()) {
                        return;
                    }
                }
            }
            out.write(in.readNBytes(size));
            out.write((readLine(in) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    private static String readLine(InputStream in)
            throws IOException
    {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("a chunked body ended early");
            }
            if (b == '\n' && previous == '\r') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
            previous = b;
        }
    }

    @Override
    public void close()
            throws IOException
    {
        closed = true;
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
