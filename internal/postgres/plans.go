package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/money"
	"tripplan/internal/planner"
	"tripplan/internal/timezone"
)

// planColumns selects a plan (alias p) with its counts.
const planColumns = `
	SELECT p.id, p.title, p.start_date, p.end_date, p.time_zone, p.time_zone_source, p.currency, p.version,
	       p.destination_name, p.destination_lat, p.destination_lng,
	       (SELECT count(*) FROM plan_members x WHERE x.plan_id = p.id AND x.left_at IS NULL) AS member_count,
	       (SELECT count(*) FROM plan_collections x WHERE x.plan_id = p.id) AS collection_count`

// thumbnailSQL is the thumbnail of plan p: the first photo of its blocks' places by day and
// time, else of its linked collections' places, else ”. It is looked for day by day,
// stopping at the first day that has one, not sorted out of every block of the plan — but a
// plan whose places have no photo is read through, every candidate of every day; the plan
// list keeps what it found (dayCache.thumbnail).
const thumbnailSQL = `
	COALESCE(
	    (SELECT t.photo FROM plan_days d CROSS JOIN LATERAL (
	         SELECT pl.photos[1] AS photo FROM time_blocks b
	         JOIN candidates c ON c.time_block_id = b.id
	         JOIN places pl ON pl.id = c.place_id
	         WHERE b.plan_day_id = d.id AND cardinality(pl.photos) > 0
	         ORDER BY b.start_time, c.selected DESC, c.created_at, c.id LIMIT 1) t
	     WHERE d.plan_id = p.id ORDER BY d.day LIMIT 1),
	    (SELECT pl.photos[1] FROM plan_collections pc
	     JOIN collection_places cp ON cp.collection_id = pc.collection_id
	     JOIN places pl ON pl.id = cp.place_id
	     WHERE pc.plan_id = p.id AND cardinality(pl.photos) > 0
	     ORDER BY pc.created_at, cp.created_at, cp.id LIMIT 1),
	    '')`

// planSQL selects a plan (alias p) with its counts and thumbnail.
const planSQL = planColumns + `, ` + thumbnailSQL + ` AS thumbnail`

// planRow is a plan as planSQL selects it: the destination's columns are NULL when it has none.
type planRow struct {
	planner.Plan
	DestinationName sql.NullString  `db:"destination_name"`
	DestinationLat  sql.NullFloat64 `db:"destination_lat"`
	DestinationLng  sql.NullFloat64 `db:"destination_lng"`
}

func (r planRow) plan() planner.Plan {
	p := r.Plan
	if r.DestinationName.Valid {
		p.Destination = &planner.Destination{Name: r.DestinationName.String, Lat: r.DestinationLat.Float64, Lng: r.DestinationLng.Float64}
	}
	return p
}

// destinationArgs are a destination's name, latitude and longitude as query arguments: NULLs
// for none.
func destinationArgs(d *planner.Destination) (name, lat, lng any) {
	if d == nil {
		return nil, nil, nil
	}
	return d.Name, d.Lat, d.Lng
}

// destinationZone is the time zone at the destination, "" for none (no destination, or at sea).
func destinationZone(d *planner.Destination) string {
	if d == nil {
		return ""
	}
	return timezone.At(d.Lat, d.Lng)
}

// memberRow is the caller's membership as found by an outer join: NULL when not a member.
type memberRow struct {
	ID        sql.NullString `db:"member_id"`
	Role      sql.NullString `db:"member_role"`
	Actor     string         `db:"actor"`      // see actorColumn
	GuestLink bool           `db:"guest_link"` // see guestLinkColumn
	Currency  string         `db:"currency"`   // a plan's, which its amounts are in
}

// actorColumn, selected by the membership checks, names the user as the transaction's actor
// for the events its changes record (migration 00005), at no extra round trip.
const actorColumn = `set_config('tripplan.actor', $2, true) AS actor`

// guestLinkColumn, selected by the membership checks with $1 the resource and $3 the link id
// of a guest viewer ("" for anyone else), says whether the guest's link still works: a revoked
// or expired link admits nobody, checked on every read and never cached. refColumn is the
// share_links column that names the resource.
func guestLinkColumn(refColumn string) string {
	return `($3 <> '' AND EXISTS (SELECT 1 FROM share_links s
	        WHERE s.id = $3 AND s.` + refColumn + ` = $1 AND s.expires_at > now())) AS guest_link`
}

