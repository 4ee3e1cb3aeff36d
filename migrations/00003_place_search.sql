-- Place search matches names in every language, address words (English and local) and the
-- city; name_text (names only) lets ranking put name matches above address matches.

-- +goose Up
ALTER TABLE places ADD COLUMN local_address text NOT NULL DEFAULT '';

DROP INDEX places_search_trgm;
ALTER TABLE places DROP COLUMN search_text;
DROP FUNCTION place_search_text(text, text[], text);

-- +goose StatementBegin
CREATE FUNCTION place_search_text(name text, names text[], address text, local_address text, city text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN search_normalize(concat_ws(' ', name, array_to_string(names, ' '), address, local_address, city));
-- +goose StatementEnd

-- place_name_text is the names alone. (array_to_string is only STABLE in general; for text[]
-- it is immutable, which the wrapper asserts, as place_search_text does.)
-- +goose StatementBegin
CREATE FUNCTION place_name_text(name text, names text[]) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN search_normalize(concat_ws(' ', name, array_to_string(names, ' ')));
-- +goose StatementEnd

ALTER TABLE places
    ADD COLUMN name_text text GENERATED ALWAYS AS (place_name_text(name, names)) STORED,
    ADD COLUMN search_text text GENERATED ALWAYS AS (place_search_text(name, names, address, local_address, city)) STORED;

CREATE INDEX places_search_trgm ON places USING gin (search_text gin_trgm_ops);

-- The built-in catalog is loaded from the binary at start-up; this remembers which version
-- is loaded so an unchanged catalog costs one query.
CREATE TABLE catalog_versions (
    name      text PRIMARY KEY,
    version   text NOT NULL,
    loaded_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE catalog_versions;
DROP INDEX places_search_trgm;
ALTER TABLE places DROP COLUMN search_text, DROP COLUMN name_text;
DROP FUNCTION place_search_text(text, text[], text, text, text);
DROP FUNCTION place_name_text(text, text[]);
-- +goose StatementBegin
CREATE FUNCTION place_search_text(name text, names text[], address text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN search_normalize(concat_ws(' ', name, array_to_string(names, ' '), address));
-- +goose StatementEnd
ALTER TABLE places ADD COLUMN search_text text GENERATED ALWAYS AS (place_search_text(name, names, address)) STORED;
CREATE INDEX places_search_trgm ON places USING gin (search_text gin_trgm_ops);
ALTER TABLE places DROP COLUMN local_address;
