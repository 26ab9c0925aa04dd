package io.moraine.trino;

import io.trino.spi.connector.ConnectorTransactionHandle;

/** Reads need no transaction state: every query pins its snapshot in the table handle. */
public enum MoraineTransactionHandle
        implements ConnectorTransactionHandle
{
    INSTANCE
}
