package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// collectionPlaceRow is a collection place with its place and who added it.
type collectionPlaceRow struct {
	CPID         string `db:"cp_id"`
	CollectionID string `db:"collection_id"`
	Memo         string `db:"memo"`
	Version      int    `db:"version"`
	ByID         string `db:"by_id"`
	ByNickname   string `db:"by_nickname"`
	ByPicture    string `db:"by_picture"`
	ByRole       string `db:"by_role"`
	placeRow
}

const collectionPlaceSQL = `SELECT ` + collectionPlaceColumns + collectionPlaceFrom

const collectionPlaceColumns = `cp.id AS cp_id, cp.collection_id, cp.memo, cp.version,
	ab.id AS by_id, ab.nickname AS by_nickname, ab.picture AS by_picture, ab.role AS by_role, ` + placeColumns

const collectionPlaceFrom = `
	FROM collection_places cp
	JOIN places p ON p.id = cp.place_id
	JOIN collection_members ab ON ab.id = cp.added_by`

// withPreferences fills picks and passes of the given collection places in one query; me is
// the caller's member id.
func withPreferences(ctx context.Context, q sqlx.QueryerContext, rows []collectionPlaceRow, me string) ([]planner.CollectionPlace, error) {
	out := make([]planner.CollectionPlace, len(rows))
	index := make(map[string]int, len(rows))
	ids := make([]string, len(rows))
	for i, r := range rows {
		out[i] = planner.CollectionPlace{
			ID: r.CPID, CollectionID: r.CollectionID, Memo: r.Memo, Place: r.placeRow.place(), Version: r.Version,
			AddedBy:      planner.Member{ID: r.ByID, Nickname: r.ByNickname, Picture: r.ByPicture, Role: planner.Role(r.ByRole)},
			Picked:       []planner.Member{},
			Passed:       []planner.Member{},
			MyPreference: planner.PreferenceNothing,
		}
		index[r.CPID], ids[i] = i, r.CPID
	}
	if len(rows) == 0 {
		return out, nil
	}
	var prefs []struct {
		CPID string `db:"collection_place_id"`
		Type string `db:"type"`
		planner.Member
	}
	where, places := oneOrAny(`pr.collection_place_id`, ids)
	err := sqlx.SelectContext(ctx, q, &prefs, `
		SELECT pr.collection_place_id, pr.type, m.id, m.nickname, m.picture, m.role
		FROM collection_place_preferences pr JOIN collection_members m ON m.id = pr.member_id
		WHERE `+where+` AND m.left_at IS NULL
		ORDER BY pr.created_at, m.id`, places)
	if err != nil {
		return nil, err
	}
	for _, p := range prefs {
		cp := &out[index[p.CPID]]
		if p.Type == string(planner.PreferencePick) {
			cp.Picked = append(cp.Picked, p.Member)
		} else {
			cp.Passed = append(cp.Passed, p.Member)
		}
		if p.Member.ID == me {
			cp.MyPreference = planner.Preference(p.Type)
		}
	}
	return out, nil
}

// loadCollectionPlace loads one place of a collection, or COLLECTION_PLACE_NOT_FOUND.
func loadCollectionPlace(ctx context.Context, tx *sqlx.Tx, collectionID, cpID, me string) (*planner.CollectionPlace, error) {
	var rows []collectionPlaceRow
	if planner.ValidID(cpID) {
		if err := tx.SelectContext(ctx, &rows, collectionPlaceSQL+` WHERE cp.id = $1 AND cp.collection_id = $2`, cpID, collectionID); err != nil {
			return nil, err
		}
	}
	if len(rows) == 0 {
		return nil, planner.Errorf(planner.CodeCollectionPlaceNotFound, "No such place in this collection.")
	}
	out, err := withPreferences(ctx, tx, rows, me)
	if err != nil {
		return nil, err
	}
	return &out[0], nil
}