// guestLink is the link id of a guest viewer, "" for anyone else: guestLinkColumn's $3.
func guestLink(viewer string) string {
	g, _ := planner.ParseGuestViewer(viewer)
	return g.LinkID
}

// writer refuses a guest: reads may admit the guest of a resource, changes never do. Every
// store method that writes on behalf of a caller, or reads what only members see, calls it
// (through planMember and collectionMember, or directly). The routes of plans and collections
// admit guests and leave this decision here.
func writer(userID string) error {
	if planner.IsGuestViewer(userID) {
		return planner.Errorf(planner.CodeGuestForbidden, "Guests can look but not change anything; sign in to join.")
	}
	return nil
}

// planMembership turns the result of a plan membership lookup into the membership or
// PLAN_NOT_FOUND (no row) / the outsider's answer (no member).
func planMembership(r memberRow, err error, planID, viewer string) (membership, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return membership{}, planNotFound()
	}
	if err != nil {
		return membership{}, err
	}
	if !r.ID.Valid {
		m, err := outsider(planner.SharePlan, planID, viewer, r.GuestLink)
		m.Currency = r.Currency
		return m, err
	}
	return membership{ID: r.ID.String, Role: planner.Role(r.Role.String), Currency: r.Currency}, nil
}

func planNotFound() error { return planner.Errorf(planner.CodePlanNotFound, "No such plan.") }

// planMember is the user's active membership of an existing plan, for changes and for what
// only members may read: GUEST_FORBIDDEN for a guest, PLAN_NOT_FOUND when there is no such
// plan, FORBIDDEN_NOT_MEMBER when the user is not an active member.
func planMember(ctx context.Context, q sqlx.QueryerContext, planID, userID string) (membership, error) {
	if err := writer(userID); err != nil {
		return membership{}, err
	}
	return planReader(ctx, q, planID, userID)
}

// planReader is planMember for reads a guest of the plan may make too: the guest's membership
// has role GUEST and no id while their link works (see outsider).
func planReader(ctx context.Context, q sqlx.QueryerContext, planID, viewer string) (membership, error) {
	if !planner.ValidID(planID) {
		return membership{}, planNotFound()
	}
	var r memberRow
	err := sqlx.GetContext(ctx, q, &r, `
		SELECT m.id AS member_id, m.role AS member_role, `+actorColumn+`, `+guestLinkColumn("plan_id")+`, p.currency
		FROM plans p
		LEFT JOIN plan_members m ON m.plan_id = p.id AND m.user_id = $2 AND m.left_at IS NULL
		WHERE p.id = $1`, planID, viewer, guestLink(viewer))
	return planMembership(r, err, planID, viewer)
}

// planDay is a day of a plan.
type planDay struct {
	ID string `db:"day_id"`
	planner.DayInfo
}

// planMemberDay is planMember and then day N of the plan, in one query: GUEST_FORBIDDEN,
// PLAN_NOT_FOUND, FORBIDDEN_NOT_MEMBER, then PLAN_DAY_NOT_FOUND.
func planMemberDay(ctx context.Context, q sqlx.QueryerContext, planID, userID string, day int) (membership, planDay, error) {
	if err := writer(userID); err != nil {
		return membership{}, planDay{}, err
	}
	return planReaderDay(ctx, q, planID, userID, day)
}

