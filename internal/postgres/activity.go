package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// happening is something a member did to a plan or a collection: one entry of its history per
// target (migration 00016) and, when it has a notice, the notifications of the members it
// concerns. record writes both in the action's transaction, in one statement. The facts kept
// (planner.Details) are names and numbers; the sentences are rendered when they are read.
type happening struct {
	k        memberKind
	resource string // the plan's or collection's id
	actor    string // the acting user's id
	kind     planner.ActivityKind
	typ      planner.TargetType
	ids      []string          // the targets
	details  []planner.Details // what each target was
	history  bool              // kept in the history (false for what only notifies)
	notice   *notice           // who hears of it; nil for nobody
}

// notice is who a happening notifies and how notifications merge.
//
// Events of one actor of one merge group (the kind, or mergeGroups') on one target to one
// recipient within a minute of the first become one notification (mergeWindow): its
// event_count grows by the number of targets, its details become the latest event's, its
// created_at the latest event's time, and it is unread again. Kinds in updateOnly only update
// a notification still within its window and never make one: taking a pick back changes the
// notification of the pick, and ten toggles leave one notification saying where it ended.
type notice struct {
	member string // the one membership (plan or collection member id) to notify; "" for every other member
	link   string
	on     string // the merge target, e.g. a time block; "" for the plan or collection itself
}

// mergeWindow is how long after its first event a notification takes in repeats.
const mergeWindow = "1 minute"

// mergeGroups are kinds that merge with each other: what one member thinks of one candidate,
// or of one collection place, is one notification however often they change their mind.
var mergeGroups = map[planner.ActivityKind]string{
	planner.ActOpinionAdded: "OPINION", planner.ActOpinionChanged: "OPINION", planner.ActOpinionRemoved: "OPINION",
	planner.ActPreferenceAdded: "PREFERENCE", planner.ActPreferenceRemoved: "PREFERENCE",
}

// updateOnly are the kinds that only update a recent notification (see notice).
var updateOnly = map[planner.ActivityKind]bool{planner.ActOpinionRemoved: true, planner.ActPreferenceRemoved: true}

// newRowID makes a row id in SQL: 21 characters of a random UUID's hex digits.
const newRowID = `substr(replace(gen_random_uuid()::text, '-', ''), 1, 21)`

// planDid is a happening of a plan, kept in its history, about one target.
func planDid(planID, userID string, kind planner.ActivityKind, typ planner.TargetType, id string, d planner.Details) happening {
	return happening{k: planKind, resource: planID, actor: userID, kind: kind, typ: typ, ids: []string{id}, details: []planner.Details{d}, history: true}
}

// collectionDid is a happening of a collection, kept in its history, about one target.
func collectionDid(collectionID, userID string, kind planner.ActivityKind, typ planner.TargetType, id string, d planner.Details) happening {
	h := planDid(collectionID, userID, kind, typ, id, d)
	h.k = collectionKind
	return h
}

// also adds a target to the happening (several candidates or places added at once).
func (h happening) also(id string, d planner.Details) happening {
	h.ids, h.details = append(h.ids, id), append(h.details, d)
	return h
}

// onlyNotifies keeps the happening out of the history: it only notifies.
func (h happening) onlyNotifies() happening {
	h.history = false
	return h
}

// toOthers notifies every other active member, merging on the target on ("" for the resource).
func (h happening) toOthers(link, on string) happening {
	h.notice = &notice{link: link, on: on}
	return h
}

// toMember notifies one member (a membership id of the resource), unless they are the actor or
// left, merging on the target on.
func (h happening) toMember(memberID, link, on string) happening {
	h.notice = &notice{member: memberID, link: link, on: on}
	return h
}

