package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/internal/timezone"
)

// sqlTime carries a planner.TimeOfDay to and from a PostgreSQL time.
type sqlTime planner.TimeOfDay

// Value writes the time as HH:MM:SS.sss.
func (c sqlTime) Value() (driver.Value, error) {
	return strings.TrimSuffix(planner.TimeOfDay(c).String(), "Z"), nil
}

// Scan reads a time, which lib/pq decodes as a time.Time on 0000-01-01.
func (c *sqlTime) Scan(src any) error {
	t, ok := src.(time.Time)
	if !ok {
		return fmt.Errorf("scan time of day: unexpected %T", src)
	}
	midnight := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
	*c = sqlTime(t.Sub(midnight))
	return nil
}

// timeBlockRow is a time block with its day, as scanned.
type timeBlockRow struct {
	ID      string  `db:"id"`
	Type    string  `db:"type"`
	Start   sqlTime `db:"start_time"`
	End     sqlTime `db:"end_time"`
	Version int     `db:"version"`
	Fixed   bool    `db:"fixed_time"`
	planner.DayInfo
}

// timeBlockColumns and timeBlockFrom select time blocks (alias b) with their days (alias d).
const (
	timeBlockColumns = `b.id, b.type, b.start_time, b.end_time, b.version, b.fixed_time, d.day, d.date`
	timeBlockFrom    = ` FROM time_blocks b JOIN plan_days d ON d.id = b.plan_day_id`
)

func (r timeBlockRow) timeBlock(candidates []planner.Candidate) planner.TimeBlock {
	return planner.TimeBlock{
		ID: r.ID, Type: planner.BlockType(r.Type), Day: r.DayInfo,
		Start: planner.TimeOfDay(r.Start), End: planner.TimeOfDay(r.End),
		Candidates: candidates, Version: r.Version, FixedTime: r.Fixed,
	}
}

func blockNotFound() error {
	return planner.Errorf(planner.CodeBlockNotFound, "No such block in this plan.")
}

// candidateRow is a candidate with who added it and its opinion tallies, as scanned.
type candidateRow struct {
	ID                string `db:"candidate_id"`
	TimeBlockID       string `db:"time_block_id"`
	Memo              string `db:"memo"`
	Selected          bool   `db:"selected"`
	PlaceID           string `db:"place_id"`
	CollectionPlaceID string `db:"collection_place_id"`
	Total             int    `db:"total"`
	Positive          int    `db:"positive"`
	Neutral           int    `db:"neutral"`
	Negative          int    `db:"negative"`
	MyOpinionID       string `db:"my_opinion_id"`
	MyOpinionType     string `db:"my_opinion_type"`
	planner.Member
}

// candidates loads the candidates of the given time blocks in creation order, with their
// places, who added them and their opinion tallies (me is the caller's plan member id), in
// two queries whatever their number: the candidates, then their places. dayID, when not "",
// is the day all the blocks are on.
//
// The statement names the blocks so that PostgreSQL can keep one plan for it (a generic plan,
// see conn.go): one block by its id, the blocks of one day by the day (taking the day's other
// blocks too, left out here). Other sets go as an array, whose length a kept plan cannot know,
// so PostgreSQL plans that statement on every call (its generic plan hash-joins the members).
func candidates(ctx context.Context, q sqlx.QueryerContext, me string, timeBlockIDs []string, dayID string) (map[string][]planner.Candidate, error) {
	out := make(map[string][]planner.Candidate, len(timeBlockIDs))
	if len(timeBlockIDs) == 0 {
		return out, nil
	}
	from := `candidates c`
	where, blocks := oneOrAny(`c.time_block_id`, timeBlockIDs)
	if dayID != "" && len(timeBlockIDs) > 1 {
		from, where, blocks = `time_blocks b JOIN candidates c ON c.time_block_id = b.id`, `b.plan_day_id = $1`, dayID
	}
	var rows []candidateRow
	err := sqlx.SelectContext(ctx, q, &rows, `
		SELECT c.id AS candidate_id, c.time_block_id, c.memo, c.selected,
		       COALESCE(c.place_id, '') AS place_id, COALESCE(c.collection_place_id, '') AS collection_place_id,
		       o.total, o.positive, o.neutral, o.negative, o.my_opinion_id, o.my_opinion_type,
		       m.id, m.nickname, m.picture, m.role
		FROM `+from+`
		JOIN plan_members m ON m.id = c.added_by
		CROSS JOIN LATERAL (
		    SELECT count(*) AS total,
		           count(*) FILTER (WHERE x.type = 'POSITIVE') AS positive,
		           count(*) FILTER (WHERE x.type = 'NEUTRAL') AS neutral,
		           count(*) FILTER (WHERE x.type = 'NEGATIVE') AS negative,
		           COALESCE(min(x.id) FILTER (WHERE x.member_id = $2), '') AS my_opinion_id,
		           COALESCE(min(x.type) FILTER (WHERE x.member_id = $2), '') AS my_opinion_type
		    FROM opinions x WHERE x.candidate_id = c.id) o
		WHERE `+where+`
		ORDER BY c.created_at, c.id`, blocks, me)
	if err != nil {
		return nil, err
	}
	if dayID != "" && len(timeBlockIDs) > 1 {
		asked := make(map[string]bool, len(timeBlockIDs))
		for _, id := range timeBlockIDs {
			asked[id] = true
		}
		rows = slices.DeleteFunc(rows, func(r candidateRow) bool { return !asked[r.TimeBlockID] })
	}
	places, err := placesByID(ctx, q, rows)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		c := planner.Candidate{
			ID: r.ID, Memo: r.Memo, CollectionPlaceID: r.CollectionPlaceID, Selected: r.Selected, AddedBy: r.Member,
			Opinions: planner.OpinionSummary{Total: r.Total, Positive: r.Positive, Neutral: r.Neutral, Negative: r.Negative},
		}
		if p, ok := places[r.PlaceID]; ok {
			c.Place = &p
		}
		if r.MyOpinionID != "" {
			c.Opinions.Mine = &planner.MyOpinion{ID: r.MyOpinionID, Type: planner.OpinionType(r.MyOpinionType)}
		}
		out[r.TimeBlockID] = append(out[r.TimeBlockID], c)
	}
	return out, nil
}

// placesByID loads the places of the candidates that have one, in one query.
func placesByID(ctx context.Context, q sqlx.QueryerContext, rows []candidateRow) (map[string]planner.Place, error) {
	var ids []string
	for _, r := range rows {
		if r.PlaceID != "" {
			ids = append(ids, r.PlaceID)
		}
	}
	out := make(map[string]planner.Place, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var places []placeRow
	where, arg := oneOrAny(`p.id`, ids)
	if err := sqlx.SelectContext(ctx, q, &places, `SELECT `+placeColumns+` FROM places p WHERE `+where, arg); err != nil {
		return nil, err
	}
	for _, p := range places {
		out[p.ID] = p.place()
	}
	return out, nil
}

// withCandidates completes time blocks with their candidates (see candidates; dayID, when not
// "", is the day all the blocks are on).
func withCandidates(ctx context.Context, q sqlx.QueryerContext, me string, rows []timeBlockRow, dayID string) ([]planner.TimeBlock, error) {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	byBlock, err := candidates(ctx, q, me, ids, dayID)
	if err != nil {
		return nil, err
	}
	out := make([]planner.TimeBlock, len(rows))
	for i, r := range rows {
		out[i] = r.timeBlock(append([]planner.Candidate{}, byBlock[r.ID]...))
	}
	return out, nil
}

// loadTimeBlock loads one time block of a plan with its candidates.
func loadTimeBlock(ctx context.Context, q sqlx.QueryerContext, planID, me, timeBlockID string) (*planner.TimeBlock, error) {
	var rows []timeBlockRow
	err := sqlx.SelectContext(ctx, q, &rows, `SELECT `+timeBlockColumns+timeBlockFrom+` WHERE b.id = $1 AND b.plan_id = $2`, timeBlockID, planID)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, blockNotFound()
	}
	blocks, err := withCandidates(ctx, q, me, rows, "")
	if err != nil {
		return nil, err
	}
	return &blocks[0], nil
}

