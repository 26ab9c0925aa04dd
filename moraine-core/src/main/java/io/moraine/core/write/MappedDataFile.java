package io.moraine.core.write;

import io.moraine.core.write.files.WrittenDataFile;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** A data file without field ids and the name mapping it is read through (see {@link WriteTransaction#addMappedDataFiles}). */
public record MappedDataFile(WrittenDataFile file, List<NameMapEntry> nameMap)
{
    public MappedDataFile
    {
        requireNonNull(file, "file is null");
        nameMap = List.copyOf(nameMap);
    }
}
