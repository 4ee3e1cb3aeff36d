-- +goose Up

-- The domain of Tripplan: places, collections, plans with their days, time blocks and
-- candidates, opinions, budget and expenses, share links, notifications, URL extraction jobs.
-- Conventions: ids are 21-character random public ids made by the application
-- (planner.NewID); optional strings are NOT NULL DEFAULT '' unless NULL means something;
-- every business rule the database enforces is a named constraint, and docs/SCHEMA.md maps
-- each name to the API error code it stands for.

-- pg_trgm: fuzzy place search. unaccent: accent folding in that search. btree_gist: lets the
-- time-block exclusion constraint compare plan_day_id with = inside a GiST index. All three
-- are trusted contrib extensions of Debian's postgresql-15.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS btree_gist;

-- search_normalize folds case and accents: 'Café' → 'cafe'. unaccent() is only STABLE (its
-- dictionary could change), so this IMMUTABLE wrapper names the dictionary explicitly; the
-- SQL-standard body binds unaccent and its dictionary when the function is created, so the
-- function does not depend on search_path. Queries normalise their input with it too.
-- +goose StatementBegin
CREATE FUNCTION search_normalize(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN lower(unaccent('unaccent'::regdictionary, value));
-- +goose StatementEnd

-- place_search_text is the text place search matches against: name, other names, address.
-- +goose StatementBegin
CREATE FUNCTION place_search_text(name text, names text[], address text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN search_normalize(concat_ws(' ', name, array_to_string(names, ' '), address));
-- +goose StatementEnd

-- timerange is a range of times of day; time blocks use half-open ranges [start, end), so
-- 10:00–12:00 and 12:00–14:00 do not overlap. The diff function helps GiST pick splits.
-- +goose StatementBegin
CREATE FUNCTION time_subtype_diff(x time, y time) RETURNS float8
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN EXTRACT(EPOCH FROM (x - y))::float8;
-- +goose StatementEnd
CREATE TYPE timerange AS RANGE (subtype = time, subtype_diff = time_subtype_diff);

-- A place: a point of interest from a provider's catalogue (BUILTIN, GOOGLE, OSM, ...) or one
-- a member typed in (provider MANUAL, no provider_place_id). Places are shared by every
-- collection and plan, upserted by (provider, provider_place_id), and never deleted while
-- something refers to them. The category columns hold taxonomy ids (internal/places);
-- primary_type is the provider's own type, with its display name.
CREATE TABLE places (
    id                text PRIMARY KEY,
    provider          text NOT NULL,
    provider_place_id text,
    name              text NOT NULL,
    names             text[] NOT NULL DEFAULT '{}', -- other names: local script, other languages
    address           text NOT NULL DEFAULT '',
    city              text NOT NULL DEFAULT '',
    category_level1   text NOT NULL DEFAULT '',
    category_level2   text NOT NULL DEFAULT '',
    category_level3   text NOT NULL DEFAULT '',
    primary_type      text NOT NULL DEFAULT '',
    primary_type_name text NOT NULL DEFAULT '',
    provider_maps_uri text NOT NULL DEFAULT '',
    photos            text[] NOT NULL DEFAULT '{}',
    latitude          numeric(9, 6),
    longitude         numeric(9, 6),
    search_text       text GENERATED ALWAYS AS (place_search_text(name, names, address)) STORED,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT places_provider_place UNIQUE (provider, provider_place_id),
    CONSTRAINT places_provider_format CHECK (provider ~ '^[A-Z][A-Z0-9_]*$'),
    CONSTRAINT places_manual_has_no_provider_id CHECK ((provider = 'MANUAL') = (provider_place_id IS NULL)),
    CONSTRAINT places_name_present CHECK (name <> ''),
    CONSTRAINT places_point CHECK ((latitude IS NULL) = (longitude IS NULL)
        AND latitude BETWEEN -90 AND 90 AND longitude BETWEEN -180 AND 180)
);
-- Place search: search_text ILIKE '%' || search_normalize($1) || '%' (or the % similarity
-- operator) uses this index for queries of three or more characters.
CREATE INDEX places_search_trgm ON places USING gin (search_text gin_trgm_ops);

-- The web page, video or post that places were extracted from (social_media of a collection
-- place and of a block). One row per normalised URL, reused by later extractions.
CREATE TABLE social_media (
    id          text PRIMARY KEY,
    media_type  text NOT NULL,
    url         text NOT NULL,
    author_name text NOT NULL DEFAULT '',
    title       text NOT NULL DEFAULT '',
    summary     text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT social_media_url UNIQUE (url),
    CONSTRAINT social_media_type_format CHECK (media_type ~ '^[A-Z][A-Z0-9_]*$')
);

-- A collection: a shared list of places that its members gather. Thumbnail, member and place
-- counts are derived from the tables below.
CREATE TABLE collections (
    id         text PRIMARY KEY,
    title      text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT collections_title_length CHECK (char_length(title) BETWEEN 1 AND 20)
);

-- A user's membership of a collection. One row per user and collection, ever: leaving sets
-- left_at, rejoining clears it, so the member id (and what the member authored) survives.
-- nickname and picture are copied from the user and refreshed when the user changes them.
-- Exactly one OWNER: at most one by the partial unique index, at least one by the
-- application (created with the collection, ownership handed over before leaving).
-- Member rows are deleted only with their collection. What a member authored refers to the
-- member through a NO ACTION foreign key checked at commit (DEFERRABLE INITIALLY DEFERRED):
-- deleting a member who authored something fails, while deleting the whole collection
-- succeeds whatever order its cascades run in. Same for plan_members.
CREATE TABLE collection_members (
    id            text PRIMARY KEY,
    collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    user_id       text NOT NULL REFERENCES users (id) ON DELETE RESTRICT, -- users are withdrawn, not deleted
    role          text NOT NULL DEFAULT 'MEMBER',
    nickname      text NOT NULL,
    picture       text NOT NULL DEFAULT '',
    joined_at     timestamptz NOT NULL DEFAULT now(),
    left_at       timestamptz,
    CONSTRAINT collection_members_one_per_user UNIQUE (collection_id, user_id),
    CONSTRAINT collection_members_id_collection UNIQUE (id, collection_id), -- target of same-collection FKs
    CONSTRAINT collection_members_role CHECK (role IN ('OWNER', 'MEMBER')),
    CONSTRAINT collection_members_owner_active CHECK (role = 'MEMBER' OR left_at IS NULL)
);
CREATE UNIQUE INDEX collection_members_one_owner ON collection_members (collection_id) WHERE role = 'OWNER';
-- A user's collections by join time; also the user-wide nickname/picture refresh.
CREATE INDEX collection_members_user_joined ON collection_members (user_id, joined_at DESC);

-- A place in a collection, with the member who added it, an optional memo and the social
-- media post it came from. Deleting it leaves blocks made from it in place (candidates keep
-- their place_id).
CREATE TABLE collection_places (
    id              text PRIMARY KEY,
    collection_id   text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    place_id        text NOT NULL REFERENCES places (id) ON DELETE RESTRICT,
    added_by        text NOT NULL,
    social_media_id text REFERENCES social_media (id) ON DELETE SET NULL,
    memo            text NOT NULL DEFAULT '',
    -- clock_timestamp(), not now(): rows inserted by one transaction (several places added
    -- from one extraction, several candidates at once) keep their insertion order, which is
    -- the order the API lists them in.
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT collection_places_one_per_place UNIQUE (collection_id, place_id),
    CONSTRAINT collection_places_added_by FOREIGN KEY (added_by, collection_id)
        REFERENCES collection_members (id, collection_id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT collection_places_memo_length CHECK (char_length(memo) <= 300)
);
-- List sorts (CREATED_AT_*/LATEST/OLDEST, UPDATED_AT_*), the added_by filter; id breaks ties.
CREATE INDEX collection_places_created ON collection_places (collection_id, created_at, id);
CREATE INDEX collection_places_updated ON collection_places (collection_id, updated_at, id);
CREATE INDEX collection_places_added_by ON collection_places (added_by, created_at, id);

-- A member's PICK or PASS on a collection place: at most one per member and place (choosing
-- the same type again deletes the row, the other type updates it).
CREATE TABLE collection_place_preferences (
    collection_place_id text NOT NULL REFERENCES collection_places (id) ON DELETE CASCADE,
    member_id           text NOT NULL REFERENCES collection_members (id) ON DELETE CASCADE,
    type                text NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT collection_place_preferences_pkey PRIMARY KEY (collection_place_id, member_id),
    CONSTRAINT collection_place_preferences_type CHECK (type IN ('PICK', 'PASS'))
);

-- A trip plan: a title and 1–30 consecutive days. Money amounts of the plan are integers in
-- its currency; time_zone is the IANA zone of the trip (times of day are local to it).
CREATE TABLE plans (
    id         text PRIMARY KEY,
    title      text NOT NULL,
    start_date date NOT NULL,
    end_date   date NOT NULL,
    currency   text NOT NULL DEFAULT 'KRW',
    time_zone  text NOT NULL DEFAULT 'UTC',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT plans_title_length CHECK (char_length(title) BETWEEN 1 AND 20),
    CONSTRAINT plans_date_range CHECK (end_date >= start_date AND end_date - start_date < 30),
    CONSTRAINT plans_currency CHECK (currency ~ '^[A-Z]{3}$'),
    CONSTRAINT plans_time_zone_present CHECK (time_zone <> '')
);

-- A user's membership of a plan; the same rules as collection_members.
CREATE TABLE plan_members (
    id        text PRIMARY KEY,
    plan_id   text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    user_id   text NOT NULL REFERENCES users (id) ON DELETE RESTRICT, -- users are withdrawn, not deleted
    role      text NOT NULL DEFAULT 'MEMBER',
    nickname  text NOT NULL,
    picture   text NOT NULL DEFAULT '',
    joined_at timestamptz NOT NULL DEFAULT now(),
    left_at   timestamptz,
    CONSTRAINT plan_members_one_per_user UNIQUE (plan_id, user_id),
    CONSTRAINT plan_members_id_plan UNIQUE (id, plan_id), -- target of same-plan FKs
    CONSTRAINT plan_members_role CHECK (role IN ('OWNER', 'MEMBER')),
    CONSTRAINT plan_members_owner_active CHECK (role = 'MEMBER' OR left_at IS NULL)
);
CREATE UNIQUE INDEX plan_members_one_owner ON plan_members (plan_id) WHERE role = 'OWNER';
-- A user's plans, newest membership first; also the user-wide nickname/picture refresh.
CREATE INDEX plan_members_user_joined ON plan_members (user_id, joined_at DESC);

-- Day N (1-based) of a plan and its date (start_date + N - 1). Days are created with the plan
-- and added or removed when its dates change; deleting a day deletes its blocks.
CREATE TABLE plan_days (
    id      text PRIMARY KEY,
    plan_id text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    day     integer NOT NULL,
    date    date NOT NULL,
    CONSTRAINT plan_days_one_per_day UNIQUE (plan_id, day),
    CONSTRAINT plan_days_id_plan UNIQUE (id, plan_id), -- target of same-plan FKs
    CONSTRAINT plan_days_day_range CHECK (day BETWEEN 1 AND 30)
);

-- A collection linked to a plan: its places can become blocks. Unlinking (or deleting the
-- collection) keeps the blocks already made from it.
CREATE TABLE plan_collections (
    plan_id       text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    added_by      text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT plan_collections_pkey PRIMARY KEY (plan_id, collection_id),
    CONSTRAINT plan_collections_added_by FOREIGN KEY (added_by, plan_id)
        REFERENCES plan_members (id, plan_id) DEFERRABLE INITIALLY DEFERRED
);
-- GET /collections/{c}/plans, and unlinking when a collection is deleted.
CREATE INDEX plan_collections_collection ON plan_collections (collection_id);

-- A time block: a half-open interval [start_time, end_time) of one plan day, of type PLACE
-- (holds place candidates) or FREE (holds one place-less candidate). No two blocks of a day
-- overlap (time_blocks_no_overlap). block_status is derived from its candidates, never stored.
CREATE TABLE time_blocks (
    id          text PRIMARY KEY,
    plan_id     text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    plan_day_id text NOT NULL,
    type        text NOT NULL,
    start_time  time NOT NULL,
    end_time    time NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT time_blocks_day FOREIGN KEY (plan_day_id, plan_id)
        REFERENCES plan_days (id, plan_id) ON DELETE CASCADE,
    CONSTRAINT time_blocks_id_day UNIQUE (id, plan_day_id), -- target of expenses_after_time_block
    CONSTRAINT time_blocks_type CHECK (type IN ('PLACE', 'FREE')),
    CONSTRAINT time_blocks_time_order CHECK (start_time < end_time),
    CONSTRAINT time_blocks_no_overlap EXCLUDE USING gist (
        plan_day_id WITH =,
        timerange(start_time, end_time) WITH && -- default bounds: [start, end)
    )
);
-- GET /plans/{p}/blocks?day=N ordered by start_time, end_time.
CREATE INDEX time_blocks_day_start ON time_blocks (plan_day_id, start_time, end_time);
CREATE INDEX time_blocks_plan ON time_blocks (plan_id);

-- A candidate ("block" in the API: block_id) of a time block: a place proposed by a member,
-- or, in a FREE block, a place-less entry that carries the memo. At most one candidate of a
-- time block is selected (the confirmed one). A candidate remembers the collection place it
-- came from while that exists; place_id stays when the collection place or collection goes.
-- A manually entered place is a places row with provider MANUAL.
CREATE TABLE candidates (
    id                  text PRIMARY KEY,
    time_block_id       text NOT NULL REFERENCES time_blocks (id) ON DELETE CASCADE,
    place_id            text REFERENCES places (id) ON DELETE RESTRICT,
    collection_place_id text REFERENCES collection_places (id) ON DELETE SET NULL,
    added_by            text NOT NULL,
    memo                text NOT NULL DEFAULT '',
    selected            boolean NOT NULL DEFAULT false,
    created_at          timestamptz NOT NULL DEFAULT clock_timestamp(), -- see collection_places
    updated_at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT candidates_added_by FOREIGN KEY (added_by)
        REFERENCES plan_members (id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT candidates_one_per_place UNIQUE (time_block_id, place_id),
    CONSTRAINT candidates_memo_length CHECK (char_length(memo) <= 300),
    CONSTRAINT candidates_free_not_selected CHECK (place_id IS NOT NULL OR NOT selected),
    CONSTRAINT candidates_collection_place_has_place CHECK (collection_place_id IS NULL OR place_id IS NOT NULL)
);
-- Not deferrable: to change the selection, clear the old one before setting the new one.
CREATE UNIQUE INDEX candidates_one_selected ON candidates (time_block_id) WHERE selected;
-- Candidates of a time block in creation order.
CREATE INDEX candidates_time_block ON candidates (time_block_id, created_at, id);
-- Unlinking candidates when a collection place is deleted.
CREATE INDEX candidates_collection_place ON candidates (collection_place_id) WHERE collection_place_id IS NOT NULL;

-- A plan member's opinion on a place candidate: one per member and candidate.
CREATE TABLE opinions (
    id           text PRIMARY KEY,
    candidate_id text NOT NULL REFERENCES candidates (id) ON DELETE CASCADE,
    member_id    text NOT NULL,
    type         text NOT NULL,
    comment      text NOT NULL DEFAULT '',
    tag_ids      text[] NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp(), -- see collection_places
    updated_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT opinions_member FOREIGN KEY (member_id)
        REFERENCES plan_members (id) DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT opinions_one_per_member UNIQUE (candidate_id, member_id),
    CONSTRAINT opinions_type CHECK (type IN ('POSITIVE', 'NEUTRAL', 'NEGATIVE')),
    CONSTRAINT opinions_comment_length CHECK (char_length(comment) <= 300)
);

-- The budget of a plan (exactly one, created with the plan). mode is the API's Budget.type:
-- INITIAL until a total budget is set. NULL total_budget/traveler_count mean "not set"
-- (traveler_count then defaults to the member count).
CREATE TABLE budgets (
    id             text PRIMARY KEY,
    plan_id        text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    mode           text NOT NULL DEFAULT 'INITIAL',
    total_budget   bigint,
    traveler_count integer,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT budgets_one_per_plan UNIQUE (plan_id),
    CONSTRAINT budgets_mode CHECK (mode IN ('INITIAL', 'BUDGET', 'EXPENSE')),
    CONSTRAINT budgets_total_budget CHECK (total_budget >= 0),
    CONSTRAINT budgets_traveler_count CHECK (traveler_count >= 1)
);

-- An expense of a plan. BLOCK: the costs of one place candidate (one row per candidate,
-- kept with no items when its items are deleted). ADDITIONAL: costs placed on a day, after
-- a time block (after_time_block_id) or at the start of the day (NULL), ordered by rank.
-- rank is numeric so a new expense fits between two: (a + b) * 0.5 is exact in numeric.
-- An additional expense follows its time block to another day (ON UPDATE CASCADE) and moves
-- to the start of the day when the block is deleted.
CREATE TABLE expenses (
    id                  text PRIMARY KEY,
    plan_id             text NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
    kind                text NOT NULL,
    candidate_id        text REFERENCES candidates (id) ON DELETE CASCADE,
    plan_day_id         text,
    after_time_block_id text,
    rank                numeric,
    paid_by             text REFERENCES plan_members (id) ON DELETE SET NULL,
    split_among         text[], -- plan_member ids; NULL = everyone
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT expenses_one_per_candidate UNIQUE (candidate_id),
    CONSTRAINT expenses_day FOREIGN KEY (plan_day_id, plan_id)
        REFERENCES plan_days (id, plan_id) ON DELETE CASCADE,
    CONSTRAINT expenses_after_time_block FOREIGN KEY (after_time_block_id, plan_day_id)
        REFERENCES time_blocks (id, plan_day_id) ON UPDATE CASCADE ON DELETE SET NULL (after_time_block_id),
    CONSTRAINT expenses_kind CHECK (kind IN ('BLOCK', 'ADDITIONAL')),
    CONSTRAINT expenses_kind_shape CHECK (
        (kind = 'BLOCK' AND candidate_id IS NOT NULL AND plan_day_id IS NULL
            AND after_time_block_id IS NULL AND rank IS NULL)
        OR (kind = 'ADDITIONAL' AND candidate_id IS NULL AND plan_day_id IS NOT NULL AND rank IS NOT NULL)
    )
);
-- GET /plans/{p}/expenses?day=N: a day's additional expenses grouped by the block they follow.
CREATE INDEX expenses_additional_order ON expenses (plan_day_id, after_time_block_id, rank) WHERE kind = 'ADDITIONAL';
CREATE INDEX expenses_after_time_block ON expenses (after_time_block_id) WHERE after_time_block_id IS NOT NULL;
-- Budget totals over a whole plan.
CREATE INDEX expenses_plan ON expenses (plan_id);

-- A line of an expense: a name and an integer cost in the plan's currency, in order.
CREATE TABLE expense_items (
    id         text PRIMARY KEY,
    expense_id text NOT NULL REFERENCES expenses (id) ON DELETE CASCADE,
    name       text NOT NULL,
    cost       bigint NOT NULL,
    position   integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT expense_items_name_length CHECK (char_length(name) BETWEEN 1 AND 100),
    CONSTRAINT expense_items_cost CHECK (cost >= 0),
    CONSTRAINT expense_items_position CHECK (position >= 0)
);
CREATE INDEX expense_items_expense ON expense_items (expense_id, position);

-- An invite link to a collection or a plan (GET /invite/{code}, /s/{code}). Exactly one of
-- collection_id / plan_id is set, matching type; the link goes with its target.
CREATE TABLE share_links (
    id            text PRIMARY KEY,
    code          text NOT NULL,
    type          text NOT NULL,
    collection_id text REFERENCES collections (id) ON DELETE CASCADE,
    plan_id       text REFERENCES plans (id) ON DELETE CASCADE,
    created_by    text REFERENCES users (id) ON DELETE SET NULL,
    expires_at    timestamptz NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT share_links_code UNIQUE (code),
    CONSTRAINT share_links_code_present CHECK (code <> ''),
    CONSTRAINT share_links_type CHECK (type IN ('COLLECTION', 'PLAN')),
    CONSTRAINT share_links_target CHECK (
        (type = 'COLLECTION' AND collection_id IS NOT NULL AND plan_id IS NULL)
        OR (type = 'PLAN' AND plan_id IS NOT NULL AND collection_id IS NULL)
    )
);
CREATE INDEX share_links_collection ON share_links (collection_id, expires_at DESC) WHERE collection_id IS NOT NULL;
CREATE INDEX share_links_plan ON share_links (plan_id, expires_at DESC) WHERE plan_id IS NOT NULL;

-- A notification for one user (the recipient), newest first, read or unread.
CREATE TABLE notifications (
    id         text PRIMARY KEY,
    user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    category   text NOT NULL,
    event_type text NOT NULL,
    message    text NOT NULL,
    link_url   text NOT NULL DEFAULT '',
    read_at    timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT notifications_category CHECK (category IN ('PLAN', 'COLLECTION', 'SYSTEM')),
    CONSTRAINT notifications_event_type_present CHECK (event_type <> '')
);
-- GET /notifications (newest first, id breaks ties).
CREATE INDEX notifications_user_created ON notifications (user_id, created_at DESC, id DESC);
-- X-Unread-Count and "mark all read".
CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL;

-- A member's request to extract places from a URL into a collection, run by the job queue.
-- status is the progress of the work; decision_status is what the member did with the
-- result. A member has at most one UNDECIDED job per collection.
CREATE TABLE extraction_jobs (
    id              text PRIMARY KEY,
    collection_id   text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    requested_by    text NOT NULL,
    url             text NOT NULL,
    normalized_url  text NOT NULL,
    status          text NOT NULL DEFAULT 'PENDING',
    failure_code    text,
    failure_message text,
    decision_status text NOT NULL DEFAULT 'UNDECIDED',
    decided_at      timestamptz,
    result          jsonb,
    requested_at    timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT extraction_jobs_requested_by FOREIGN KEY (requested_by, collection_id)
        REFERENCES collection_members (id, collection_id) ON DELETE CASCADE,
    CONSTRAINT extraction_jobs_url_length CHECK (char_length(url) BETWEEN 1 AND 2048),
    CONSTRAINT extraction_jobs_status CHECK (
        status IN ('PENDING', 'EXTRACTING', 'SEARCHING', 'COMPLETED', 'FAILED', 'RETRY_WAITING')),
    CONSTRAINT extraction_jobs_failure_code CHECK (failure_code IN (
        'CONTENT_NOT_FOUND', 'NO_PLACE_EXTRACTED', 'CONTENT_TOO_LARGE', 'FETCH_FAILED', 'UNEXPECTED_ERROR')),
    CONSTRAINT extraction_jobs_failed_has_code CHECK ((status = 'FAILED') = (failure_code IS NOT NULL)),
    CONSTRAINT extraction_jobs_result_when_completed CHECK (result IS NULL OR status = 'COMPLETED'),
    CONSTRAINT extraction_jobs_decision CHECK (decision_status IN ('UNDECIDED', 'SELECTED', 'IGNORED')),
    CONSTRAINT extraction_jobs_decided_at CHECK ((decision_status = 'UNDECIDED') = (decided_at IS NULL))
);
-- JOB_IN_PROGRESS, and GET .../extraction-jobs/latest (the caller's undecided job).
CREATE UNIQUE INDEX extraction_jobs_one_undecided ON extraction_jobs (collection_id, requested_by)
    WHERE decision_status = 'UNDECIDED';
CREATE INDEX extraction_jobs_requester ON extraction_jobs (requested_by, requested_at DESC);

-- Named data sets seeded once per database (SeedDemo writes 'demo').
CREATE TABLE seed_runs (
    name      text PRIMARY KEY,
    seeded_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE seed_runs;
DROP TABLE extraction_jobs;
DROP TABLE notifications;
DROP TABLE share_links;
DROP TABLE expense_items;
DROP TABLE expenses;
DROP TABLE budgets;
DROP TABLE opinions;
DROP TABLE candidates;
DROP TABLE time_blocks;
DROP TABLE plan_collections;
DROP TABLE plan_days;
DROP TABLE plan_members;
DROP TABLE plans;
DROP TABLE collection_place_preferences;
DROP TABLE collection_places;
DROP TABLE collection_members;
DROP TABLE collections;
DROP TABLE social_media;
DROP TABLE places;
DROP TYPE timerange;
DROP FUNCTION time_subtype_diff(time, time);
DROP FUNCTION place_search_text(text, text[], text);
DROP FUNCTION search_normalize(text);
DROP EXTENSION IF EXISTS btree_gist;
DROP EXTENSION IF EXISTS unaccent;
DROP EXTENSION IF EXISTS pg_trgm;