// DayBlocks lists a page of the time blocks of one plan day by start and end time, with
// their candidates, in four queries whatever their number: the plan, membership and day; the
// page; its candidates with opinion tallies; their places.
//
// Listings are served from the day cache while the plan is unchanged (see cache.go), which
// one more statement, first, checks; a page so kept comes with its Answers, which live as
// long as it does.
func (db *DB) DayBlocks(ctx context.Context, userID, planID string, day int, page planner.Page) (out planner.DayPage, err error) {
	key, topic := dayKey{plan: planID, user: userID, day: day, page: page.Number, pages: page.Size}, planner.PlanTopic(planID)
	var at stamp
	var m mark
	// Guests read past the cache: their access hangs on a link that can be revoked or expire
	// without any change to the plan, so it is checked on every read.
	keep := db.days != nil && !planner.IsGuestViewer(userID)
	if keep {
		if e, ok := db.days.get(key); ok {
			// Another instance's write may not have reached this one's feed yet: the plan's
			// events say whether the listing still holds.
			same, err := unchanged(ctx, db, topic, e.mark)
			if err != nil {
				return planner.DayPage{}, mapError(err)
			}
			if same {
				return e.page, nil
			}
		}
		at, _ = db.days.now(planID) // before reading, so a change during the read is noticed
		out.Answers = &planner.Renderings{}
		defer func() {
			if err == nil {
				db.days.put(key, dayEntry{at: at, mark: m, loaded: time.Now(), page: out})
			}
		}()
	}
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		if keep {
			var err error
			if m, err = markOf(ctx, tx, topic); err != nil {
				return err
			}
		}
		me, d, err := planReaderDay(ctx, tx, planID, userID, day)
		if err != nil {
			return err
		}
		out.Info = d.DayInfo
		var rows []timeBlockRow
		err = tx.SelectContext(ctx, &rows, `SELECT `+timeBlockColumns+timeBlockFrom+`
			WHERE b.plan_day_id = $1
			ORDER BY b.start_time, b.end_time, b.id
			LIMIT $2 OFFSET $3`, d.ID, page.Size+1, page.Offset())
		if err != nil {
			return err
		}
		if len(rows) > page.Size {
			rows, out.HasNext = rows[:page.Size], true
		}
		out.Blocks, err = withCandidates(ctx, tx, me.ID, rows, d.ID)
		return err
	})
	if err != nil {
		return planner.DayPage{}, err
	}
	return out, nil
}

// newCandidate is a candidate to insert: a place (with the collection place it came from, if
// any), or none for a FREE block's entry. addedBy, when not "", is the plan member who
// proposed it (a copied candidate keeps its proposer); else whoever inserts it.
type newCandidate struct {
	placeID, collectionPlaceID string
	memo                       string
	selected                   bool
	addedBy                    string
}

// insertCandidates adds candidates to a time block in the order given, each place candidate
// with its (empty) expense, in one statement. A place already in the block is skipped. An
// existing block (not one just inserted) counts a new version when any candidate was added.
func insertCandidates(ctx context.Context, tx *sqlx.Tx, planID, timeBlockID, memberID string, cs []newCandidate, existing bool) error {
	n := len(cs)
	ids, expenseIDs, placeIDs, cpIDs, memos, selected, addedBy := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]bool, n), make([]string, n)
	for i, c := range cs {
		ids[i], expenseIDs[i], placeIDs[i], cpIDs[i], memos[i], selected[i], addedBy[i] = planner.NewID(), planner.NewID(), c.placeID, c.collectionPlaceID, c.memo, c.selected, c.addedBy
	}
	_, err := tx.ExecContext(ctx, `
		WITH u AS (
		    SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bool[], $11::text[])
		        WITH ORDINALITY AS u(id, expense_id, place_id, cp_id, memo, selected, added_by, n)),
		added AS (
		    INSERT INTO candidates (id, time_block_id, place_id, collection_place_id, added_by, memo, selected)
		    SELECT u.id, $2, NULLIF(u.place_id, ''), NULLIF(u.cp_id, ''), COALESCE(NULLIF(u.added_by, ''), $3), u.memo, u.selected
		    FROM u ORDER BY u.n
		    ON CONFLICT ON CONSTRAINT candidates_one_per_place DO NOTHING
		    RETURNING id, place_id),
		bumped AS (
		    UPDATE time_blocks SET version = version + 1 WHERE id = $2 AND $10 AND EXISTS (SELECT 1 FROM added))
		INSERT INTO expenses (id, plan_id, kind, candidate_id)
		SELECT u.expense_id, $1, 'BLOCK', added.id
		FROM added JOIN u ON u.id = added.id
		WHERE added.place_id IS NOT NULL`,
		planID, timeBlockID, memberID, pq.Array(ids), pq.Array(expenseIDs), pq.Array(placeIDs), pq.Array(cpIDs),
		pq.Array(memos), pq.Array(selected), existing, pq.Array(addedBy))
	if err != nil {
		return err
	}
	return zoneFromFirstPlace(ctx, tx, planID, placeIDs)
}

// zoneFromFirstPlace gives a plan whose time zone nobody chose (still the default) the zone of
// the first of the places with coordinates. Later places leave it alone.
func zoneFromFirstPlace(ctx context.Context, tx *sqlx.Tx, planID string, placeIDs []string) error {
	var at struct{ Lat, Lon float64 }
	err := tx.GetContext(ctx, &at, `
		SELECT pl.latitude::float8 AS lat, pl.longitude::float8 AS lon
		FROM plans p JOIN places pl ON pl.id = ANY($2::text[])
		WHERE p.id = $1 AND p.time_zone_source = 'DEFAULT' AND pl.latitude IS NOT NULL AND pl.longitude IS NOT NULL
		ORDER BY array_position($2::text[], pl.id) LIMIT 1`, planID, pq.Array(placeIDs))
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	zone := timezone.At(at.Lat, at.Lon)
	if zone == "" {
		return nil
	}
	_, err = tx.ExecContext(ctx, `
		UPDATE plans SET time_zone = $2, time_zone_source = 'PLACE', version = version + 1
		WHERE id = $1 AND time_zone_source = 'DEFAULT'`, planID, zone)
	return err
}

