-- Notification wording out of storage (issue 19): notifications written before 00016 kept only
-- their English text (message) and no facts (details), so they could not be read in Korean.
-- Their text is read back into the facts the application now keeps for the same event type
-- (planner.Details), with the wordings the application used then (internal/postgres at
-- b02342d..aa19d5e^: {actor} is the actor's nickname, letters and digits only, or "Someone";
-- {plan} and {collection} the title as it was; merged notifications said how many events they
-- stand for, which must be their event_count). The old text says less than the facts of later
-- notifications (often not which place or block, nor when): views.NotificationMessage says
-- such notifications without what they lack.
--
-- A text that matches no wording, or that could be split in two ways (a place and a title that
-- both hold " to "), keeps its message and no details, and is read as it was written. message
-- is now only that: NULL for every notification with details (new ones no longer write it);
-- the migrated rows keep theirs, so that going back restores them as they were.

-- +goose Up
ALTER TABLE notifications ALTER COLUMN message DROP NOT NULL;
UPDATE notifications SET message = NULL WHERE details IS NOT NULL AND message = '';

-- Each wording's capture groups, in order, are the facts named in keys: actor, in (the title),
-- place, places (a block's one place; "free time" names none), day, start, member, or count
-- (checked, not kept). A text that several wordings match is read by the first (rank).
WITH wordings (rank, event_type, pattern, keys, fixed) AS (VALUES
    (1, 'BLOCK_ADDED', '^(\S+) added (\d{1,9}) blocks to (.*) \(day (\d{1,4})\)$', '{actor,count,in,day}'::text[], '{}'::jsonb),
    (2, 'BLOCK_ADDED', '^(\S+) added ((?:(?! to ).)+) to ((?:(?! to ).)*) \(day (\d{1,4})\)$', '{actor,places,in,day}', '{}'),
    (1, 'BLOCK_REMOVED', '^(\S+) removed (\d{1,9}) blocks from (.*)$', '{actor,count,in}', '{}'),
    (2, 'BLOCK_REMOVED', '^(\S+) removed a block from (.*)$', '{actor,in}', '{}'),
    (1, 'CANDIDATE_ADDED', '^(\S+) proposed (\d{1,9}) places for day (\d{1,4}), (\d\d:\d\d) in (.*)$', '{actor,count,day,start,in}', '{}'),
    (2, 'CANDIDATE_ADDED', '^(\S+) proposed ((?:(?! for day ).)+) for day (\d{1,4}), (\d\d:\d\d) in (.*)$', '{actor,place,day,start,in}', '{}'),
    (1, 'CANDIDATE_CONFIRMED', '^(\S+) confirmed the place you proposed in (.*)$', '{actor,in}', '{}'),
    (1, 'OPINION_ADDED', '^(\S+) gave (\d{1,9}) opinions on places you proposed in (.*)$', '{actor,count,in}', '{}'),
    (2, 'OPINION_ADDED', '^(\S+) gave an opinion on a place you proposed in (.*)$', '{actor,in}', '{}'),
    (1, 'EXPENSE_ADDED', '^(\S+) added (\d{1,9}) expenses to (.*)$', '{actor,count,in}', '{}'),
    (2, 'EXPENSE_ADDED', '^(\S+) added an expense to (.*)$', '{actor,in}', '{}'),
    -- The one who joined is both the actor and the member: the nickname is captured twice.
    (1, 'MEMBER_JOINED', '^((\S+)) joined (.*)$', '{actor,member,in}', '{}'),
    (1, 'PLACE_ADDED', '^(\S+) added (\d{1,9}) places from a link to (.*)$', '{actor,count,in}', '{}'),
    (2, 'PLACE_ADDED', '^(\S+) added (\d{1,9}) places to (.*)$', '{actor,count,in}', '{}'),
    (3, 'PLACE_ADDED', '^(\S+) added ((?:(?! to ).)+) to ((?:(?! to ).)*)$', '{actor,place,in}', '{}'),
    (1, 'PLACE_REMOVED', '^(\S+) removed (\d{1,9}) places from (.*)$', '{actor,count,in}', '{}'),
    (2, 'PLACE_REMOVED', '^(\S+) removed a place from (.*)$', '{actor,in}', '{}'),
    (1, 'PREFERENCE_ADDED', '^(\S+) picked or passed on places you added to (.*) \((\d{1,9}) times\)$', '{actor,in,count}', '{}'),
    (2, 'PREFERENCE_ADDED', '^(\S+) picked a place you added to (.*)$', '{actor,in}', '{"preference": "PICK"}'),
    (3, 'PREFERENCE_ADDED', '^(\S+) passed on a place you added to (.*)$', '{actor,in}', '{"preference": "PASS"}'),
    (1, 'EXTRACTION_COMPLETED', '^Places from your link are ready to add to (.*)$', '{in}', '{}'),
    (1, 'EXTRACTION_FAILED', '^We could not find places on your link for (.*)$', '{in}', '{}')),
read AS (
    SELECT DISTINCT ON (n.id) n.id, n.event_count, w.keys, w.fixed, regexp_match(n.message, w.pattern) AS m
    FROM notifications n JOIN wordings w ON w.event_type = n.event_type AND n.message ~ w.pattern
    WHERE n.details IS NULL
    ORDER BY n.id, w.rank)
UPDATE notifications n SET details = r.fixed || COALESCE((
    SELECT jsonb_object_agg(f.key, CASE f.key WHEN 'day' THEN to_jsonb(f.value::int)
                                              WHEN 'places' THEN jsonb_build_array(f.value)
                                              ELSE to_jsonb(f.value) END)
    FROM unnest(r.keys, r.m) AS f(key, value)
    WHERE f.key <> 'count' AND NOT (f.key IN ('actor', 'member') AND f.value = 'Someone')
      AND NOT (f.key = 'places' AND f.value = 'free time')), '{}')
FROM read r
WHERE n.id = r.id
  AND NOT EXISTS (SELECT 1 FROM unnest(r.keys, r.m) AS f(key, value) WHERE f.key = 'count' AND f.value::int <> r.event_count);

-- A notification has its facts or, written before they were kept, its text.
ALTER TABLE notifications ADD CONSTRAINT notifications_said CHECK (details IS NOT NULL OR message IS NOT NULL);

-- +goose Down
ALTER TABLE notifications DROP CONSTRAINT notifications_said;
UPDATE notifications SET details = NULL WHERE message IS NOT NULL;
UPDATE notifications SET message = '' WHERE message IS NULL;
ALTER TABLE notifications ALTER COLUMN message SET NOT NULL;