// planReaderDay is planMemberDay for reads a guest of the plan may make too.
func planReaderDay(ctx context.Context, q sqlx.QueryerContext, planID, viewer string, day int) (membership, planDay, error) {
	if !planner.ValidID(planID) {
		return membership{}, planDay{}, planNotFound()
	}
	var r struct {
		memberRow
		planDay
	}
	err := sqlx.GetContext(ctx, q, &r, `
		SELECT m.id AS member_id, m.role AS member_role, `+actorColumn+`, `+guestLinkColumn("plan_id")+`, p.currency,
		       COALESCE(d.id, '') AS day_id, COALESCE(d.day, 0) AS day, COALESCE(d.date, p.start_date) AS date
		FROM plans p
		LEFT JOIN plan_members m ON m.plan_id = p.id AND m.user_id = $2 AND m.left_at IS NULL
		LEFT JOIN plan_days d ON d.plan_id = p.id AND d.day = $4
		WHERE p.id = $1`, planID, viewer, guestLink(viewer), day)
	m, err := planMembership(r.memberRow, err, planID, viewer)
	if err != nil {
		return m, planDay{}, err
	}
	if r.planDay.ID == "" {
		return m, planDay{}, planner.Errorf(planner.CodePlanDayNotFound, "The plan has no day %d.", day)
	}
	return m, r.planDay, nil
}

func getPlan(ctx context.Context, q sqlx.QueryerContext, planID string) (*planner.Plan, error) {
	var row planRow
	if err := sqlx.GetContext(ctx, q, &row, planSQL+` FROM plans p WHERE p.id = $1`, planID); err != nil {
		return nil, err
	}
	out := row.plan()
	return &out, nil
}