// placesOfCollectionPlaces resolves collection places to their places, in the order given:
// COLLECTION_PLACE_NOT_FOUND when one does not exist, then PLAN_COLLECTION_NOT_FOUND when
// one's collection is not linked to the plan.
func placesOfCollectionPlaces(ctx context.Context, tx *sqlx.Tx, planID string, cpIDs []string) ([]newCandidate, error) {
	if len(cpIDs) == 0 {
		return nil, nil
	}
	var rows []struct {
		ID      string `db:"id"`
		PlaceID string `db:"place_id"`
		Linked  bool   `db:"linked"`
	}
	where, arg := oneOrAny(`cp.id`, cpIDs)
	err := tx.SelectContext(ctx, &rows, `
		SELECT cp.id, cp.place_id,
		       EXISTS (SELECT 1 FROM plan_collections pc WHERE pc.plan_id = $2 AND pc.collection_id = cp.collection_id) AS linked
		FROM collection_places cp WHERE `+where, arg, planID)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]int, len(rows))
	for i, r := range rows {
		byID[r.ID] = i
	}
	out := make([]newCandidate, len(cpIDs))
	for i, id := range cpIDs {
		j, ok := byID[id]
		if !ok {
			return nil, planner.Errorf(planner.CodeCollectionPlaceNotFound, "No such collection place.")
		}
		out[i] = newCandidate{placeID: rows[j].PlaceID, collectionPlaceID: id}
	}
	for _, r := range rows {
		if !r.Linked {
			return nil, planner.Errorf(planner.CodePlanCollectionNotFound, "The place's collection is not linked to this plan.")
		}
	}
	return out, nil
}

// existingPlaces checks that every place exists for the plan (PLACE_NOT_FOUND) and makes
// candidates of them, in the order given. A manually entered place is readable only through
// the plans that hold it, so the plan may name one by id only if it holds it already; another
// plan's is PLACE_NOT_FOUND, as if it did not exist.
func existingPlaces(ctx context.Context, tx *sqlx.Tx, planID string, placeIDs []string) ([]newCandidate, error) {
	if len(placeIDs) == 0 {
		return nil, nil
	}
	ids := unique(placeIDs)
	var n int
	if err := tx.GetContext(ctx, &n, `
		SELECT count(*) FROM places p
		WHERE p.id = ANY($1) AND (p.provider <> 'MANUAL' OR EXISTS (
		    SELECT 1 FROM time_blocks b JOIN candidates c ON c.time_block_id = b.id
		    WHERE b.plan_id = $2 AND c.place_id = p.id))`, pq.Array(ids), planID); err != nil {
		return nil, err
	}
	if n != len(ids) {
		return nil, planner.Errorf(planner.CodePlaceNotFound, "No such place.")
	}
	out := make([]newCandidate, len(placeIDs))
	for i, id := range placeIDs {
		out[i] = newCandidate{placeID: id}
	}
	return out, nil
}

// conflictErr is the error for a slot that overlaps another block of the day:
// TIME_BLOCK_EXACT_DUPLICATE, carrying that block's id, when one has exactly the same times,
// else TIME_BLOCK_OVERLAP. Both carry where: conflicting_time_block_id, the earliest
// overlapping block, and next_free_start, the earliest start at or after the requested one
// where a block of the requested length fits among the day's other blocks and ends before
// 24:00 (nil when none does). self is the block being moved ("" when adding); it never stands
// in its own way. One query: the candidates for the free start are the requested start and
// the ends of the blocks after it, each checked against the day through the exclusion
// constraint's index.
func conflictErr(ctx context.Context, tx *sqlx.Tx, dayID, self string, start, end planner.TimeOfDay) error {
	var r struct {
		ID       string         `db:"id"`
		Exact    bool           `db:"exact"`
		NextFree sql.NullString `db:"next_free"`
	}
	err := tx.GetContext(ctx, &r, `
		WITH others AS (
		    SELECT id, start_time, end_time FROM time_blocks WHERE plan_day_id = $1 AND id <> $2),
		len AS (SELECT $4::time - $3::time AS d)
		SELECT o.id, o.start_time = $3 AND o.end_time = $4 AS exact,
		       (SELECT min(c.s)::text
		        FROM (SELECT $3::time AS s UNION SELECT end_time FROM others WHERE end_time > $3) c, len
		        WHERE (c.s - time '00:00') + len.d < interval '24 hours'
		          AND NOT EXISTS (SELECT 1 FROM others x
		                          WHERE x.start_time < c.s + len.d AND x.end_time > c.s)) AS next_free
		FROM others o
		WHERE timerange(o.start_time, o.end_time) && timerange($3, $4)
		ORDER BY o.start_time LIMIT 1`, dayID, self, sqlTime(start), sqlTime(end))
	if errors.Is(err, sql.ErrNoRows) { // the other block went away since: say no more than that
		return planner.Errorf(planner.CodeTimeBlockOverlap, "The time overlaps another block of the day.")
	}
	if err != nil {
		return err
	}
	var next *planner.TimeOfDay
	if r.NextFree.Valid {
		t, err := planner.ParseTimeOfDay(r.NextFree.String)
		if err != nil {
			return fmt.Errorf("next free start %q: %w", r.NextFree.String, err)
		}
		next = &t
	}
	where := map[string]any{"conflicting_time_block_id": r.ID, "next_free_start": next}
	if r.Exact {
		where["time_block_id"], where["timeBlockId"] = r.ID, r.ID
		return &planner.Error{
			Code:   planner.CodeTimeBlockExactDuplicate,
			Detail: "A block already exists at exactly this time; add it as a candidate instead.",
			Extra:  where,
		}
	}
	return &planner.Error{Code: planner.CodeTimeBlockOverlap, Detail: "The time overlaps another block of the day.", Extra: where}
}

