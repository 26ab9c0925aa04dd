package io.moraine.duckdb.ext;

import io.moraine.core.row.Row;
import io.moraine.core.row.TableKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** Binary search over rows served ascending by a column agrees with testing every row, for every bound a pushed filter can give. */
class LeadingKeyColumnTest
{
    private static final List<Row> STATS = List.of(stats(null), stats(1L), stats(1L), stats(2L), stats(2L), stats(2L), stats(5L), stats(Long.MAX_VALUE));

    @Test
    void theColumnEachKindIsServedAscendingBy()
    {
        assertThat(LeadingKeyColumn.of(TableKind.SNAPSHOT)).isEqualTo(0);
        assertThat(LeadingKeyColumn.of(TableKind.TABLE_COLUMN_STATS)).isEqualTo(0);
        assertThat(LeadingKeyColumn.of(TableKind.DATA_FILE)).isEqualTo(TableKind.DATA_FILE.columnIndex("data_file_id"));
        assertThat(LeadingKeyColumn.of(TableKind.COLUMN)).isEqualTo(TableKind.COLUMN.columnIndex("begin_snapshot"));
        assertThat(LeadingKeyColumn.of(TableKind.METADATA)).isEqualTo(-1); // the store facts first
        assertThat(LeadingKeyColumn.of(TableKind.FILES_SCHEDULED_FOR_DELETION)).isEqualTo(0);
    }

    @Test
    void candidatesAreExactlyThePositionsWhoseRowsMeetTheFilter()
    {
        long[] constants = {Long.MIN_VALUE, -1, 0, 1, 2, 3, 5, 6, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        int checked = 0;
        for (int comparison = 0; comparison <= 4; comparison++) {
            for (long constant : constants) {
                ScanFilter filter = ScanFilter.decode(new long[] {0, comparison, constant});
                assertThat(served(filter)).as("comparison %d with %d", comparison, constant).isEqualTo(meeting(filter));
                // with a second comparison on the same column: the bounds intersect
                ScanFilter between = ScanFilter.decode(new long[] {0, comparison, constant, 0, 2, 2});
                assertThat(served(between)).as("comparison %d with %d, and <= 2", comparison, constant).isEqualTo(meeting(between));
                checked += 2;
            }
        }
        assertThat(checked).isEqualTo(100);
    }

    @Test
    void rangeIsTheFirstAndLastValue()
    {
        assertThat(LeadingKeyColumn.range(STATS, 0)).containsExactly(1, Long.MAX_VALUE, 1);
        assertThat(LeadingKeyColumn.range(STATS.subList(1, 4), 0)).containsExactly(1, 2, 0);
        assertThat(LeadingKeyColumn.range(STATS.subList(0, 1), 0)).isNull();
        assertThat(LeadingKeyColumn.range(List.of(), 0)).isNull();
    }

    /** The positions a scan visits with the candidates, keeping the rows that meet {@code filter}. */
    private static List<Integer> served(ScanFilter filter)
    {
        IntUnaryOperator candidates = LeadingKeyColumn.candidates(STATS, 0, filter.bounds(0));
        List<Integer> positions = new ArrayList<>();
        for (int position = candidates.applyAsInt(0); position < STATS.size(); position = candidates.applyAsInt(position + 1)) {
            if (filter.test(STATS.get(position)::get)) {
                positions.add(position);
            }
        }
        return positions;
    }

    private static List<Integer> meeting(ScanFilter filter)
    {
        List<Integer> positions = new ArrayList<>();
        for (int position = 0; position < STATS.size(); position++) {
            if (filter.test(STATS.get(position)::get)) {
                positions.add(position);
            }
        }
        return positions;
    }

    private static Row stats(Long tableId)
    {
        return Row.of(TableKind.TABLE_STATS, tableId, 10L, 11L, 12L);
    }
}
