package io.moraine.trino;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.block.RowBlock;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;

import java.util.List;

/** The pages of a {@link NestedReadLayout}'s columns as the projected handles: nested fields taken out of their rows. */
final class DereferencingPageSource
        extends MappedPageSource
{
    private final List<NestedReadLayout.Output> outputs;

    DereferencingPageSource(ConnectorPageSource source, List<NestedReadLayout.Output> outputs)
    {
        super(source);
        this.outputs = List.copyOf(outputs);
    }

    @Override
    SourcePage map(SourcePage page)
    {
        Block[] blocks = new Block[outputs.size()];
        for (int i = 0; i < outputs.size(); i++) {
            NestedReadLayout.Output output = outputs.get(i);
            Block block = page.getBlock(output.column());
            for (int position : output.fieldPositions()) {
                // Field blocks are as long as the row block, NULL where the row is NULL.
                block = RowBlock.getRowFieldsFromBlock(block).get(position);
            }
            blocks[i] = block;
        }
        return SourcePage.create(new Page(page.getPositionCount(), blocks));
    }
}
