package io.moraine.spark;

/**
 * The former name of {@link MoraineSparkCatalog}, kept so that existing {@code
 * spark.sql.catalog.<name>=io.moraine.spark.MoraineCatalog} settings keep working. It is the same catalog; use
 * {@code io.moraine.spark.MoraineSparkCatalog}, which does not share its simple name with the core's
 * {@link io.moraine.core.catalog.MoraineCatalog}.
 *
 * @deprecated use {@link MoraineSparkCatalog}
 */
@Deprecated
public class MoraineCatalog
        extends MoraineSparkCatalog
{
}
