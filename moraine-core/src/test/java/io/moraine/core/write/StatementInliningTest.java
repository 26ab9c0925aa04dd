package io.moraine.core.write;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatementInliningTest
{
    @Test
    void newRowsAreInlinedOnlyWhenTheWholeStatementFits()
    {
        assertThat(StatementInlining.inlinesNewRows(10, 0, 10)).isTrue();
        assertThat(StatementInlining.inlinesNewRows(4, 6, 10)).isTrue();
        assertThat(StatementInlining.inlinesNewRows(4, 7, 10)).as("held rows and file rows over the limit").isFalse();
        assertThat(StatementInlining.inlinesNewRows(11, 0, 10)).isFalse();
        assertThat(StatementInlining.inlinesNewRows(0, 0, 10)).as("nothing held").isFalse();
        assertThat(StatementInlining.inlinesNewRows(1, 0, 0)).as("inlining off").isFalse();
    }

    @Test
    void updatedRowsAreInlinedWhenTheHeldOnesFit()
    {
        assertThat(StatementInlining.inlinesUpdatedRows(10, 10)).isTrue();
        assertThat(StatementInlining.inlinesUpdatedRows(11, 10)).isFalse();
        assertThat(StatementInlining.inlinesUpdatedRows(0, 10)).isFalse();
    }
}