// record writes the happening: its history entries and its notifications, in one statement.
// Notifications go to the resource's other active members (or the one member), never the
// actor, and carry the last target's details with the actor's nickname and the resource's
// title as they are now. Merging is an upsert on notifications_merge: each recipient's row
// takes the generation of their latest notification with the same key while that is within
// the window, the next one otherwise, so writers racing on one key meet on one row. The
// statement answers a push for each browser of each recipient who asked for pushes of the
// category (a merged notification is pushed again: its push's Topic replaces the one still
// waiting), queued in the same transaction.
func (db *DB) record(ctx context.Context, tx *sqlx.Tx, h happening) error {
	k := h.k
	details, err := json.Marshal(h.details)
	if err != nil {
		return err
	}
	last, err := json.Marshal(h.details[len(h.details)-1])
	if err != nil {
		return err
	}
	n := notice{}
	if h.notice != nil {
		n = *h.notice
	}
	category := planner.NotifyPlan
	if k.noun == collectionKind.noun {
		category = planner.NotifyCollection
	}
	on := n.on
	if on == "" {
		on = k.noun + ":" + h.resource
	}
	group := mergeGroups[h.kind]
	if group == "" {
		group = string(h.kind)
	}
	var pushes []planner.Push
	err = tx.SelectContext(ctx, &pushes, `
		WITH history AS (
		    INSERT INTO activities (id, `+k.key+`, actor_id, kind, target_type, target_id, details)
		    SELECT `+newRowID+`, $2, (SELECT a.id FROM `+k.table+` a WHERE a.`+k.key+` = $2 AND a.user_id = $1), $3, $4, u.id, u.details
		    FROM ROWS FROM (unnest($5::text[]), jsonb_array_elements($6::jsonb)) WITH ORDINALITY AS u(id, details, n)
		    WHERE $7
		    ORDER BY u.n),
		made AS (
		INSERT INTO notifications AS n (id, user_id, category, event_type, details, link_url, merge_key, generation, event_count)
		SELECT `+newRowID+`, m.user_id, $8, $3,
		    $9::jsonb || jsonb_build_object('actor', COALESCE((SELECT nickname FROM users WHERE id = $1), ''),
		                                    'in', COALESCE((SELECT title FROM `+k.parent+` WHERE id = $2), '')),
		    $10, $11,
		    COALESCE((SELECT CASE WHEN l.first_at > now() - interval '`+mergeWindow+`' THEN l.generation ELSE l.generation + 1 END
		              FROM notifications l WHERE l.merge_key = $11 AND l.user_id = m.user_id
		              ORDER BY l.generation DESC LIMIT 1), 1),
		    $12
		FROM `+k.table+` m
		WHERE $13 AND m.`+k.key+` = $2 AND m.left_at IS NULL AND m.user_id <> $1 AND ($14 = '' OR m.id = $14)
		  AND (NOT $15 OR EXISTS (SELECT 1 FROM notifications l WHERE l.merge_key = $11 AND l.user_id = m.user_id
		                          AND l.first_at > now() - interval '`+mergeWindow+`'))
		ORDER BY m.user_id -- writers on one key lock the recipients' rows in one order: no deadlock
		ON CONFLICT (merge_key, user_id, generation) WHERE merge_key IS NOT NULL DO UPDATE SET
		    event_count = n.event_count + EXCLUDED.event_count, event_type = EXCLUDED.event_type,
		    details = EXCLUDED.details, link_url = EXCLUDED.link_url, created_at = EXCLUDED.created_at, read_at = NULL
		RETURNING n.id, n.user_id, n.category)
		SELECT made.id AS notification_id, s.id AS subscription_id
		FROM made JOIN notification_settings ns ON ns.user_id = made.user_id AND ns.category = made.category AND ns.push
		JOIN push_subscriptions s ON s.user_id = made.user_id`,
		h.actor, h.resource, h.kind, h.typ, pq.Array(h.ids), string(details), h.history,
		category, string(last), n.link, group+" "+h.actor+" "+on, len(h.ids),
		h.notice != nil, n.member, updateOnly[h.kind])
	if err != nil {
		return err
	}
	return db.queuePushes(ctx, tx, pushes)
}

// activityRow is a history entry as scanned, with its actor (empty when none).
type activityRow struct {
	ID         string    `db:"id"`
	Kind       string    `db:"kind"`
	TargetType string    `db:"target_type"`
	TargetID   string    `db:"target_id"`
	Details    []byte    `db:"details"`
	CreatedAt  time.Time `db:"created_at"`
	ActorID    string    `db:"actor_id"`
	Nickname   string    `db:"nickname"`
	Picture    string    `db:"picture"`
	Role       string    `db:"role"`
}

// PlanActivity lists a page of a plan's history, newest first, for its members and guests, in
// two statements whatever the page's size: membership, the page with its actors.
func (db *DB) PlanActivity(ctx context.Context, userID, planID string, page planner.Page) (out []planner.Activity, hasNext bool, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planReader(ctx, tx, planID, userID); err != nil {
			return err
		}
		out, hasNext, err = activityPage(ctx, tx, planKind, planID, page)
		return err
	})
	return out, hasNext, err
}

// CollectionActivity lists a page of a collection's history, newest first, for its members
// and guests, in two statements.
func (db *DB) CollectionActivity(ctx context.Context, userID, collectionID string, page planner.Page) (out []planner.Activity, hasNext bool, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := collectionReader(ctx, tx, collectionID, userID); err != nil {
			return err
		}
		out, hasNext, err = activityPage(ctx, tx, collectionKind, collectionID, page)
		return err
	})
	return out, hasNext, err
}