// placeTimeBlock runs write, an INSERT or UPDATE of a time block at [start, end) of a day,
// and turns a violation of time_blocks_no_overlap into the conflict error. The exclusion
// constraint decides, so the rule holds under concurrent writes; the write runs under a
// savepoint so the transaction can look up the conflicting block afterwards.
func placeTimeBlock(ctx context.Context, tx *sqlx.Tx, dayID, self string, start, end planner.TimeOfDay, write func() error) error {
	if _, err := tx.ExecContext(ctx, `SAVEPOINT place_time_block`); err != nil {
		return err
	}
	err := write()
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) || pqErr.Constraint != "time_blocks_no_overlap" {
		return err
	}
	if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT place_time_block`); err != nil {
		return err
	}
	return conflictErr(ctx, tx, dayID, self, start, end)
}

// addBlock adds a time block of type typ at slot holding one candidate, which resolve
// finds after the plan, membership and day are checked. A PLACE block's candidate is
// selected (DIRECT); a FREE block's place-less entry is not (NOTHING).
func (db *DB) addBlock(ctx context.Context, userID, planID string, typ planner.BlockType, slot planner.Slot, memo string, resolve func(tx *sqlx.Tx) (newCandidate, error)) (*planner.TimeBlock, error) {
	var out *planner.TimeBlock
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, day, err := planMemberDay(ctx, tx, planID, userID, slot.Day)
		if err != nil {
			return err
		}
		c, err := resolve(tx)
		if err != nil {
			return err
		}
		c.memo, c.selected = memo, typ == planner.BlockPlace
		id := planner.NewID()
		err = placeTimeBlock(ctx, tx, day.ID, "", slot.Start, slot.End, func() error {
			_, err := tx.ExecContext(ctx, `
				INSERT INTO time_blocks (id, plan_id, plan_day_id, type, start_time, end_time) VALUES ($1, $2, $3, $4, $5, $6)`,
				id, planID, day.ID, typ, sqlTime(slot.Start), sqlTime(slot.End))
			return err
		})
		if err != nil {
			return err
		}
		out, err = db.fillNewBlock(ctx, tx, planID, userID, me.ID, id, slot.Day, []newCandidate{c})
		return err
	})
	return out, err
}

// fillNewBlock gives the time block id just inserted on day its candidates, as the member
// meID (the user userID) adds them, and records the addition: the block as the caller
// answers it.
func (db *DB) fillNewBlock(ctx context.Context, tx *sqlx.Tx, planID, userID, meID, id string, day int, cs []newCandidate) (*planner.TimeBlock, error) {
	if err := insertCandidates(ctx, tx, planID, id, meID, cs, false); err != nil {
		return nil, err
	}
	out, err := loadTimeBlock(ctx, tx, planID, meID, id)
	if err != nil {
		return nil, err
	}
	return out, db.record(ctx, tx, planDid(planID, userID, planner.ActBlockAdded, planner.TargetTimeBlock, id, planner.BlockDetails(out)).
		toOthers(paths.Day(planID, day), "plan_day:"+planID+":"+strconv.Itoa(day)))
}

// AddBlock adds a block to a plan (the operation detailed in docs/API.md §Time blocks): a PLACE block holding
// a place of a collection linked to the plan, or a FREE block. Checks, in order:
// PLAN_NOT_FOUND, FORBIDDEN_NOT_MEMBER, PLAN_DAY_NOT_FOUND, then for PLACE
// COLLECTION_PLACE_NOT_FOUND and PLAN_COLLECTION_NOT_FOUND, then TIME_BLOCK_EXACT_DUPLICATE
// (Extra["time_block_id"] is the existing block) or TIME_BLOCK_OVERLAP. The input is
// expected to be valid (planner.NewBlock.Validate).
func (db *DB) AddBlock(ctx context.Context, userID, planID string, in planner.NewBlock) (*planner.TimeBlock, error) {
	return db.addBlock(ctx, userID, planID, in.Type, in.Slot, in.Memo, func(tx *sqlx.Tx) (newCandidate, error) {
		if in.Type == planner.BlockFree {
			return newCandidate{}, nil
		}
		cs, err := placesOfCollectionPlaces(ctx, tx, planID, []string{in.CollectionPlaceID})
		if err != nil {
			return newCandidate{}, err
		}
		return cs[0], nil
	})
}

// AddBlockByPlace adds a PLACE block holding a place (from search), with AddBlock's checks;
// PLACE_NOT_FOUND stands where AddBlock checks the collection place.
func (db *DB) AddBlockByPlace(ctx context.Context, userID, planID, placeID string, slot planner.Slot, memo string) (*planner.TimeBlock, error) {
	return db.addBlock(ctx, userID, planID, planner.BlockPlace, slot, memo, func(tx *sqlx.Tx) (newCandidate, error) {
		cs, err := existingPlaces(ctx, tx, planID, []string{placeID})
		if err != nil {
			return newCandidate{}, err
		}
		return cs[0], nil
	})
}

// AddBlockFromSearch adds a PLACE block holding a place found by search, which first joins
// the plan's own collection (created and linked on first use, see collectForPlan), all in one
// transaction; AddBlockByPlace's checks and answers.
func (db *DB) AddBlockFromSearch(ctx context.Context, userID, planID, placeID string, slot planner.Slot, memo string) (*planner.TimeBlock, error) {
	return db.addBlock(ctx, userID, planID, planner.BlockPlace, slot, memo, func(tx *sqlx.Tx) (newCandidate, error) {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return newCandidate{}, err
		}
		return collectForPlan(ctx, tx, planID, me.ID, userID, placeID)
	})
}

// AddManualBlock adds a PLACE block holding a place the member typed in: a new place of
// provider MANUAL without a provider place id. The place's URL is kept as its maps link.
func (db *DB) AddManualBlock(ctx context.Context, userID, planID string, place planner.ManualPlace, slot planner.Slot, memo string) (*planner.TimeBlock, error) {
	return db.addBlock(ctx, userID, planID, planner.BlockPlace, slot, memo, func(tx *sqlx.Tx) (newCandidate, error) {
		id := planner.NewID()
		_, err := tx.ExecContext(ctx, `
			INSERT INTO places (id, provider, name, address, provider_maps_uri) VALUES ($1, 'MANUAL', $2, $3, $4)`,
			id, place.Name, place.Address, place.URL)
		return newCandidate{placeID: id}, err
	})
}

// blockDetail loads one candidate of a plan with its time block, the opinions on it and the
// post its place came from: BLOCK_NOT_FOUND when the plan has no such candidate.
func blockDetail(ctx context.Context, tx *sqlx.Tx, planID, me, candidateID string) (*planner.BlockDetail, error) {
	var rows []struct {
		timeBlockRow
		SocialMediaID string `db:"sm_id"`
		MediaType     string `db:"media_type"`
		URL           string `db:"url"`
		AuthorName    string `db:"author_name"`
		Title         string `db:"title"`
		Summary       string `db:"summary"`
	}
	if planner.ValidID(candidateID) {
		err := tx.SelectContext(ctx, &rows, `
			SELECT `+timeBlockColumns+`, COALESCE(sm.id, '') AS sm_id, COALESCE(sm.media_type, '') AS media_type,
			       COALESCE(sm.url, '') AS url, COALESCE(sm.author_name, '') AS author_name,
			       COALESCE(sm.title, '') AS title, COALESCE(sm.summary, '') AS summary
			`+timeBlockFrom+`
			JOIN candidates c ON c.time_block_id = b.id
			LEFT JOIN collection_places cp ON cp.id = c.collection_place_id
			LEFT JOIN social_media sm ON sm.id = cp.social_media_id
			WHERE c.id = $1 AND b.plan_id = $2`, candidateID, planID)
		if err != nil {
			return nil, err
		}
	}
	if len(rows) == 0 {
		return nil, blockNotFound()
	}
	r := rows[0]
	byBlock, err := candidates(ctx, tx, me, []string{r.ID}, "")
	if err != nil {
		return nil, err
	}
	out := &planner.BlockDetail{
		TimeBlockID: r.ID, Type: planner.BlockType(r.Type), Day: r.DayInfo,
		Start: planner.TimeOfDay(r.Start), End: planner.TimeOfDay(r.End), Version: r.Version, FixedTime: r.Fixed,
	}
	for _, c := range byBlock[r.ID] {
		if c.ID == candidateID {
			out.Block = c
		}
	}
	if r.SocialMediaID != "" {
		out.SocialMedia = &planner.SocialMedia{ID: r.SocialMediaID, MediaType: r.MediaType, URL: r.URL,
			AuthorName: r.AuthorName, Title: r.Title, Summary: r.Summary}
	}
	out.Opinions, err = opinions(ctx, tx, candidateID, "")
	return out, err
}

// opinions lists the opinions on a candidate, oldest first; with an opinionID, only that one.
func opinions(ctx context.Context, tx *sqlx.Tx, candidateID, opinionID string) ([]planner.Opinion, error) {
	byCandidate, err := selectOpinions(ctx, tx, `o.candidate_id = $1 AND ($2 = '' OR o.id = $2)`, candidateID, opinionID)
	if err != nil {
		return nil, err
	}
	if out := byCandidate[candidateID]; out != nil {
		return out, nil
	}
	return []planner.Opinion{}, nil
}

// selectOpinions loads the opinions matching where (on o, the opinion), by candidate, each
// candidate's oldest first.
func selectOpinions(ctx context.Context, tx *sqlx.Tx, where string, args ...any) (map[string][]planner.Opinion, error) {
	var rows []struct {
		CandidateID string         `db:"candidate_id"`
		OpinionID   string         `db:"opinion_id"`
		Type        string         `db:"type"`
		Comment     string         `db:"comment"`
		TagIDs      pq.StringArray `db:"tag_ids"`
		Version     int            `db:"version"`
		CreatedAt   time.Time      `db:"created_at"`
		UpdatedAt   time.Time      `db:"updated_at"`
		planner.Member
	}
	err := tx.SelectContext(ctx, &rows, `
		SELECT o.candidate_id, o.id AS opinion_id, o.type, o.comment, o.tag_ids, o.version, o.created_at, o.updated_at,
		       m.id, m.nickname, m.picture, m.role
		FROM opinions o JOIN plan_members m ON m.id = o.member_id
		WHERE `+where+`
		ORDER BY o.candidate_id, o.created_at, o.id`, args...)
	if err != nil {
		return nil, err
	}
	out := map[string][]planner.Opinion{}
	for _, r := range rows {
		out[r.CandidateID] = append(out[r.CandidateID], planner.Opinion{ID: r.OpinionID, Type: planner.OpinionType(r.Type),
			Comment: r.Comment, TagIDs: append([]string{}, r.TagIDs...), AddedBy: r.Member, Version: r.Version, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt})
	}
	return out, nil
}

// BlockDetail loads one candidate ("block") of a plan by its id, with its time block, the
// opinions on it and its social media post; BLOCK_NOT_FOUND when the plan has no such
// candidate.
func (db *DB) BlockDetail(ctx context.Context, userID, planID, candidateID string) (*planner.BlockDetail, error) {
	var out *planner.BlockDetail
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planReader(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		out, err = blockDetail(ctx, tx, planID, me.ID, candidateID)
		return err
	})
	return out, err
}

// UpdateBlock edits a candidate's memo, sets its time block's "fixed time" mark and moves the
// whole time block to another day or time (Start and End together, else INVALID_REQUEST). A move is checked against the other blocks
// of the target day like an added block: TIME_BLOCK_EXACT_DUPLICATE or TIME_BLOCK_OVERLAP.
// A change that names anything counts one new version of the time block. Checks, in order:
// PLAN_NOT_FOUND, FORBIDDEN_NOT_MEMBER, BLOCK_NOT_FOUND, PRECONDITION_FAILED (ifMatch against
// the time block's version, under its lock; the answer carries the detail as it is now),
// PLAN_DAY_NOT_FOUND, the conflict.
func (db *DB) UpdateBlock(ctx context.Context, userID, planID, candidateID string, ch planner.BlockChange, ifMatch planner.IfMatch) (*planner.BlockDetail, error) {
	if (ch.Start == nil) != (ch.End == nil) {
		return nil, &planner.Error{Code: planner.CodeInvalidRequest, Detail: "start_time and end_time go together.",
			Fields: []planner.FieldError{{Field: "start_time", Reason: "must be given with end_time"}}}
	}
	var out *planner.BlockDetail
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		var cur struct {
			ID      string         `db:"id"`
			Day     int            `db:"day"`
			Start   sqlTime        `db:"start_time"`
			End     sqlTime        `db:"end_time"`
			Version int            `db:"version"`
			Places  pq.StringArray `db:"places"`
			Names   placeNames     `db:"names"`
		}
		if planner.ValidID(candidateID) {
			err = tx.GetContext(ctx, &cur, `
				SELECT b.id, d.day, b.start_time, b.end_time, b.version, `+blockPlacesColumn+`, `+blockNamesColumn+timeBlockFrom+`
				JOIN candidates c ON c.time_block_id = b.id
				WHERE c.id = $1 AND b.plan_id = $2
				FOR UPDATE OF b`, candidateID, planID)
		}
		if !planner.ValidID(candidateID) || errors.Is(err, sql.ErrNoRows) {
			return blockNotFound()
		}
		if err != nil {
			return err
		}
		if !ifMatch.Allows(cur.Version) {
			now, err := blockDetail(ctx, tx, planID, me.ID, candidateID)
			if err != nil {
				return err
			}
			return planner.Stale("The block was changed since you read it; nothing was changed. current holds it as it is now.", now)
		}
		from := planner.Slot{Day: cur.Day, Start: planner.TimeOfDay(cur.Start), End: planner.TimeOfDay(cur.End)}
		to := from
		if ch.Day != nil {
			to.Day = *ch.Day
		}
		if ch.Start != nil {
			to.Start, to.End = *ch.Start, *ch.End
		}
		moved := to != from
		if moved { // the move counts the new version
			if err := reattachAdditional(ctx, tx, cur.ID); err != nil {
				return err
			}
			if err := moveTimeBlock(ctx, tx, planID, cur.ID, to); err != nil {
				return err
			}
			if err := db.record(ctx, tx, planDid(planID, userID, planner.ActBlockMoved, planner.TargetTimeBlock, cur.ID, planner.Details{
				Places: cur.Places, Names: cur.Names, Day: to.Day, Start: to.Start.HHMM(), End: to.End.HHMM(),
				FromDay: from.Day, FromStart: from.Start.HHMM(), FromEnd: from.End.HHMM()})); err != nil {
				return err
			}
		}
		if ch.Memo != nil || ch.FixedTime != nil || !moved && (ch.Day != nil || ch.Start != nil) {
			memo := ""
			if ch.Memo != nil {
				memo = *ch.Memo
			}
			// A move counted the new version already.
			_, err := tx.ExecContext(ctx, `
				WITH memo AS (
				    UPDATE candidates SET memo = $3, updated_at = clock_timestamp() WHERE id = $2 AND $4)
				UPDATE time_blocks SET version = version + CASE WHEN $5 THEN 0 ELSE 1 END,
				       fixed_time = COALESCE($6::boolean, fixed_time)
				WHERE id = $1`,
				cur.ID, candidateID, memo, ch.Memo != nil, moved, ch.FixedTime)
			if err != nil {
				return err
			}
		}
		out, err = blockDetail(ctx, tx, planID, me.ID, candidateID)
		if err == nil && moved {
			out.MovedFrom = &from
		}
		return err
	})
	return out, err
}

// moveTimeBlock puts a time block at slot to: PLAN_DAY_NOT_FOUND for a day the plan does not
// have, else the conflict errors.
func moveTimeBlock(ctx context.Context, tx *sqlx.Tx, planID, id string, to planner.Slot) error {
	var dayID string
	err := tx.GetContext(ctx, &dayID, `SELECT id FROM plan_days WHERE plan_id = $1 AND day = $2`, planID, to.Day)
	if errors.Is(err, sql.ErrNoRows) {
		return planner.Errorf(planner.CodePlanDayNotFound, "The plan has no day %d.", to.Day)
	}
	if err != nil {
		return err
	}
	return placeTimeBlock(ctx, tx, dayID, id, to.Start, to.End, func() error {
		_, err := tx.ExecContext(ctx, `
			UPDATE time_blocks SET plan_day_id = $2, start_time = $3, end_time = $4, version = version + 1, updated_at = now()
			WHERE id = $1`,
			id, dayID, sqlTime(to.Start), sqlTime(to.End))
		return err
	})
}

// deletionKept is how long a deleted time block can be restored.
const deletionKept = "10 minutes"

// DeleteTimeBlock deletes a time block with its candidates, their opinions and expenses;
// additional expenses placed after it move to the start of its day. What it deletes is kept
// for deletionKept as a snapshot RestoreTimeBlock can put back; the answer names it, with the
// block as it was. Checks, in order: PLAN_NOT_FOUND, FORBIDDEN_NOT_MEMBER, BLOCK_NOT_FOUND,
// PRECONDITION_FAILED (ifMatch).
func (db *DB) DeleteTimeBlock(ctx context.Context, userID, planID, timeBlockID string, ifMatch planner.IfMatch) (*planner.Deletion, error) {
	var out *planner.Deletion
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		if _, _, err := lockTimeBlock(ctx, tx, planID, me.ID, timeBlockID, ifMatch); err != nil {
			return err
		}
		block, err := loadTimeBlock(ctx, tx, planID, me.ID, timeBlockID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM deleted_time_blocks WHERE deleted_at < now() - interval '`+deletionKept+`'`); err != nil {
			return err
		}
		id := planner.NewID()
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO deleted_time_blocks (id, plan_id, deleted_by, snapshot)
			SELECT $3, b.plan_id, $4, jsonb_build_object(
			    'block', to_jsonb(b),
			    'candidates', (SELECT COALESCE(jsonb_agg(to_jsonb(c)), '[]') FROM candidates c WHERE c.time_block_id = b.id),
			    'opinions', (SELECT COALESCE(jsonb_agg(to_jsonb(o)), '[]') FROM opinions o JOIN candidates c ON c.id = o.candidate_id WHERE c.time_block_id = b.id),
			    'expenses', (SELECT COALESCE(jsonb_agg(to_jsonb(e)), '[]') FROM expenses e JOIN candidates c ON c.id = e.candidate_id WHERE c.time_block_id = b.id),
			    'expense_items', (SELECT COALESCE(jsonb_agg(to_jsonb(i)), '[]') FROM expense_items i JOIN expenses e ON e.id = i.expense_id
			                      JOIN candidates c ON c.id = e.candidate_id WHERE c.time_block_id = b.id),
			    'following', (SELECT COALESCE(jsonb_agg(jsonb_build_object('id', e.id, 'rank', e.rank)), '[]') FROM expenses e WHERE e.after_time_block_id = b.id))
			FROM time_blocks b WHERE b.id = $1 AND b.plan_id = $2`, timeBlockID, planID, id, me.ID); err != nil {
			return err
		}
		was, err := blockFacts(ctx, tx, planID, timeBlockID, "")
		if err != nil {
			return err
		}
		if err := reattachAdditional(ctx, tx, timeBlockID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM time_blocks WHERE id = $1`, timeBlockID); err != nil {
			return err
		}
		out = &planner.Deletion{ID: id, Block: block}
		return db.record(ctx, tx, planDid(planID, userID, planner.ActBlockRemoved, planner.TargetTimeBlock, timeBlockID, was).toOthers(paths.Plan(planID), ""))
	})
	return out, err
}

