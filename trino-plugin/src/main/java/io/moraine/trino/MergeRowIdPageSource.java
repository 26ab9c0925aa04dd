package io.moraine.trino;

import io.trino.spi.Page;
import io.trino.spi.block.Block;
import io.trino.spi.connector.ConnectorPageSource;
import io.trino.spi.connector.SourcePage;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The pages of a scan that projects the {@link MergeRowId}: the source reads the other columns followed by the row id's
 * hidden columns ({@code $file_row_number}, {@code $row_id}); this puts them together with the split's data file id.
 */
final class MergeRowIdPageSource
        extends MappedPageSource
{
    private final int[] outputs;
    private final int firstField;
    private final OptionalLong fileId;

    /**
     * @param outputs for each projected column its channel in the source's pages, -1 for the merge row id
     * @param firstField the source channel of the position (the row id follows it)
     * @param fileId the split's data file, empty for inlined rows
     */
    MergeRowIdPageSource(ConnectorPageSource source, int[] outputs, int firstField, OptionalLong fileId)
    {
        super(source);
        this.fileId = fileId;
        this.outputs = outputs.clone();
        this.firstField = firstField;
    }

    /** The columns the source reads for {@code projected}: each but the merge row id, then the row id's hidden columns. */
    static List<MoraineColumnHandle> sourceColumns(List<MoraineColumnHandle> projected)
    {
        List<MoraineColumnHandle> columns = new ArrayList<>(projected.stream().filter(column -> !MergeRowId.is(column)).toList());
        MergeRowId.FIELDS.forEach(field -> columns.add(MoraineColumnHandle.hidden(field)));
        return columns;
    }

    static MergeRowIdPageSource wrap(ConnectorPageSource source, List<MoraineColumnHandle> projected, OptionalLong fileId)
    {
        int[] outputs = new int[projected.size()];
        int next = 0;
        for (int i = 0; i < projected.size(); i++) {
            outputs[i] = MergeRowId.is(projected.get(i)) ? -1 : next++;
        }
        return new MergeRowIdPageSource(source, outputs, next, fileId);
    }

    @Override
    SourcePage map(SourcePage page)
    {
        Block[] blocks = new Block[outputs.length];
        for (int i = 0; i < outputs.length; i++) {
            blocks[i] = outputs[i] >= 0
                    ? page.getBlock(outputs[i])
                    : MergeRowId.of(page.getPositionCount(), fileId, page.getBlock(firstField), page.getBlock(firstField + 1));
        }
        return SourcePage.create(new Page(page.getPositionCount(), blocks));
    }
}