// AddCollectionPlace adds a place (from search) to a collection; a place already there is
// COLLECTION_PLACE_ALREADY_EXISTS.
func (db *DB) AddCollectionPlace(ctx context.Context, userID, collectionID, placeID string) (*planner.CollectionPlace, error) {
	var out *planner.CollectionPlace
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionMember(ctx, tx, collectionID, userID)
		if err != nil {
			return err
		}
		var exists bool
		if planner.ValidID(placeID) {
			// A manually entered place belongs to the plan or collection it was entered in
			// (AddManualBlock, AddCustomPlaceFromJob): no collection can name it by id
			// (PLACE_NOT_FOUND, as if it did not exist).
			if err := tx.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM places WHERE id = $1 AND provider <> 'MANUAL')`, placeID); err != nil {
				return err
			}
		}
		if !exists {
			return planner.Errorf(planner.CodePlaceNotFound, "No such place.")
		}
		id := planner.NewID()
		_, err = tx.ExecContext(ctx, `
			INSERT INTO collection_places (id, collection_id, place_id, added_by) VALUES ($1, $2, $3, $4)`,
			id, collectionID, placeID, m.ID)
		if err != nil {
			if planner.ErrorCode(mapError(err)) == planner.CodeCollectionPlaceAlreadyExists {
				return planner.Errorf(planner.CodeCollectionPlaceAlreadyExists, "This place is already in the collection.")
			}
			return err
		}
		if out, err = loadCollectionPlace(ctx, tx, collectionID, id, m.ID); err != nil {
			return err
		}
		return db.record(ctx, tx, collectionDid(collectionID, userID, planner.ActPlaceAdded, planner.TargetCollectionPlace, id,
			planner.Details{Place: out.Place.Name, Names: planner.NamesOf(out.Place.Name, out.Place.Names)}).toOthers(paths.Collection(collectionID), ""))
	})
	return out, err
}

// CollectionPlaces lists a page of a collection's places as filter selects them, in three
// queries whatever the page size: membership, the page, its picks and passes.
func (db *DB) CollectionPlaces(ctx context.Context, userID, collectionID string, page planner.Page, sort planner.CollectionPlaceSort, filter planner.PlaceFilter) (out []planner.CollectionPlace, hasNext bool, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionReader(ctx, tx, collectionID, userID)
		if err != nil {
			return err
		}
		out, hasNext, err = collectionPlacesPage(ctx, tx, collectionID, m.ID, page, sort, filter)
		return err
	})
	return out, hasNext, err
}

// placeFilterSQL is the WHERE clause of a collection's places as filter selects them, for the
// list and the map alike: $1 the collection, $2 who added, $3 the level-1 category (a place
// without one is the taxonomy's General, as its card says), $4 the picked filter and $5 the
// reader's member id; picks count while their member is in the collection, as the cards show
// them.
const placeFilterSQL = `
	WHERE cp.collection_id = $1 AND ($2 = '' OR cp.added_by = $2)
	  AND ($3 = '' OR COALESCE(NULLIF(p.category_level1, ''), '` + planner.OtherCategory + `') = $3)
	  AND ($4 = '' OR EXISTS (
	      SELECT 1 FROM collection_place_preferences pr JOIN collection_members pm ON pm.id = pr.member_id
	      WHERE pr.collection_place_id = cp.id AND pr.type = 'PICK' AND pm.left_at IS NULL
	        AND ($4 = 'ANYONE' OR pr.member_id = $5)))`

// placeFilterArgs are placeFilterSQL's arguments.
func placeFilterArgs(collectionID, me string, f planner.PlaceFilter) []any {
	return []any{collectionID, f.AddedBy, f.Category, string(f.Picked), me}
}

// placeOrderSQL orders a collection's places as sort asks, the id breaking ties.
func placeOrderSQL(sort planner.CollectionPlaceSort) string {
	column := "cp.created_at"
	if sort.Column == "updated_at" {
		column = "cp.updated_at"
	}
	direction := " DESC"
	if sort.OldestFirst {
		direction = ""
	}
	return ` ORDER BY ` + column + direction + `, cp.id` + direction
}

// collectionPlacesPage loads a page of a collection's places with their picks and passes, in
// two queries; me is the caller's collection member id ("" for none).
func collectionPlacesPage(ctx context.Context, tx *sqlx.Tx, collectionID, me string, page planner.Page, sort planner.CollectionPlaceSort, filter planner.PlaceFilter) (out []planner.CollectionPlace, hasNext bool, err error) {
	var rows []collectionPlaceRow
	err = tx.SelectContext(ctx, &rows, collectionPlaceSQL+placeFilterSQL+placeOrderSQL(sort)+`
		LIMIT $6 OFFSET $7`, append(placeFilterArgs(collectionID, me, filter), page.Size+1, page.Offset())...)
	if err != nil {
		return nil, false, err
	}
	if len(rows) > page.Size {
		rows, hasNext = rows[:page.Size], true
	}
	out, err = withPreferences(ctx, tx, rows, me)
	return out, hasNext, err
}

// CollectionMap is the places of a collection that filter selects and that have coordinates,
// in sort's order, for its map: at most limit of them (without picks and passes) and how many
// there are in all, in two queries (membership, the places with their count) whatever their
// number.
func (db *DB) CollectionMap(ctx context.Context, userID, collectionID string, sort planner.CollectionPlaceSort, filter planner.PlaceFilter, limit int) (out []planner.CollectionPlace, total int, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionReader(ctx, tx, collectionID, userID)
		if err != nil {
			return err
		}
		var rows []struct {
			collectionPlaceRow
			Total int `db:"total"`
		}
		err = tx.SelectContext(ctx, &rows, `SELECT count(*) OVER () AS total, `+collectionPlaceColumns+collectionPlaceFrom+placeFilterSQL+`
			AND p.latitude IS NOT NULL AND p.longitude IS NOT NULL`+placeOrderSQL(sort)+` LIMIT $6`,
			append(placeFilterArgs(collectionID, m.ID, filter), limit)...)
		if err != nil {
			return err
		}
		out = make([]planner.CollectionPlace, len(rows))
		for i, r := range rows {
			out[i] = planner.CollectionPlace{ID: r.CPID, CollectionID: r.CollectionID, Memo: r.Memo, Place: r.placeRow.place(), Version: r.Version,
				AddedBy: planner.Member{ID: r.ByID, Nickname: r.ByNickname, Picture: r.ByPicture, Role: planner.Role(r.ByRole)}}
			total = r.Total
		}
		return nil
	})
	return out, total, err
}

// CollectionPlace loads one place of a collection for a member.
func (db *DB) CollectionPlace(ctx context.Context, userID, collectionID, cpID string) (*planner.CollectionPlace, error) {
	var out *planner.CollectionPlace
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionReader(ctx, tx, collectionID, userID)
		if err != nil {
			return err
		}
		out, err = collectionPlaceDetail(ctx, tx, collectionID, cpID, m.ID)
		return err
	})
	return out, err
}

// collectionPlaceDetail loads one place of a collection with the page it was found on.
func collectionPlaceDetail(ctx context.Context, tx *sqlx.Tx, collectionID, cpID, me string) (*planner.CollectionPlace, error) {
	out, err := loadCollectionPlace(ctx, tx, collectionID, cpID, me)
	if err != nil {
		return nil, err
	}
	out.SocialMedia, err = socialMediaOf(ctx, tx, cpID)
	return out, err
}

// socialMediaOf is the page a collection place was found on, or nil.
func socialMediaOf(ctx context.Context, tx *sqlx.Tx, cpID string) (*planner.SocialMedia, error) {
	var sm planner.SocialMedia
	err := tx.QueryRowxContext(ctx, `
		SELECT sm.id, sm.media_type, sm.url, sm.author_name, sm.title, sm.summary
		FROM collection_places cp JOIN social_media sm ON sm.id = cp.social_media_id WHERE cp.id = $1`, cpID).
		Scan(&sm.ID, &sm.MediaType, &sm.URL, &sm.AuthorName, &sm.Title, &sm.Summary)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &sm, nil
}

// changeCollectionPlace runs change on a collection place after the membership check;
// change returns the number of rows it touched, and none means the place is not there or,
// for a change that compares ifMatch with the place's version in its statement, that the
// place is at another version: PRECONDITION_FAILED with the place as it is now.
func (db *DB) changeCollectionPlace(ctx context.Context, userID, collectionID, cpID string, ifMatch planner.IfMatch, change func(tx *sqlx.Tx, me string) (sql.Result, error)) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionMember(ctx, tx, collectionID, userID)
		if err != nil {
			return err
		}
		if !planner.ValidID(cpID) {
			return planner.Errorf(planner.CodeCollectionPlaceNotFound, "No such place in this collection.")
		}
		res, err := change(tx, m.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return nil
		}
		now, err := collectionPlaceDetail(ctx, tx, collectionID, cpID, m.ID)
		if err != nil || ifMatch == planner.AnyVersion {
			return err // COLLECTION_PLACE_NOT_FOUND
		}
		return planner.Stale("The place was changed since you read it; nothing was changed. current holds it as it is now.", now)
	})
}

// SetCollectionPlaceMemo replaces a collection place's memo ("" clears it), a new version of
// the place, if it is at the version ifMatch expects.
func (db *DB) SetCollectionPlaceMemo(ctx context.Context, userID, collectionID, cpID, memo string, ifMatch planner.IfMatch) error {
	return db.changeCollectionPlace(ctx, userID, collectionID, cpID, ifMatch, func(tx *sqlx.Tx, _ string) (sql.Result, error) {
		return tx.ExecContext(ctx, `
			UPDATE collection_places SET memo = $3, version = version + 1, updated_at = clock_timestamp()
			WHERE id = $1 AND collection_id = $2 AND ($4 = 0 OR version = $4)`, cpID, collectionID, memo, int(ifMatch))
	})
}

// DeleteCollectionPlace removes a place from a collection (blocks made from it stay), if it is
// at the version ifMatch expects.
func (db *DB) DeleteCollectionPlace(ctx context.Context, userID, collectionID, cpID string, ifMatch planner.IfMatch) error {
	return db.changeCollectionPlace(ctx, userID, collectionID, cpID, ifMatch, func(tx *sqlx.Tx, _ string) (sql.Result, error) {
		var was struct {
			Name  string         `db:"name"`
			Names pq.StringArray `db:"names"`
		}
		err := tx.GetContext(ctx, &was, `DELETE FROM collection_places cp USING places p
			WHERE cp.id = $1 AND cp.collection_id = $2 AND ($3 = 0 OR cp.version = $3) AND p.id = cp.place_id
			RETURNING p.name, p.names`, cpID, collectionID, int(ifMatch))
		if errors.Is(err, sql.ErrNoRows) {
			return driver.RowsAffected(0), nil
		}
		if err != nil {
			return nil, err
		}
		return driver.RowsAffected(1), db.record(ctx, tx, collectionDid(collectionID, userID, planner.ActPlaceRemoved, planner.TargetCollectionPlace, cpID,
			planner.Details{Place: was.Name, Names: planner.NamesOf(was.Name, was.Names)}).toOthers(paths.Collection(collectionID), ""))
	})
}

// TogglePreference records the caller's PICK or PASS on a collection place: the same type
// again removes it, the other type switches to it. It answers the place's picks and passes.
func (db *DB) TogglePreference(ctx context.Context, userID, collectionID, cpID string, pref planner.Preference) (*planner.CollectionPlace, error) {
	var out *planner.CollectionPlace
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionMember(ctx, tx, collectionID, userID)
		if err != nil {
			return err
		}
		var cur struct {
			Type    sql.NullString
			AddedBy string         `db:"added_by"`
			Place   string         `db:"place"`
			Names   pq.StringArray `db:"names"`
		}
		if planner.ValidID(cpID) {
			// Lock the collection place so concurrent toggles of one member serialise.
			err = tx.GetContext(ctx, &cur, `
				SELECT cp.added_by, p.name AS place, p.names FROM collection_places cp JOIN places p ON p.id = cp.place_id
				WHERE cp.id = $1 AND cp.collection_id = $2 FOR UPDATE OF cp`, cpID, collectionID)
		}
		if !planner.ValidID(cpID) || errors.Is(err, sql.ErrNoRows) {
			return planner.Errorf(planner.CodeCollectionPlaceNotFound, "No such place in this collection.")
		}
		if err != nil {
			return err
		}
		// Read after the lock, in a statement of its own: its snapshot sees the toggle that held
		// the lock before (one statement's join would see the preference as it was when it began).
		if err := tx.GetContext(ctx, &cur.Type, `
			SELECT (SELECT type FROM collection_place_preferences WHERE collection_place_id = $1 AND member_id = $2)`, cpID, m.ID); err != nil {
			return err
		}
		kind := planner.ActPreferenceAdded
		if cur.Type.String == string(pref) {
			kind = planner.ActPreferenceRemoved
			_, err = tx.ExecContext(ctx, `DELETE FROM collection_place_preferences WHERE collection_place_id = $1 AND member_id = $2`, cpID, m.ID)
		} else {
			_, err = tx.ExecContext(ctx, `
				INSERT INTO collection_place_preferences (collection_place_id, member_id, type) VALUES ($1, $2, $3)
				ON CONFLICT ON CONSTRAINT collection_place_preferences_pkey
				DO UPDATE SET type = EXCLUDED.type, updated_at = now()`, cpID, m.ID, pref)
		}
		if err != nil {
			return err
		}
		// What one member thinks of one place is one notification to whoever added it: taking a
		// pick back only updates it (see updateOnly).
		if err := db.record(ctx, tx, collectionDid(collectionID, userID, kind, planner.TargetCollectionPlace, cpID,
			planner.Details{Place: cur.Place, Names: planner.NamesOf(cur.Place, cur.Names), Preference: pref}).onlyNotifies().toMember(cur.AddedBy, paths.Collection(collectionID), "collection_place:"+cpID)); err != nil {
			return err
		}
		out, err = loadCollectionPlace(ctx, tx, collectionID, cpID, m.ID)
		return err
	})
	return out, err
}