// RestoreTimeBlock puts a deleted time block back as it was, with the same ids: its
// candidates (a candidate whose collection place is gone meanwhile keeps its place), their
// opinions, their expenses with items, and the additional expenses that followed it, back in
// their places. A deletion is restored once, by any member, within deletionKept:
// DELETION_NOT_FOUND otherwise; PLAN_DAY_NOT_FOUND when its day is gone; TIME_BLOCK_OVERLAP
// when its time was taken meanwhile.
func (db *DB) RestoreTimeBlock(ctx context.Context, userID, planID, deletionID string) (*planner.TimeBlock, error) {
	var out *planner.TimeBlock
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		var snapshot []byte
		err = sql.ErrNoRows
		if planner.ValidID(deletionID) {
			err = tx.GetContext(ctx, &snapshot, `
				DELETE FROM deleted_time_blocks WHERE id = $1 AND plan_id = $2 AND deleted_at >= now() - interval '`+deletionKept+`'
				RETURNING snapshot`, deletionID, planID)
		}
		if errors.Is(err, sql.ErrNoRows) {
			return planner.Errorf(planner.CodeDeletionNotFound, "There is nothing to undo: the block was restored already, or deleted too long ago.")
		}
		if err != nil {
			return err
		}
		var block struct {
			ID        string `db:"id"`
			DayExists bool   `db:"day_exists"`
		}
		if err := tx.GetContext(ctx, &block, `
			SELECT $1::jsonb->'block'->>'id' AS id,
			       EXISTS (SELECT 1 FROM plan_days WHERE id = $1::jsonb->'block'->>'plan_day_id' AND plan_id = $2) AS day_exists`,
			snapshot, planID); err != nil {
			return err
		}
		if !block.DayExists {
			return planner.Errorf(planner.CodePlanDayNotFound, "The block's day is no longer part of the plan.")
		}
		for _, q := range []string{
			// A snapshot taken before migration 00035 has no fixed_time.
			`INSERT INTO time_blocks SELECT * FROM jsonb_populate_record(NULL::time_blocks, '{"fixed_time": false}'::jsonb || ($1::jsonb->'block'))`,
			// Back is a change: a version sent before the deletion no longer matches.
			`UPDATE time_blocks SET version = version + 1 WHERE id = $1::jsonb->'block'->>'id'`,
			`INSERT INTO candidates
			 SELECT (jsonb_populate_record(NULL::candidates, c || CASE
			     WHEN EXISTS (SELECT 1 FROM collection_places cp WHERE cp.id = c->>'collection_place_id') THEN '{}'::jsonb
			     ELSE '{"collection_place_id": null}'::jsonb END)).*
			 FROM jsonb_array_elements($1::jsonb->'candidates') c`,
			`INSERT INTO opinions SELECT * FROM jsonb_populate_recordset(NULL::opinions, $1::jsonb->'opinions')`,
			`INSERT INTO expenses SELECT * FROM jsonb_populate_recordset(NULL::expenses, $1::jsonb->'expenses')`,
			`INSERT INTO expense_items SELECT * FROM jsonb_populate_recordset(NULL::expense_items, $1::jsonb->'expense_items')`,
			`UPDATE expenses e SET after_time_block_id = $1::jsonb->'block'->>'id', rank = f.rank, updated_at = now()
			 FROM jsonb_to_recordset($1::jsonb->'following') AS f(id text, rank numeric)
			 WHERE e.id = f.id AND e.kind = 'ADDITIONAL' AND e.plan_day_id = $1::jsonb->'block'->>'plan_day_id'`,
		} {
			if _, err := tx.ExecContext(ctx, q, snapshot); err != nil {
				return err
			}
		}
		if out, err = loadTimeBlock(ctx, tx, planID, me.ID, block.ID); err != nil {
			return err
		}
		return db.record(ctx, tx, planDid(planID, userID, planner.ActBlockRestored, planner.TargetTimeBlock, out.ID, planner.BlockDetails(out)).
			toOthers(paths.Day(planID, out.Day.Day), ""))
	})
	return out, err
}

