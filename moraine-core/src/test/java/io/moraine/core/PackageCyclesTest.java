package io.moraine.core;

import io.moraine.core.catalog.MoraineCatalog;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No package of {@code io.moraine.core} depends on another that depends back on it, directly or through others (the
 * layering is in {@code package-info.java}). Reads the compiled classes: every type a class names in its constant
 * pool (references, descriptors, generic signatures, annotations) counts. A nested package is a package of its own
 * (as for jdeps), named relative to the core: {@code inline.read}.
 */
class PackageCyclesTest
{
    private static final Pattern CORE_TYPE = Pattern.compile("io/moraine/core/([a-z0-9_]+(?:/[a-z0-9_]+)*)/([A-Z][A-Za-z0-9_$]*)");

    @Test
    void corePackagesHaveNoCycles()
            throws Exception
    {
        Path classes = Path.of(MoraineCatalog.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, Map<String, String>> uses = dependencies(classes.resolve("io/moraine/core"));
        assertThat(uses.keySet()).as("core packages read from %s", classes).contains("catalog", "keyspace", "tx", "row", "store", "inline", "inline.read");

        List<Set<String>> cycles = cycles(uses);
        StringBuilder detail = new StringBuilder();
        for (Set<String> cycle : cycles) {
            detail.append("\ncycle ").append(cycle).append(':');
            for (String from : cycle) {
                for (String to : cycle) {
                    String example = uses.get(from).get(to);
                    if (example != null) {
                        detail.append("\n  ").append(from).append(" -> ").append(to).append(" (").append(example).append(')');
                    }
                }
            }
        }
        assertThat(cycles).as("package cycles in io.moraine.core%s", detail).isEmpty();
    }

    @Test
    void findsCycles()
    {
        Map<String, Map<String, String>> uses = new TreeMap<>();
        uses.put("a", Map.of("b", "A uses B"));
        uses.put("b", Map.of("c", "B uses C"));
        uses.put("c", Map.of("a", "C uses A"));
        uses.put("d", Map.of("a", "D uses A"));
        assertThat(cycles(uses)).containsExactly(Set.of("a", "b", "c"));
        uses.put("c", Map.of());
        assertThat(cycles(uses)).isEmpty();
    }

    /** Package -> package it uses -> one example ("Class -> Class"), over the class files under {@code root}. */
    private static Map<String, Map<String, String>> dependencies(Path root)
            throws IOException
    {
        Map<String, Map<String, String>> uses = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(file -> file.toString().endsWith(".class")).toList();
        }
        for (Path file : files) {
            Path relative = root.relativize(file);
            if (relative.getNameCount() < 2) {
                continue; // io.moraine.core itself (package-info)
            }
            String from = relative.getParent().toString().replace(relative.getFileSystem().getSeparator(), ".");
            String fromClass = relative.getFileName().toString().replace(".class", "");
            Map<String, String> targets = uses.computeIfAbsent(from, _ -> new TreeMap<>());
            for (PoolEntry entry : ClassFile.of().parse(file).constantPool()) {
                if (entry instanceof Utf8Entry utf8) {
                    Matcher matcher = CORE_TYPE.matcher(utf8.stringValue());
                    while (matcher.find()) {
                        String to = matcher.group(1).replace('/', '.');
                        if (!to.equals(from)) {
                            targets.putIfAbsent(to, fromClass + " -> " + matcher.group(2));
                        }
                    }
                }
            }
        }
        return uses;
    }

    /** The strongly connected components with more than one package (Tarjan). */
    private static List<Set<String>> cycles(Map<String, Map<String, String>> uses)
    {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<Set<String>> cycles = new ArrayList<>();
        for (String node : uses.keySet()) {
            if (!index.containsKey(node)) {
                connect(node, uses, index, low, stack, cycles);
            }
        }
        return cycles;
    }

    private static void connect(String node, Map<String, Map<String, String>> uses, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, List<Set<String>> cycles)
    {
        index.put(node, index.size());
        low.put(node, index.get(node));
        stack.push(node);
        for (String next : uses.getOrDefault(node, Map.of()).keySet()) {
            if (!index.containsKey(next)) {
                connect(next, uses, index, low, stack, cycles);
                low.put(node, Math.min(low.get(node), low.get(next)));
            }
            else if (stack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                component.add(member);
            }
            while (!member.equals(node));
            if (component.size() > 1) {
                cycles.add(component);
            }
        }
    }
}
