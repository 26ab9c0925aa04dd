package io.moraine.trino;

import io.airlift.json.JsonCodec;
import io.moraine.core.catalog.CatalogModel;
import io.moraine.core.catalog.LakeSchema;
import io.moraine.core.catalog.LakeView;
import io.moraine.core.write.WriteTransaction;
import io.trino.spi.connector.ConnectorViewDefinition;
import io.trino.spi.connector.SchemaTableName;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Trino's views as DuckLake views: a {@code ducklake_view} row in dialect {@code trino} whose SQL is the view's
 * original text, and a tag holding the rest of Trino's definition (column names and types, catalog and schema for
 * unqualified names, owner, security) that Trino needs and DuckLake's row has no column for. Views of other dialects
 * (DuckDB's) are not Trino's to run, as DuckLake shows another engine's views to its own engine only.
 */
final class TrinoViews
{
    static final String DIALECT = "trino";
    /** The tag with Trino's view definition as JSON. */
    static final String DEFINITION_TAG = "trino_view_definition";

    private static final JsonCodec<ConnectorViewDefinition> CODEC = JsonCodec.jsonCodec(ConnectorViewDefinition.class);

    private TrinoViews() {}

    static void create(WriteTransaction transaction, SchemaTableName name, ConnectorViewDefinition definition)
    {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put(DEFINITION_TAG, CODEC.toJson(definition));
        definition.getComment().ifPresent(comment -> tags.put("comment", comment));
        transaction.createView(name.getSchemaName(), name.getTableName(), DIALECT, definition.getOriginalSql(), tags);
    }

    static List<SchemaTableName> list(CatalogModel model, Optional<String> schemaName)
    {
        List<LakeSchema> schemas = schemaName.map(name -> model.schema(name).stream().toList()).orElseGet(model::schemas);
        return schemas.stream()
                .flatMap(schema -> model.views(schema).stream())
                .filter(view -> definition(model, view).isPresent())
                .map(view -> new SchemaTableName(view.schema().name(), view.name()))
                .toList();
    }

    static Optional<ConnectorViewDefinition> get(CatalogModel model, SchemaTableName name)
    {
        return model.view(name.getSchemaName(), name.getTableName()).flatMap(view -> definition(model, view));
    }

    /** Whether a view of this name exists in any dialect (then a Trino view of the name cannot be created). */
    static boolean exists(CatalogModel model, SchemaTableName name)
    {
        return model.view(name.getSchemaName(), name.getTableName()).isPresent();
    }

    private static Optional<ConnectorViewDefinition> definition(CatalogModel model, LakeView view)
    {
        if (!DIALECT.equals(view.dialect())) {
            return Optional.empty();
        }
        return Optional.ofNullable(model.tags(view.id()).get(DEFINITION_TAG)).map(CODEC::fromJson);
    }
}
