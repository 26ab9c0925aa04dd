package io.moraine.bench.trial;

import io.moraine.cli.cat.ChangeFeedReader;
import io.moraine.cli.cat.TableReader;
import io.moraine.core.catalog.CatalogSnapshot;
import io.moraine.core.catalog.MoraineCatalog;
import io.moraine.core.changes.ChangeFeed;
import io.moraine.core.changes.ChangeKind;
import io.moraine.core.io.LocalFileSystem;
import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import io.moraine.core.scan.ScanBuilder;
import io.moraine.core.store.OpenMode;
import io.moraine.core.store.StoreOptions;
import io.moraine.core.store.StoreUri;
import io.moraine.core.verify.StoreVerifier;
import io.moraine.core.verify.VerifyProblem;
import io.moraine.core.verify.VerifyReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a store after a child was killed, keeping what it learnt for the next trial: each snapshot new since the last
 * check must change the table by exactly one logged commit's content (its change feed, read engine-free), or by
 * nothing for a flush; every acknowledged commit must be at its snapshot with its digest; the rows at the head,
 * read by a plain scan, must be the ones those changes add up to; and {@link StoreVerifier} must find no problem.
 */
final class TrialChecker
{
    /** What one check found. */
    record Result(long head, int newSnapshots, int acknowledged, int landedUnacknowledged, int lost, int partial, int verifyProblems, List<String> problems) {}

    private static final long FLUSH = -1;

    private final StoreUri store;
    private final StoreOptions options;
    private final Map<Long, CommitContent> intents = new HashMap<>();
    private final Map<Long, Long> batchAt = new HashMap<>();
    private final Map<Long, Long> snapshotOf = new HashMap<>();
    private final Set<Long> acknowledgedBatches = new HashSet<>();
    private final Set<Long> live = new HashSet<>();
    private long checkedHead = 1;

    TrialChecker(StoreUri store, StoreOptions options)
    {
        this.store = store;
        this.options = options;
    }

    Result check(TrialLog.Contents log)
    {
        intents.putAll(log.intents());
        List<String> problems = new ArrayList<>();
        int partial = 0;
        int lost = 0;
        int landedUnacknowledged = 0;
        log.acks().forEach(ack -> acknowledgedBatches.add(ack.batch()));
        try (MoraineCatalog catalog = MoraineCatalog.open(store, OpenMode.READ_ONLY, options)) {
            long head = catalog.headSnapshotId().orElseThrow();
            int newSnapshots = (int) (head - checkedHead);
            for (long snapshot = checkedHead + 1; snapshot <= head; snapshot++) {
                String problem = checkSnapshot(catalog, snapshot);
                if (problem != null) {
                    partial++;
                    problems.add("partial: snapshot " + snapshot + ": " + problem);
                }
                else if (batchAt.get(snapshot) != FLUSH && !acknowledgedBatches.contains(batchAt.get(snapshot))) {
                    landedUnacknowledged++;
                }
            }
            for (TrialLog.Ack ack : log.acks()) {
                String problem = checkAck(ack);
                if (problem != null) {
                    lost++;
                    problems.add("lost: batch " + ack.batch() + " acknowledged at snapshot " + ack.snapshot() + ": " + problem);
                }
            }
            try (CatalogSnapshot latest = catalog.at(head)) {
                Set<Long> scanned = scanIds(latest);
                Set<Long> missing = new TreeSet<>(live);
                missing.removeAll(scanned);
                Set<Long> extra = new TreeSet<>(scanned);
                extra.removeAll(live);
                if (!missing.isEmpty()) {
                    lost++;
                    problems.add("lost: rows the snapshots' changes add up to are missing from a scan at head " + head + ": " + first(missing));
                }
                if (!extra.isEmpty()) {
                    partial++;
                    problems.add("partial: a scan at head " + head + " has rows no snapshot's changes explain: " + first(extra));
                }
                VerifyReport report = StoreVerifier.verify(latest.reader(), StoreVerifier.Options.STORE_ONLY.withFiles(LocalFileSystem.INSTANCE));
                for (VerifyProblem problem : report.problems()) {
                    problems.add("verify: " + problem.line());
                }
                checkedHead = head;
                return new Result(head, newSnapshots, log.acks().size(), landedUnacknowledged, lost, partial, report.problems().size(), problems);
            }
        }
    }

