/**
 * moraine's core: the DuckLake catalog on SlateDB. Its packages are layered; a package may use the packages of its own
 * and of lower layers only, never a higher one, so no two packages depend on each other
 * ({@code PackageCyclesTest} fails on any cycle; a nested package such as {@code inline.read} is a package of its own):
 * <ol>
 *   <li>{@code error}: the typed errors.</li>
 *   <li>{@code row}: the row model of the {@code ducklake_*} tables ({@code Row}, {@code TableKind}, {@code Column},
 *       {@code ColumnType}, {@code ColumnNode}, {@code Lifecycle}, {@code InsertionOrder}, {@code SnapshotChanges});
 *       {@code inline}: inlined data's encodings (Arrow, variants, row-id sets, chunk ids); {@code io}: the lake's
 *       files.</li>
 *   <li>{@code types}: the DuckLake type model and table schemas (over {@code row}).</li>
 *   <li>{@code keyspace}: how rows and records map to store keys and values (every subspace's keys, including
 *       {@code InlineKeys}).</li>
 *   <li>{@code store}: SlateDB and what is read straight from it ({@code StoreFacts}, {@code RowStamps},
 *       {@code CommittedRowsCache}).</li>
 *   <li>{@code tx}: staged transactions and the committer.</li>
 *   <li>{@code catalog}: {@code MoraineCatalog} and its snapshots, over {@code tx}.</li>
 *   <li>{@code scan}, {@code tiny}, {@code verify}; then {@code changes}, {@code stats} and {@code metadata} (over
 *       {@code scan}), and {@code inline.read}, inlined data read as Arrow (rows at a snapshot, insertion and deletion
 *       windows, flush selections; over {@code scan} and {@code changes}): what engines and commands use.</li>
 * </ol>
 */
package io.moraine.core;
