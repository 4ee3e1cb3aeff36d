-- Versions for safe concurrent writes (docs/API.md §Concurrent writes): plans, time blocks, expenses,
-- budgets, collections, collection places and opinions carry a version, 1 when created and
-- incremented once by every request that changes the resource. A time block's version also
-- counts changes to its candidates (added, removed, their memos) and to its selection. A
-- conditional write (If-Match) compares it while holding the row's lock, so of two writes
-- expecting the same version exactly one succeeds. The store bumps versions in the statements
-- that make the changes (internal/postgres); existing rows start at 1.

-- +goose Up
ALTER TABLE plans ADD COLUMN version integer NOT NULL DEFAULT 1,
    ADD CONSTRAINT plans_version CHECK (version >= 1);
ALTER TABLE time_blocks ADD COLUMN version integer NOT NULL DEFAULT 1,
    ADD CONSTRAINT time_blocks_version CHECK (version >= 1);
ALTER TABLE expenses ADD COLUMN version integer NOT NULL DEFAULT 1,
    ADD CONSTRAINT expenses_version CHECK (version >= 1);
ALTER TABLE budgets ADD COLUMN version integer NOT NULL DEFAULT 1,
    ADD CONSTRAINT budgets_version CHECK (version >= 1);
ALTER TABLE collections ADD COLUMN version integer NOT NULL DEFAULT 1,
    ADD CONSTRAINT collections_version CHECK (version >= 1);
ALTER TABLE collection_places ADD COLUMN version integer NOT NULL DEFAULT 1,
    ADD CONSTRAINT collection_places_version CHECK (version >= 1);
ALTER TABLE opinions ADD COLUMN version integer NOT NULL DEFAULT 1,
    ADD CONSTRAINT opinions_version CHECK (version >= 1);

-- +goose Down
ALTER TABLE opinions DROP COLUMN version;
ALTER TABLE collection_places DROP COLUMN version;
ALTER TABLE collections DROP COLUMN version;
ALTER TABLE budgets DROP COLUMN version;
ALTER TABLE expenses DROP COLUMN version;
ALTER TABLE time_blocks DROP COLUMN version;
ALTER TABLE plans DROP COLUMN version;