    /** Why snapshot {@code snapshot} is not exactly one logged commit, or null when it is. */
    private String checkSnapshot(MoraineCatalog catalog, long snapshot)
    {
        try (CatalogSnapshot end = catalog.at(snapshot)) {
            List<Row> changes = end.visible(TableKind.SNAPSHOT_CHANGES, snapshot).toList();
            String changesMade = changes.isEmpty() ? "" : changes.getFirst().getString("changes_made");
            TreeSet<Long> inserted = new TreeSet<>();
            TreeSet<Long> deleted = new TreeSet<>();
            new ChangeFeedReader(end, ChangeFeed.forTable(end, TrialTable.TABLE_ID, snapshot), LocalFileSystem.INSTANCE).read((kind, at, rowId, row) -> {
                (kind == ChangeKind.INSERTION ? inserted : deleted).add((Long) row[0]);
            });
            String problem = explain(snapshot, changesMade, inserted, deleted);
            live.removeAll(deleted);
            live.addAll(inserted);
            return problem;
        }
        catch (RuntimeException e) {
            return "cannot be read: " + e;
        }
    }

    private String explain(long snapshot, String changesMade, TreeSet<Long> inserted, TreeSet<Long> deleted)
    {
        if (changesMade.contains("inline_flush")) {
            batchAt.put(snapshot, FLUSH);
            return inserted.isEmpty() && deleted.isEmpty() ? null : "a flush changed rows: +" + first(inserted) + " -" + first(deleted);
        }
        if (inserted.isEmpty()) {
            return "no row inserted (every trial commit but a flush inserts one); changes '" + changesMade + "', deleted " + first(deleted);
        }
        Set<Long> batches = new TreeSet<>();
        inserted.forEach(id -> batches.add(TrialTable.batchOf(id)));
        if (batches.size() != 1) {
            return "rows of several batches " + batches;
        }
        long batch = batches.iterator().next();
        CommitContent intent = intents.get(batch);
        if (intent == null) {
            return "rows of batch " + batch + ", which no child logged";
        }
        batchAt.put(snapshot, batch);
        if (snapshotOf.putIfAbsent(batch, snapshot) != null) {
            return "batch " + batch + " landed twice: at snapshot " + snapshotOf.get(batch) + " and " + snapshot;
        }
        if (!intent.inserted().equals(inserted) || !new TreeSet<>(intent.deleted()).equals(deleted)) {
            return "batch " + batch + " (" + intent.kind() + ") should insert " + intent.rows() + " rows and delete " + intent.deleted()
                    + ", but inserts " + inserted.size() + " " + first(inserted) + " and deletes " + deleted;
        }
        for (long id : deleted) {
            if (!live.contains(id)) {
                return "batch " + batch + " deletes row " + id + ", which was not live";
            }
        }
        return null;
    }

    private String checkAck(TrialLog.Ack ack)
    {
        if (ack.snapshot() < 0) {
            Long at = snapshotOf.get(ack.batch());
            if (at == null) {
                return "no snapshot holds its rows (head " + checkedHeadOrUnknown() + ")";
            }
            ack = new TrialLog.Ack(ack.batch(), at, ack.digest());
        }
        Long batch = batchAt.get(ack.snapshot());
        if (batch == null) {
            return "no such snapshot (head " + checkedHeadOrUnknown() + ")";
        }
        CommitContent intent = intents.get(ack.batch());
        if (intent != null && intent.kind() == CommitContent.Kind.FLUSH) {
            return batch == FLUSH ? null : "snapshot " + ack.snapshot() + " is batch " + batch + ", not a flush";
        }
        if (batch != ack.batch()) {
            return "snapshot " + ack.snapshot() + " holds batch " + batch;
        }
        return intent != null && intent.digest().equals(ack.digest()) ? null : "its digest " + ack.digest() + " differs from its intent's";
    }

    private String checkedHeadOrUnknown()
    {
        return String.valueOf(checkedHead);
    }

    private static Set<Long> scanIds(CatalogSnapshot snapshot)
    {
        Set<Long> ids = new HashSet<>();
        new TableReader(snapshot, ScanBuilder.forTable(snapshot, TrialTable.TABLE_ID).build(), LocalFileSystem.INSTANCE).read(row -> ids.add((Long) row[0]));
        return ids;
    }

    private static String first(Set<Long> ids)
    {
        List<Long> shown = ids.stream().limit(10).toList();
        return shown + (ids.size() > shown.size() ? " (" + ids.size() + " in all)" : "");
    }
}
