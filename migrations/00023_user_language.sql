-- Languages (docs/API.md §Languages, issue 19): a user's chosen language for pages, problems and
-- notifications; NULL follows the browser (Accept-Language).

-- +goose Up
ALTER TABLE users ADD COLUMN language text CHECK (language IN ('ko', 'en'));

-- +goose Down
ALTER TABLE users DROP COLUMN language;