// lockTimeBlock locks a time block of a plan so that changes to its candidates and selection
// apply one after the other, and returns its type and candidate count: BLOCK_NOT_FOUND when
// the plan has no such block, PRECONDITION_FAILED (with the block as it is now, as member me
// sees it) when its version is not the one ifMatch expects.
func lockTimeBlock(ctx context.Context, tx *sqlx.Tx, planID, me, timeBlockID string, ifMatch planner.IfMatch) (planner.BlockType, int, error) {
	var r struct {
		Type    string `db:"type"`
		Version int    `db:"version"`
	}
	if planner.ValidID(timeBlockID) {
		err := tx.GetContext(ctx, &r, `SELECT type, version FROM time_blocks WHERE id = $1 AND plan_id = $2 FOR UPDATE`, timeBlockID, planID)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return "", 0, err
		}
	}
	if r.Type == "" {
		return "", 0, blockNotFound()
	}
	if !ifMatch.Allows(r.Version) {
		now, err := loadTimeBlock(ctx, tx, planID, me, timeBlockID)
		if err != nil {
			return "", 0, err
		}
		return "", 0, planner.Stale("The block was changed since you read it; nothing was changed. current holds it as it is now.", now)
	}
	typ := r.Type
	// Read after the lock, so it counts what concurrent changes committed.
	var n int
	err := tx.GetContext(ctx, &n, `SELECT count(*) FROM candidates WHERE time_block_id = $1`, timeBlockID)
	return planner.BlockType(typ), n, err
}