// CreatePlan creates a plan owned by the user, with its days 1..N and its budget; more than
// 30 days, or an end before the start, is INVALID_DATE_RANGE. Its time zone is the one given,
// else its destination's, else UTC until its first place is added.
func (db *DB) CreatePlan(ctx context.Context, userID string, in planner.PlanInput) (*planner.Plan, error) {
	if err := writer(userID); err != nil {
		return nil, err
	}
	days, err := in.Days()
	if err != nil {
		return nil, err
	}
	var out *planner.Plan
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		id := planner.NewID()
		name, lat, lng := destinationArgs(in.Destination)
		_, err := tx.ExecContext(ctx, `
			INSERT INTO plans (id, title, start_date, end_date, time_zone, time_zone_source,
			                   destination_name, destination_lat, destination_lng, currency)
			VALUES ($1, $2, $3, $4, COALESCE(NULLIF($5, ''), NULLIF($6, ''), 'UTC'),
			        CASE WHEN $5 <> '' THEN 'MEMBER' WHEN $6 <> '' THEN 'DESTINATION' ELSE 'DEFAULT' END,
			        $7, $8, $9, COALESCE(NULLIF($10, ''), 'KRW'))`,
			id, in.Title, in.StartDate.Format(time.DateOnly), in.EndDate.Format(time.DateOnly), in.TimeZone,
			destinationZone(in.Destination), name, lat, lng, in.Currency)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `
			INSERT INTO plan_members (id, plan_id, user_id, role, nickname, picture)
			SELECT $1, $2, u.id, 'OWNER', u.nickname, u.picture FROM users u WHERE u.id = $3 AND u.withdrawn_at IS NULL`,
			planner.NewID(), id, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return planner.Errorf(planner.CodeUserNotFound, "No such user.")
		}
		if err := addDays(ctx, tx, id, 1, days); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO budgets (id, plan_id) VALUES ($1, $2)`, planner.NewID(), id); err != nil {
			return err
		}
		out, err = getPlan(ctx, tx, id)
		return err
	})
	return out, err
}

// addDays adds days from..to of a plan, dated from its start date.
func addDays(ctx context.Context, tx *sqlx.Tx, planID string, from, to int) error {
	if from > to {
		return nil
	}
	ids := make([]string, to-from+1)
	for i := range ids {
		ids[i] = planner.NewID()
	}
	_, err := tx.ExecContext(ctx, `
		INSERT INTO plan_days (id, plan_id, day, date)
		SELECT u.id, p.id, $3 + u.n - 1, p.start_date + ($3 + u.n - 2)::int
		FROM plans p, unnest($2::text[]) WITH ORDINALITY AS u(id, n)
		WHERE p.id = $1`, planID, pq.Array(ids), from)
	return err
}

// Plans lists the plans the user is an active member of, newest membership first, one page;
// hasNext says whether more follow. The thumbnails come from the day cache when it keeps them
// and one statement for all of them confirms their plans unchanged since (cache.go), else
// from one more statement for the rest: three statements at most, whatever the page's size.
func (db *DB) Plans(ctx context.Context, userID string, page planner.Page) (out []planner.Plan, hasNext bool, err error) {
	defer named(&err)
	var rows []planRow
	err = db.SelectContext(ctx, &rows, planColumns+`
		FROM plan_members m JOIN plans p ON p.id = m.plan_id
		WHERE m.user_id = $1 AND m.left_at IS NULL
		ORDER BY m.joined_at DESC, p.id DESC
		LIMIT $2 OFFSET $3`, userID, page.Size+1, page.Offset())
	if err != nil {
		return nil, false, mapError(err)
	}
	if len(rows) > page.Size {
		rows, hasNext = rows[:page.Size], true
	}
	out = make([]planner.Plan, len(rows))
	photos := map[string]string{}
	kept := map[string]mark{} // the marks of the thumbnails the cache keeps
	var missing []string
	for i, r := range rows {
		out[i] = r.plan()
		if db.days != nil {
			if photo, m, ok := db.days.thumbnail(r.ID); ok {
				photos[r.ID], kept[r.ID] = photo, m
				continue
			}
		}
		missing = append(missing, r.ID)
	}
	if len(kept) > 0 {
		// Another instance's writes may not have reached this one's feed yet: the plans'
		// events say which kept thumbnails still hold.
		same, err := unchangedPlans(ctx, db, kept)
		if err != nil {
			return nil, false, mapError(err)
		}
		for plan := range kept {
			if !same[plan] {
				delete(photos, plan)
				missing = append(missing, plan)
			}
		}
	}
	if len(missing) > 0 {
		if err := db.findThumbnails(ctx, missing, photos); err != nil {
			return nil, false, mapError(err)
		}
	}
	for i := range out {
		out[i].Thumbnail = photos[out[i].ID]
	}
	return out, hasNext, nil
}

// findThumbnails looks for the plans' thumbnails, in one statement, adds them to photos and
// keeps them in the day cache, each with the plan's mark read in the same statement.
func (db *DB) findThumbnails(ctx context.Context, plans []string, photos map[string]string) error {
	stamps := map[string]stamp{} // of the thumbnails the cache may keep
	if db.days != nil {
		for _, plan := range plans {
			if at, ok := db.days.now(plan); ok { // before reading, so a change during the read is noticed
				stamps[plan] = at
			}
		}
	}
	var found []struct {
		ID    string `db:"id"`
		Photo string `db:"thumbnail"`
		mark
	}
	where, arg := oneOrAny(`p.id`, plans)
	if err := db.SelectContext(ctx, &found, `SELECT p.id, `+thumbnailSQL+` AS thumbnail, f.floor, m.count, m.max
		FROM (SELECT coalesce(max(id), 0) - $2 AS floor FROM events) f
		CROSS JOIN plans p
		CROSS JOIN LATERAL (SELECT count(e.id) AS count, coalesce(max(e.id), 0) AS max FROM events e
		                    WHERE e.topic = 'plan:' || p.id AND e.id > f.floor) m
		WHERE `+where, arg, catchUpWindow); err != nil {
		return err
	}
	for _, f := range found {
		photos[f.ID] = f.Photo
		if at, ok := stamps[f.ID]; ok {
			db.days.putThumbnail(f.ID, at, f.mark, f.Photo)
		}
	}
	return nil
}

// Plan loads one plan for a reader of it: an active member, or the guest of its link.
func (db *DB) Plan(ctx context.Context, userID, planID string) (*planner.Plan, error) {
	return db.plan(ctx, planReader, userID, planID)
}

// PlanToChange loads one plan for an active member, who may change it (the edit form's);
// a guest is GUEST_FORBIDDEN.
func (db *DB) PlanToChange(ctx context.Context, userID, planID string) (*planner.Plan, error) {
	return db.plan(ctx, planMember, userID, planID)
}

// plan loads one plan once access (planReader or planMember) admits the user.
func (db *DB) plan(ctx context.Context, access func(context.Context, sqlx.QueryerContext, string, string) (membership, error), userID, planID string) (*planner.Plan, error) {
	var out *planner.Plan
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := access(ctx, tx, planID, userID); err != nil {
			return err
		}
		var err error
		out, err = getPlan(ctx, tx, planID)
		return err
	})
	return out, err
}

// UpdatePlan renames a plan and changes its dates (any member). A change of dates is applied
// only when confirm is true: otherwise nothing changes and the answer says what would happen,
// listing the days that shrinking would delete with their block counts. Applied, shrinking
// deletes the removed days with everything on them; growing adds days; every day is
// re-dated from the new start; the plan counts a new version. ifMatch is checked against the
// plan's version under its lock, before anything else about the change (PRECONDITION_FAILED,
// with the plan as it is now).
func (db *DB) UpdatePlan(ctx context.Context, userID, planID string, in planner.PlanInput, confirm bool, ifMatch planner.IfMatch) (*planner.PlanUpdate, error) {
	days, err := in.Days()
	if err != nil {
		return nil, err
	}
	var out planner.PlanUpdate
	err = db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		// Locked, so concurrent date changes apply one after the other.
		var cur struct {
			Title   string    `db:"title"`
			Start   time.Time `db:"start_date"`
			End     time.Time `db:"end_date"`
			Version int       `db:"version"`
		}
		if err := tx.GetContext(ctx, &cur, `SELECT title, start_date, end_date, version FROM plans WHERE id = $1 FOR UPDATE`, planID); err != nil {
			return err
		}
		if !ifMatch.Allows(cur.Version) {
			now, err := getPlan(ctx, tx, planID)
			if err != nil {
				return err
			}
			return planner.Stale("The plan was changed since you read it; nothing was changed. current holds it as it is now.", now)
		}
		datesChange := !sameDate(cur.Start, in.StartDate) || !sameDate(cur.End, in.EndDate)
		if datesChange {
			oldDays := planner.Plan{StartDate: cur.Start, EndDate: cur.End}.DurationDays()
			out.Type = planner.CompareDays(oldDays, days)
			out.AffectedDays = []planner.AffectedDay{}
			err := tx.SelectContext(ctx, &out.AffectedDays, `
				SELECT d.day, count(b.id) AS block_count
				FROM plan_days d LEFT JOIN time_blocks b ON b.plan_day_id = d.id
				WHERE d.plan_id = $1 AND d.day > $2
				GROUP BY d.day ORDER BY d.day`, planID, days)
			if err != nil {
				return err
			}
			if !confirm {
				out.RequiresConfirmation = true
				return nil
			}
		}
		if in.Currency != "" && in.Currency != me.Currency {
			if err := rescaleAmounts(ctx, tx, planID, money.Stored(me.Currency), money.Stored(in.Currency)); err != nil {
				return err
			}
			// The budget reads in the new currency: a new version of it.
			if _, err := tx.ExecContext(ctx, `UPDATE budgets SET version = version + 1, updated_at = now() WHERE plan_id = $1`, planID); err != nil {
				return err
			}
		}
		if err := applyPlanChange(ctx, tx, planID, in, days); err != nil {
			return err
		}
		if in.Title != cur.Title {
			if err := db.record(ctx, tx, planDid(planID, userID, planner.ActPlanRenamed, planner.TargetPlan, planID, planner.Details{Title: in.Title, FromTitle: cur.Title})); err != nil {
				return err
			}
		}
		if datesChange {
			if err := db.record(ctx, tx, planDid(planID, userID, planner.ActPlanDatesChanged, planner.TargetPlan, planID, planner.Details{Title: in.Title,
				StartDate: in.StartDate.Format(time.DateOnly), EndDate: in.EndDate.Format(time.DateOnly)})); err != nil {
				return err
			}
		}
		out.Plan, err = getPlan(ctx, tx, planID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// applyPlanChange stores a plan's new title, dates, time zone and currency (when given) and
// destination (unless kept), and makes its days 1..days. A new destination gives the plan its zone when
// no member chose one.
func applyPlanChange(ctx context.Context, tx *sqlx.Tx, planID string, in planner.PlanInput, days int) error {
	name, lat, lng := destinationArgs(in.Destination)
	zone := ""
	if !in.KeepDestination {
		zone = destinationZone(in.Destination)
	}
	_, err := tx.ExecContext(ctx, `
		UPDATE plans SET title = $2, start_date = $3, end_date = $4, version = version + 1, updated_at = now(),
		    time_zone = CASE WHEN $5 <> '' THEN $5
		                     WHEN $6 <> '' AND time_zone_source <> 'MEMBER' THEN $6 ELSE time_zone END,
		    time_zone_source = CASE WHEN $5 <> '' THEN 'MEMBER'
		                            WHEN $6 <> '' AND time_zone_source <> 'MEMBER' THEN 'DESTINATION' ELSE time_zone_source END,
		    destination_name = CASE WHEN $7 THEN destination_name ELSE $8 END,
		    destination_lat = CASE WHEN $7 THEN destination_lat ELSE $9 END,
		    destination_lng = CASE WHEN $7 THEN destination_lng ELSE $10 END,
		    currency = COALESCE(NULLIF($11, ''), currency)
		WHERE id = $1`,
		planID, in.Title, in.StartDate.Format(time.DateOnly), in.EndDate.Format(time.DateOnly), in.TimeZone,
		zone, in.KeepDestination, name, lat, lng, in.Currency)
	if err != nil {
		return err
	}
	var have int
	if err := tx.GetContext(ctx, &have, `SELECT count(*) FROM plan_days WHERE plan_id = $1`, planID); err != nil {
		return err
	}
	// Deleting a day deletes its blocks with their candidates, opinions and expenses.
	if _, err := tx.ExecContext(ctx, `DELETE FROM plan_days WHERE plan_id = $1 AND day > $2`, planID, days); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `
		UPDATE plan_days d SET date = p.start_date + (d.day - 1)
		FROM plans p WHERE p.id = d.plan_id AND d.plan_id = $1`, planID); err != nil {
		return err
	}
	return addDays(ctx, tx, planID, have+1, days)
}

// sameDate reports whether a and b are the same calendar date.
func sameDate(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// DeletePlan deletes a plan with everything in it (its owner only), if it is at the version
// ifMatch expects (PRECONDITION_FAILED, with the plan as it is now).
func (db *DB) DeletePlan(ctx context.Context, userID, planID string, ifMatch planner.IfMatch) error {
	return db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		if _, err := planKind.owner(ctx, tx, planID, userID, planner.Errorf(planner.CodeForbiddenNotOwner, "Only the owner can delete the plan.")); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM plans WHERE id = $1 AND ($2 = 0 OR version = $2)`, planID, int(ifMatch))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			now, err := getPlan(ctx, tx, planID)
			if errors.Is(err, sql.ErrNoRows) { // deleted meanwhile
				return planNotFound()
			}
			if err != nil {
				return err
			}
			return planner.Stale("The plan was changed since you read it; nothing was changed. current holds it as it is now.", now)
		}
		return nil
	})
}