// activityPage loads a page of a resource's history with each entry's actor, in one query
// (activities_plan / activities_collection).
func activityPage(ctx context.Context, tx *sqlx.Tx, k memberKind, id string, page planner.Page) ([]planner.Activity, bool, error) {
	var rows []activityRow
	err := tx.SelectContext(ctx, &rows, `
		SELECT a.id, a.kind, a.target_type, a.target_id, a.details, a.created_at,
		       COALESCE(m.id, '') AS actor_id, COALESCE(m.nickname, '') AS nickname,
		       COALESCE(m.picture, '') AS picture, COALESCE(m.role, '') AS role
		FROM activities a LEFT JOIN `+k.table+` m ON m.id = a.actor_id
		WHERE a.`+k.key+` = $1
		ORDER BY a.seq DESC
		LIMIT $2 OFFSET $3`, id, page.Size+1, page.Offset())
	if err != nil {
		return nil, false, err
	}
	hasNext := len(rows) > page.Size
	if hasNext {
		rows = rows[:page.Size]
	}
	out := make([]planner.Activity, len(rows))
	for i, r := range rows {
		a := planner.Activity{ID: r.ID, Kind: planner.ActivityKind(r.Kind), CreatedAt: r.CreatedAt,
			Target: planner.Target{Type: planner.TargetType(r.TargetType), ID: r.TargetID}}
		if err := json.Unmarshal(r.Details, &a.Details); err != nil {
			return nil, false, fmt.Errorf("activity %s: details: %w", r.ID, err)
		}
		if r.ActorID != "" {
			a.Actor = &planner.Member{ID: r.ActorID, Nickname: r.Nickname, Picture: r.Picture, Role: planner.Role(r.Role)}
		}
		out[i] = a
	}
	return out, hasNext, nil
}

// blockPlacesColumn selects the places that name a time block (alias b): its confirmed place,
// or its candidates' while none is selected (planner.BlockDetails).
const blockPlacesColumn = `ARRAY(SELECT p.name FROM candidates x JOIN places p ON p.id = x.place_id
	WHERE x.time_block_id = b.id
	  AND (x.selected OR NOT EXISTS (SELECT 1 FROM candidates s WHERE s.time_block_id = b.id AND s.selected))
	ORDER BY x.created_at, x.id) AS places`

// blockNamesColumn selects the other names of the places of a time block's candidates (alias
// b), by name, for planner.Details.Names (NULL when none has any).
const blockNamesColumn = `(SELECT jsonb_object_agg(p.name, p.names) FROM candidates x JOIN places p ON p.id = x.place_id
	WHERE x.time_block_id = b.id AND cardinality(p.names) > 0) AS names`

// placeNames are places' other names by name, read from a JSON object (blockNamesColumn).
type placeNames map[string][]string

func (n *placeNames) Scan(src any) error {
	*n = nil
	switch v := src.(type) {
	case nil:
		return nil
	case []byte:
		return json.Unmarshal(v, n)
	case string:
		return json.Unmarshal([]byte(v), n)
	}
	return fmt.Errorf("place names: cannot scan %T", src)
}

// blockFacts reads what names a time block of the plan (its slot and places; see
// planner.BlockDetails) and, when candidateID is set, that candidate's place, before a change
// that may delete them: BLOCK_NOT_FOUND when the plan has no such block.
func blockFacts(ctx context.Context, tx *sqlx.Tx, planID, timeBlockID, candidateID string) (planner.Details, error) {
	var r struct {
		Day    int            `db:"day"`
		Start  sqlTime        `db:"start_time"`
		End    sqlTime        `db:"end_time"`
		Places pq.StringArray `db:"places"`
		Names  placeNames     `db:"names"`
		Place  string         `db:"place"`
	}
	err := sql.ErrNoRows
	if planner.ValidID(timeBlockID) {
		err = tx.GetContext(ctx, &r, `
			SELECT d.day, b.start_time, b.end_time, `+blockPlacesColumn+`, `+blockNamesColumn+`,
			       COALESCE((SELECT p.name FROM candidates c JOIN places p ON p.id = c.place_id
			                 WHERE c.id = $3 AND c.time_block_id = b.id), '') AS place
			`+timeBlockFrom+` WHERE b.id = $1 AND b.plan_id = $2`, timeBlockID, planID, candidateID)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return planner.Details{}, blockNotFound()
	}
	return planner.Details{Day: r.Day, Start: planner.TimeOfDay(r.Start).HHMM(), End: planner.TimeOfDay(r.End).HHMM(),
		Places: r.Places, Place: r.Place, Names: r.Names}, err
}