// candidateIn checks that a candidate of the plan belongs to the time block and tells whether
// it is selected: BLOCK_NOT_FOUND when the plan has no such candidate,
// BLOCK_NOT_IN_TIME_BLOCK when it belongs to another time block.
func candidateIn(ctx context.Context, tx *sqlx.Tx, planID, timeBlockID, candidateID string) (selected bool, err error) {
	var r struct {
		TimeBlockID string `db:"time_block_id"`
		Selected    bool   `db:"selected"`
	}
	if planner.ValidID(candidateID) {
		err = tx.GetContext(ctx, &r, `
			SELECT c.time_block_id, c.selected FROM candidates c JOIN time_blocks b ON b.id = c.time_block_id
			WHERE c.id = $1 AND b.plan_id = $2`, candidateID, planID)
	}
	switch {
	case !planner.ValidID(candidateID) || errors.Is(err, sql.ErrNoRows):
		return false, blockNotFound()
	case err != nil:
		return false, err
	case r.TimeBlockID != timeBlockID:
		return false, planner.Errorf(planner.CodeBlockNotInTimeBlock, "The block belongs to another time block.")
	}
	return r.Selected, nil
}

// AddCandidates adds places to a PLACE time block as candidates, from collections linked to
// the plan (collectionPlaceIDs) or by place id (placeIDs); places already in the block are
// skipped. Adding to a DIRECT block makes it PENDING (nothing selected); a FIXED block keeps
// its selection. Checks, in order: PLAN_NOT_FOUND, FORBIDDEN_NOT_MEMBER, BLOCK_NOT_FOUND,
// CANNOT_ADD_CANDIDATE_TO_FREE_BLOCK, then COLLECTION_PLACE_NOT_FOUND,
// PLAN_COLLECTION_NOT_FOUND and PLACE_NOT_FOUND.
func (db *DB) AddCandidates(ctx context.Context, userID, planID, timeBlockID string, collectionPlaceIDs, placeIDs []string) (*planner.TimeBlock, error) {
	return db.addCandidates(ctx, userID, planID, timeBlockID, func(tx *sqlx.Tx, _ string) ([]newCandidate, error) {
		fromCollections, err := placesOfCollectionPlaces(ctx, tx, planID, collectionPlaceIDs)
		if err != nil {
			return nil, err
		}
		byPlace, err := existingPlaces(ctx, tx, planID, placeIDs)
		if err != nil {
			return nil, err
		}
		return append(fromCollections, byPlace...), nil
	})
}

// AddCandidateFromSearch adds a place found by search to a PLACE time block as a candidate,
// the place first joining the plan's own collection (see collectForPlan), in one transaction;
// AddCandidates's checks, PLACE_NOT_FOUND for the place.
func (db *DB) AddCandidateFromSearch(ctx context.Context, userID, planID, timeBlockID, placeID string) (*planner.TimeBlock, error) {
	return db.addCandidates(ctx, userID, planID, timeBlockID, func(tx *sqlx.Tx, memberID string) ([]newCandidate, error) {
		c, err := collectForPlan(ctx, tx, planID, memberID, userID, placeID)
		return []newCandidate{c}, err
	})
}

// addCandidates adds the candidates resolve finds (given the user's plan membership id) to a
// PLACE time block, once the plan, membership and time block are checked.
func (db *DB) addCandidates(ctx context.Context, userID, planID, timeBlockID string, resolve func(tx *sqlx.Tx, memberID string) ([]newCandidate, error)) (*planner.TimeBlock, error) {
	var out *planner.TimeBlock
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		typ, before, err := lockTimeBlock(ctx, tx, planID, me.ID, timeBlockID, planner.AnyVersion)
		if err != nil {
			return err
		}
		if typ == planner.BlockFree {
			return planner.Errorf(planner.CodeCannotAddCandidateToFreeBlock, "A free-time block holds no places.")
		}
		cs, err := resolve(tx, me.ID)
		if err != nil {
			return err
		}
		if err := insertCandidates(ctx, tx, planID, timeBlockID, me.ID, cs, true); err != nil {
			return err
		}
		if before <= 1 {
			// Was DIRECT: one candidate is selected, several are PENDING.
			_, err := tx.ExecContext(ctx, `
				UPDATE candidates SET selected = (SELECT count(*) = 1 FROM candidates WHERE time_block_id = $1)
				WHERE time_block_id = $1`, timeBlockID)
			if err != nil {
				return err
			}
		}
		if out, err = loadTimeBlock(ctx, tx, planID, me.ID, timeBlockID); err != nil {
			return err
		}
		added := out.Candidates[before:] // candidates are in creation order
		if len(added) == 0 {
			return nil
		}
		h := planDid(planID, userID, planner.ActCandidateAdded, planner.TargetCandidate, added[0].ID, planner.CandidateDetails(out, added[0].ID))
		for _, c := range added[1:] {
			h = h.also(c.ID, planner.CandidateDetails(out, c.ID))
		}
		return db.record(ctx, tx, h.toOthers(paths.Day(planID, out.Day.Day), "time_block:"+timeBlockID))
	})
	return out, err
}

// ChangeSelection makes a candidate the selected one of its time block, clearing the earlier
// selection (the operation detailed in docs/API.md §Time blocks). Checks, in order: PLAN_NOT_FOUND,
// FORBIDDEN_NOT_MEMBER, BLOCK_NOT_FOUND (time block or candidate), BLOCK_NOT_IN_TIME_BLOCK,
// CANDIDATE_COUNT_INSUFFICIENT (fewer than two candidates). Selecting the selected candidate
// changes nothing; a change counts a new version of the time block, which ifMatch is checked
// against (PRECONDITION_FAILED, right after BLOCK_NOT_FOUND for the time block). Concurrent
// changes of one block apply one after the other (the block row is locked), so exactly one
// candidate is selected afterwards.
func (db *DB) ChangeSelection(ctx context.Context, userID, planID, timeBlockID, candidateID string, ifMatch planner.IfMatch) (*planner.TimeBlock, error) {
	var out *planner.TimeBlock
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		_, n, err := lockTimeBlock(ctx, tx, planID, me.ID, timeBlockID, ifMatch)
		if err != nil {
			return err
		}
		selected, err := candidateIn(ctx, tx, planID, timeBlockID, candidateID)
		if err != nil {
			return err
		}
		if n < 2 {
			return planner.Errorf(planner.CodeCandidateCountInsufficient, "A selection needs at least two candidates.")
		}
		var addedBy string
		if !selected {
			// candidates_one_selected is checked row by row: clear, then set.
			if _, err := tx.ExecContext(ctx, `UPDATE candidates SET selected = false WHERE time_block_id = $1 AND selected`, timeBlockID); err != nil {
				return err
			}
			if err := tx.GetContext(ctx, &addedBy, `
				WITH bumped AS (UPDATE time_blocks SET version = version + 1 WHERE id = $2)
				UPDATE candidates SET selected = true WHERE id = $1 RETURNING added_by`, candidateID, timeBlockID); err != nil {
				return err
			}
		}
		if out, err = loadTimeBlock(ctx, tx, planID, me.ID, timeBlockID); err != nil || selected {
			return err
		}
		return db.record(ctx, tx, planDid(planID, userID, planner.ActCandidateConfirmed, planner.TargetCandidate, candidateID, planner.CandidateDetails(out, candidateID)).
			toMember(addedBy, paths.Day(planID, out.Day.Day), "time_block:"+timeBlockID))
	})
	return out, err
}

