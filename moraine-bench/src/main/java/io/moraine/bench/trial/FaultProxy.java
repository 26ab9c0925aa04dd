package io.moraine.bench.trial;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small HTTP/1.1 proxy between an S3 client (SlateDB's) and an S3 server (S3Proxy) that forwards each request on a
 * fresh upstream connection, bytes unchanged (so signatures stay valid), and on a seeded random share of requests
 * injects a fault instead: a reset connection, a 500 or 503 answer, a 500 after the request was carried out, a stall
 * shorter or longer than the store timeout, a response body cut short. It counts requests by kind (GET, PUT, LIST,
 * HEAD, DELETE, POST) either way, so with no faults it measures what a workload asks of the object store.
 */
public final class FaultProxy
        implements AutoCloseable
{
    public enum Fault
    {
        NONE("forwarded"), RESET("connection reset, not forwarded"), ERROR_500("500, not forwarded"), ERROR_503("503 SlowDown, not forwarded"),
        ERROR_500_AFTER("500 after forwarding (it happened)"), STALL_SHORT("stall below the store timeout, then forwarded"),
        STALL_LONG("stall beyond the store timeout, then forwarded"), TRUNCATED("response body cut short, connection reset");

        private final String description;

        Fault(String description)
        {
            this.description = description;
        }
    }

    private static final Map<Fault, Integer> WEIGHTS = new EnumMap<>(Map.of(Fault.RESET, 20, Fault.ERROR_500, 15, Fault.ERROR_503, 15,
            Fault.ERROR_500_AFTER, 15, Fault.STALL_SHORT, 15, Fault.STALL_LONG, 5, Fault.TRUNCATED, 15));

    private final ServerSocket server;
    private final int upstreamPort;
    private final Random random;
    private final double faultRate;
    private final Duration shortStall;
    private final Duration longStall;
    private final Map<Fault, AtomicLong> faults = new EnumMap<>(Fault.class);
    private final Map<String, AtomicLong> requests = new TreeMap<>();
    private final Map<String, AtomicLong> areas = new TreeMap<>();
    private volatile boolean closed;

    /** Listens on a free loopback port, forwarding to {@code upstreamPort}; {@code faultRate} 0 only counts. */
    public FaultProxy(int upstreamPort, long seed, double faultRate, Duration shortStall, Duration longStall)
            throws IOException
    {
        this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        this.upstreamPort = upstreamPort;
        this.random = new Random(seed);
        this.faultRate = faultRate;
        this.shortStall = shortStall;
        this.longStall = longStall;
        for (Fault fault : Fault.values()) {
            faults.put(fault, new AtomicLong());
        }
        Thread.ofPlatform().daemon().name("fault-proxy").start(this::acceptLoop);
    }

    public String endpoint()
    {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Requests seen so far, by kind. */
    public synchronized Map<String, Long> requestCounts()
    {
        Map<String, Long> counts = new TreeMap<>();
        requests.forEach((kind, count) -> counts.put(kind, count.get()));
        return counts;
    }

    public synchronized void resetCounts()
    {
        requests.clear();
        areas.clear();
    }

    /** Faults injected so far (and {@link Fault#NONE}: requests forwarded untouched). */
    public Map<Fault, Long> faultCounts()
    {
        Map<Fault, Long> counts = new EnumMap<>(Fault.class);
        faults.forEach((fault, count) -> counts.put(fault, count.get()));
        return counts;
    }

    /** The mix, printed: each fault's share of the faults chosen and what it does. */
    public String describeMix()
    {
        int total = WEIGHTS.values().stream().mapToInt(Integer::intValue).sum();
        List<String> parts = new ArrayList<>();
        WEIGHTS.forEach((fault, weight) -> parts.add(String.format(Locale.ROOT, "%s %d%% (%s)", fault, 100 * weight / total, fault.description)));
        return String.format(Locale.ROOT, "%.0f%% of requests faulted: %s; stalls %d ms and %d ms", faultRate * 100, String.join(", ", parts),
                shortStall.toMillis(), longStall.toMillis());
    }

    private void acceptLoop()
    {
        while (!closed) {
            try {
                Socket client = server.accept();
                Thread.ofVirtual().start(() -> serve(client));
            }
            catch (IOException e) {
                if (!closed) {
                    System.err.println("fault proxy: accept failed: " + e);
                }
            }
        }
    }

    private synchronized Fault choose()
    {
        if (faultRate <= 0 || random.nextDouble() >= faultRate) {
            return Fault.NONE;
        }
        int total = WEIGHTS.values().stream().mapToInt(Integer::intValue).sum();
        int pick = random.nextInt(total);
        for (Map.Entry<Fault, Integer> entry : WEIGHTS.entrySet()) {
            pick -= entry.getValue();
            if (pick < 0) {
                return entry.getKey();
            }
        }
        throw new IllegalStateException();
    }

    private void serve(Socket client)
    {
        try (client) {
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            while (true) {
                Message request = Message.read(in, false, null);
                if (request == null) {
                    return;
                }
                count(request);
                Fault fault = choose();
                faults.get(fault).incrementAndGet();
                switch (fault) {
                    case RESET -> {
                        reset(client);
                        return;
                    }
                    case ERROR_500 -> out.write(errorResponse(500, "InternalError"));
                    case ERROR_503 -> out.write(errorResponse(503, "SlowDown"));
                    case ERROR_500_AFTER -> {
                        forward(request);
                        out.write(errorResponse(500, "InternalError"));
                    }
                    case STALL_SHORT, STALL_LONG -> {
                        Thread.sleep(fault == Fault.STALL_SHORT ? shortStall : longStall);
                        out.write(forward(request).bytes());
                    }
                    case TRUNCATED -> {
                        byte[] response = forward(request).bytes();
                        out.write(response, 0, response.length - Math.max(1, (response.length - headLength(response)) / 2));
                        out.flush();
                        reset(client);
                        return;
                    }
                    case NONE -> out.write(forward(request).bytes());
                }
                out.flush();
            }
        }
        catch (IOException | InterruptedException e) {
            // The client went away (it timed out, or a fault reset it).
        }
    }

    private void count(Message request)
    {
        String kind = request.method();
        String target = request.target();
        if (kind.equals("GET") && (target.contains("list-type=") || target.contains("?prefix=") || target.contains("&prefix=") || target.contains("delimiter="))) {
            kind = "LIST";
        }
        String area = area(target);
        synchronized (this) {
            requests.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
            areas.computeIfAbsent(kind + " " + area, k -> new AtomicLong()).incrementAndGet();
        }
    }

    /**
     * Which part of a SlateDB store a request is for: the directory under the store's root ({@code manifest},
     * {@code wal}, {@code compacted}, ...), from the path or, for a LIST, its prefix parameter.
     */
    static String area(String target)
    {
        int query = target.indexOf('?');
        String path = query < 0 ? target : target.substring(0, query);
        if (query >= 0) {
            for (String parameter : target.substring(query + 1).split("&")) {
                if (parameter.startsWith("prefix=")) {
                    path = path + "/" + java.net.URLDecoder.decode(parameter.substring("prefix=".length()), StandardCharsets.UTF_8);
                }
            }
        }
        String[] segments = java.util.Arrays.stream(path.split("/")).filter(segment -> !segment.isEmpty()).toArray(String[]::new);
        // bucket / store root / area / object
        return segments.length >= 3 ? segments[2] : "(store root)";
    }

    /** Requests seen so far, by kind and store area ({@code GET compacted}, {@code HEAD wal}, ...). */
    public synchronized Map<String, Long> requestCountsByArea()
    {
        Map<String, Long> counts = new TreeMap<>();
        areas.forEach((kind, count) -> counts.put(kind, count.get()));
        return counts;
    }

    private Message forward(Message request)
            throws IOException
    {
        try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
            upstream.getOutputStream().write(request.withHeader("Connection", "close").bytes());
            upstream.getOutputStream().flush();
            Message response = Message.read(upstream.getInputStream(), true, request.method());
            if (response == null) {
                throw new IOException("S3 server closed the connection without answering");
            }
            return response.withoutHeader("Connection");
        }
    }

    private static void reset(Socket client)
            throws IOException
    {
        client.setSoLinger(true, 0);
        client.close();
    }

    private static byte[] errorResponse(int status, String code)
    {
        String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>injected by the trial's fault proxy</Message></Error>";
        String head = "HTTP/1.1 " + status + " " + (status == 503 ? "Service Unavailable" : "Internal Server Error") + "\r\nContent-Type: application/xml\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n";
        return (head + body).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static int headLength(byte[] message)
    {
        for (int i = 3; i < message.length; i++) {
            if (message[i - 3] == '\r' && message[i - 2] == '\n' && message[i - 1] == '\r' && message[i] == '\n') {
                return i + 1;
            }
        }
        return message.length;
    }

    @Override
    public void close()
            throws IOException
    {
        closed = true;
        server.close();
    }

    /** One HTTP/1.1 request or response: its start line, headers and body, kept as they came. */
    record Message(String startLine, List<String> headers, byte[] body)
    {
        String method()
        {
            return startLine.substring(0, startLine.indexOf(' '));
        }

        String target()
        {
            String[] parts = startLine.split(" ");
            return parts.length > 1 ? parts[1] : "";
        }

        Message withHeader(String name, String value)
        {
            Message without = withoutHeader(name);
            List<String> headers = new ArrayList<>(without.headers());
            headers.add(name + ": " + value);
            return new Message(startLine, headers, body);
        }

        Message withoutHeader(String name)
        {
            return new Message(startLine, headers.stream().filter(header -> !headerName(header).equalsIgnoreCase(name)).toList(), body);
        }

        Message withBodyLength()
        {
            return withHeader("Content-Length", String.valueOf(body.length));
        }

        byte[] bytes()
        {
            ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 512);
            StringBuilder head = new StringBuilder(startLine).append("\r\n");
            headers.forEach(header -> head.append(header).append("\r\n"));
            head.append("\r\n");
            out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(body);
            return out.toByteArray();
        }

        private static String headerName(String header)
        {
            int colon = header.indexOf(':');
            return colon < 0 ? header : header.substring(0, colon).trim();
        }

        private String header(String name)
        {
            for (String header : headers) {
                if (headerName(header).equalsIgnoreCase(name)) {
                    return header.substring(header.indexOf(':') + 1).trim();
                }
            }
            return null;
        }

        /** Reads one message; null at a clean end of stream before it. A response to HEAD, a 1xx, 204 or 304 has no body. */
        static Message read(InputStream in, boolean response, String requestMethod)
                throws IOException
        {
            String startLine = readLine(in);
            if (startLine == null) {
                return null;
            }
            while (response && startLine.startsWith("HTTP/1.1 100")) {
                readLine(in);
                startLine = readLine(in);
            }
            List<String> headers = new ArrayList<>();
            for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
                headers.add(line);
            }
            Message head = new Message(startLine, headers, new byte[0]);
            int status = response ? Integer.parseInt(startLine.split(" ")[1]) : 0;
            boolean noBody = response && ("HEAD".equals(requestMethod) || status / 100 == 1 || status == 204 || status == 304);
            if (noBody) {
                return head;
            }
            String length = head.header("Content-Length");
            if (length != null) {
                return new Message(startLine, headers, in.readNBytes(Integer.parseInt(length)));
            }
            String encoding = head.header("Transfer-Encoding");
            if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
                return new Message(startLine, headers, readChunked(in));
            }
            if (!response) {
                return head;
            }
            // The server closes after a body of no declared length (we asked it to close): declare it to the client, which keeps its connection.
            return new Message(startLine, headers, in.readAllBytes()).withBodyLength();
        }

        /** The chunked body as it came, chunk framing and trailers included. */
        private static byte[] readChunked(InputStream in)
                throws IOException
        {
            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            while (true) {
                String sizeLine = readLine(in);
                if (sizeLine == null) {
                    throw new IOException("chunked body ended early");
                }
                raw.writeBytes((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
                if (size == 0) {
                    for (String trailer = readLine(in); trailer != null; trailer = readLine(in)) {
                        raw.writeBytes((trailer + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                        if (trailer.isEmpty()) {
                            break;
                        }
                    }
                    return raw.toByteArray();
                }
                raw.writeBytes(in.readNBytes(size));
                raw.writeBytes((readLine(in) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            }
        }

        private static String readLine(InputStream in)
                throws IOException
        {
            ByteArrayOutputStream line = new ByteArrayOutputStream(128);
            int previous = -1;
            while (true) {
                int b = in.read();
                if (b < 0) {
                    return line.size() == 0 && previous < 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
                }
                if (b == '\n' && previous == '\r') {
                    byte[] bytes = line.toByteArray();
                    return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
                }
                line.write(b);
                previous = b;
            }
        }
    }
}