// PlanMembers lists a plan's active members, the owner first and then by join time, with the
// caller among them.
func (db *DB) PlanMembers(ctx context.Context, userID, planID string) (*planner.MemberGroup, error) {
	var g *planner.MemberGroup
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planReader(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		g, err = planKind.group(ctx, tx, planID, me.ID)
		return err
	})
	return g, err
}

// ChangePlanOwner hands the plan's ownership to another active member (the owner only).
func (db *DB) ChangePlanOwner(ctx context.Context, userID, planID, memberID string) error {
	return db.planTx(ctx, planID, func(tx *sqlx.Tx) error { return planKind.changeOwner(ctx, db, tx, planID, userID, memberID) })
}

// LeavePlan ends the user's membership of a plan; the owner must hand ownership over first
// (NEED_TO_DELEGATE_OWNERSHIP). What the member added stays.
func (db *DB) LeavePlan(ctx context.Context, userID, planID string) error {
	return db.planTx(ctx, planID, func(tx *sqlx.Tx) error { return planKind.leave(ctx, db, tx, planID, userID) })
}

// RemovePlanMember ends another member's membership (the owner only); the owner cannot
// remove themself (NEED_TO_DELEGATE_OWNERSHIP). What the member added stays.
func (db *DB) RemovePlanMember(ctx context.Context, userID, planID, memberID string) error {
	return db.planTx(ctx, planID, func(tx *sqlx.Tx) error { return planKind.remove(ctx, db, tx, planID, userID, memberID) })
}