// Candidates lists a time block's candidates with their expense items, for comparing them.
func (db *DB) Candidates(ctx context.Context, userID, planID, timeBlockID string) (*planner.CandidateList, error) {
	return db.candidateList(ctx, userID, planID, timeBlockID, false)
}

// Discussion is Candidates with every opinion on the candidates and its author (the candidate
// picker), in a fixed number of statements however many candidates and opinions there are.
func (db *DB) Discussion(ctx context.Context, userID, planID, timeBlockID string) (*planner.CandidateList, error) {
	return db.candidateList(ctx, userID, planID, timeBlockID, true)
}

func (db *DB) candidateList(ctx context.Context, userID, planID, timeBlockID string, withOpinions bool) (*planner.CandidateList, error) {
	var out *planner.CandidateList
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planReader(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		var rows []struct {
			timeBlockRow
			PlanTitle string `db:"plan_title"`
		}
		if planner.ValidID(timeBlockID) {
			err = tx.SelectContext(ctx, &rows, `
				SELECT `+timeBlockColumns+`, p.title AS plan_title`+timeBlockFrom+` JOIN plans p ON p.id = b.plan_id
				WHERE b.id = $1 AND b.plan_id = $2`, timeBlockID, planID)
			if err != nil {
				return err
			}
		}
		if len(rows) == 0 {
			return blockNotFound()
		}
		r := rows[0]
		byBlock, err := candidates(ctx, tx, me.ID, []string{r.ID}, "")
		if err != nil {
			return err
		}
		out = &planner.CandidateList{
			TimeBlockID: r.ID, PlanTitle: r.PlanTitle, Currency: me.Currency, Day: r.DayInfo,
			Start: planner.TimeOfDay(r.Start), End: planner.TimeOfDay(r.End), Version: r.Version,
		}
		if out.Candidates, err = withExpenses(ctx, tx, byBlock[r.ID]); err != nil || !withOpinions {
			return err
		}
		out.Opinions, err = selectOpinions(ctx, tx, `o.candidate_id IN (SELECT id FROM candidates WHERE time_block_id = $1)`, r.ID)
		return err
	})
	return out, err
}

// withExpenses adds each candidate's expense and its items, in one query.
func withExpenses(ctx context.Context, tx *sqlx.Tx, cs []planner.Candidate) ([]planner.CandidateExpense, error) {
	out := make([]planner.CandidateExpense, len(cs))
	index := make(map[string]int, len(cs))
	ids := make([]string, len(cs))
	for i, c := range cs {
		out[i] = planner.CandidateExpense{Candidate: c, Items: []planner.ExpenseItem{}}
		index[c.ID], ids[i] = i, c.ID
	}
	var rows []struct {
		CandidateID string `db:"candidate_id"`
		ExpenseID   string `db:"expense_id"`
		ItemID      string `db:"item_id"`
		Name        string `db:"name"`
		Cost        int64  `db:"cost"`
	}
	err := tx.SelectContext(ctx, &rows, `
		SELECT e.candidate_id, e.id AS expense_id, COALESCE(i.id, '') AS item_id,
		       COALESCE(i.name, '') AS name, COALESCE(i.cost, 0) AS cost
		FROM expenses e LEFT JOIN expense_items i ON i.expense_id = e.id
		WHERE e.candidate_id = ANY($1)
		ORDER BY i.position, i.id`, pq.Array(ids))
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		c := &out[index[r.CandidateID]]
		c.ExpenseID = r.ExpenseID
		if r.ItemID != "" {
			c.Items = append(c.Items, planner.ExpenseItem{ID: r.ItemID, Name: r.Name, Cost: r.Cost})
		}
	}
	return out, nil
}

// DeleteCandidate removes a candidate from its time block, which counts a new version of the
// block. When one candidate is left it becomes the selected one (DIRECT); when none is left
// the time block is deleted. Checks, in order: PLAN_NOT_FOUND, FORBIDDEN_NOT_MEMBER,
// BLOCK_NOT_FOUND, PRECONDITION_FAILED (ifMatch against the time block's version),
// BLOCK_NOT_IN_TIME_BLOCK.
func (db *DB) DeleteCandidate(ctx context.Context, userID, planID, timeBlockID, candidateID string, ifMatch planner.IfMatch) error {
	return db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		typ, n, err := lockTimeBlock(ctx, tx, planID, me.ID, timeBlockID, ifMatch)
		if err != nil {
			return err
		}
		if _, err := candidateIn(ctx, tx, planID, timeBlockID, candidateID); err != nil {
			return err
		}
		was, err := blockFacts(ctx, tx, planID, timeBlockID, candidateID)
		if err != nil {
			return err
		}
		if n == 1 { // the last one: the time block goes
			if err := reattachAdditional(ctx, tx, timeBlockID); err != nil {
				return err
			}
			if _, err = tx.ExecContext(ctx, `DELETE FROM time_blocks WHERE id = $1`, timeBlockID); err != nil {
				return err
			}
			return db.record(ctx, tx, planDid(planID, userID, planner.ActBlockRemoved, planner.TargetTimeBlock, timeBlockID, was).toOthers(paths.Plan(planID), ""))
		}
		if _, err := tx.ExecContext(ctx, `
			WITH removed AS (DELETE FROM candidates WHERE id = $1)
			UPDATE time_blocks SET version = version + 1 WHERE id = $2`, candidateID, timeBlockID); err != nil {
			return err
		}
		if n == 2 && typ == planner.BlockPlace {
			if _, err = tx.ExecContext(ctx, `UPDATE candidates SET selected = true WHERE time_block_id = $1`, timeBlockID); err != nil {
				return err
			}
		}
		return db.record(ctx, tx, planDid(planID, userID, planner.ActCandidateRemoved, planner.TargetCandidate, candidateID,
			planner.Details{Place: was.Place, Names: planner.NamesOf(was.Place, was.Names[was.Place]), Day: was.Day, Start: was.Start, End: was.End}))
	})
}

// LastChangedBy is the nickname of the member who last changed a time block of the plan (the
// block or any of its candidates), from the plan's change feed; "" when the feed no longer
// holds it (or it was a member since withdrawn). Members and guests may ask.
func (db *DB) LastChangedBy(ctx context.Context, userID, planID, timeBlockID string) (string, error) {
	var out string
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planReader(ctx, tx, planID, userID); err != nil {
			return err
		}
		err := tx.GetContext(ctx, &out, `
			SELECT COALESCE(m.nickname, '') FROM events e
			LEFT JOIN plan_members m ON m.plan_id = $1 AND m.user_id = e.actor
			WHERE e.topic = 'plan:' || $1
			  AND (e.object_id = $2 OR e.object_id IN (SELECT id FROM candidates WHERE time_block_id = $2))
			ORDER BY e.id DESC LIMIT 1`, planID, timeBlockID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	return out, err
}
