-- Thumbnails (issue 22 item 6): the lists of plans and collections pick the first place with a
-- photo (`cardinality(photos) > 0`) of each plan's blocks day by day, else of its linked
-- collections, and of each collection. Each place looked at was found by places_pkey and its
-- row read for `photos`; a place without a photo is now ruled out by one probe of this partial
-- index, which holds only the places that have a photo.
-- +goose Up
CREATE INDEX places_with_photo ON places (id) WHERE cardinality(photos) > 0;

-- +goose Down
DROP INDEX places_with_photo;
