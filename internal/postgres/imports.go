package postgres

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// ImportPlaces adds a file's places (read by internal/importer) to a collection, all or
// nothing, in one transaction of six statements whatever the number of rows: membership (a
// guest or non-member is refused before anything is read), the matches of every row, what
// the collection holds, the new custom places, the new collection places, the history.
//
// Each usable row is, in file order:
//   - MATCHED to a catalog or provider place of the same name (normalised as search
//     normalises it, in any of the place's names) within planner.ImportMatchMeters of its
//     point, the nearest; a row without a point (a saved list's name) only when exactly one
//     such place has that name (else NOT_FOUND or AMBIGUOUS: places are not searched at remote
//     providers here, as hundreds of rows would be hundreds of paid requests);
//   - else CREATED as a custom place (provider MANUAL) at its point, with its address and link;
//   - ALREADY_THERE when the collection has the matched place, or a custom place of that
//     normalised name, or an earlier row of the file added it.
//
// The row's note becomes the new collection place's memo.
func (db *DB) ImportPlaces(ctx context.Context, userID, collectionID, format string, rows []planner.ImportRow) (*planner.ImportReport, error) {
	report := &planner.ImportReport{Format: format, Rows: make([]planner.ImportResult, len(rows))}
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionMember(ctx, tx, collectionID, userID)
		if err != nil {
			return err
		}
		var ns []int64
		var names, escaped []string
		var lats, lngs []sql.NullFloat64
		for i, r := range rows {
			report.Rows[i] = planner.ImportResult{Row: r.Row, Name: r.Name, Outcome: r.Skip}
			if r.Skip != "" {
				continue
			}
			ns, names, escaped = append(ns, int64(i)), append(names, r.Name), append(escaped, likeEscaper.Replace(r.Name))
			lats, lngs = append(lats, sql.NullFloat64{Float64: r.Lat, Valid: r.HasPoint}), append(lngs, sql.NullFloat64{Float64: r.Lng, Valid: r.HasPoint})
		}
		// The matches: per row, its normalised name and the best place (the nearest of that
		// name within reach of a point; for a name alone, the one place of that name) with how
		// many there were. The trigram index on search_text finds each name's few candidates.
		var found []struct {
			N       int            `db:"n"`
			Key     string         `db:"key"`
			PlaceID sql.NullString `db:"place_id"`
			Hits    int            `db:"hits"`
		}
		if err := tx.SelectContext(ctx, &found, `
			SELECT u.n, search_normalize(u.name) AS key, m.id AS place_id, COALESCE(m.hits, 0) AS hits
			FROM unnest($1::bigint[], $2::text[], $3::text[], $4::float8[], $5::float8[]) AS u(n, name, esc, lat, lng)
			LEFT JOIN LATERAL (
				SELECT c.id, count(*) OVER () AS hits
				FROM (SELECT p.id, CASE WHEN u.lat IS NULL THEN 0 ELSE 6371000 * 2 * asin(sqrt(
						sin(radians(p.latitude::float8 - u.lat) / 2) ^ 2 +
						cos(radians(u.lat)) * cos(radians(p.latitude::float8)) * sin(radians(p.longitude::float8 - u.lng) / 2) ^ 2)) END AS meters
					FROM places p
					WHERE p.search_text LIKE '%' || search_normalize(u.esc) || '%' AND p.provider <> 'MANUAL'
					  AND (search_normalize(p.name) = search_normalize(u.name)
					       OR search_normalize(u.name) IN (SELECT search_normalize(x) FROM unnest(p.names) x))
					  AND (u.lat IS NULL OR p.latitude IS NOT NULL)) c
				WHERE c.meters <= $6
				ORDER BY c.meters, c.id
				LIMIT 1) m ON true
			ORDER BY u.n`,
			pq.Array(ns), pq.Array(names), pq.Array(escaped), pq.Array(lats), pq.Array(lngs), planner.ImportMatchMeters); err != nil {
			return err
		}
		// What the collection holds: its places, and its custom places by normalised name.
		var held []struct {
			ID      string `db:"id"`
			PlaceID string `db:"place_id"`
			Key     string `db:"key"` // "" for a catalog or provider place
		}
		if err := tx.SelectContext(ctx, &held, `
			SELECT cp.id, cp.place_id, CASE WHEN p.provider = 'MANUAL' THEN search_normalize(p.name) ELSE '' END AS key
			FROM collection_places cp JOIN places p ON p.id = cp.place_id WHERE cp.collection_id = $1`, collectionID); err != nil {
			return err
		}
		byPlace, byName := map[string]string{}, map[string]string{}
		for _, h := range held {
			byPlace[h.PlaceID] = h.ID
			if h.Key != "" {
				byName[h.Key] = h.ID
			}
		}
		var newPlaces, newNames, addresses, uris, cpIDs, cpPlaces, memos []string
		var newLats, newLngs []float64
		h := happening{}
		for _, f := range found {
			r, res := rows[f.N], &report.Rows[f.N]
			switch {
			case f.PlaceID.Valid && byPlace[f.PlaceID.String] != "":
				res.Outcome, res.PlaceID, res.CollectionPlaceID = planner.ImportAlreadyThere, f.PlaceID.String, byPlace[f.PlaceID.String]
				continue
			case f.PlaceID.Valid && (r.HasPoint || f.Hits == 1):
				res.Outcome, res.PlaceID = planner.ImportMatched, f.PlaceID.String
			case f.PlaceID.Valid:
				res.Outcome = planner.ImportSkipAmbiguous
				continue
			case !r.HasPoint:
				res.Outcome = planner.ImportSkipNotFound
				continue
			case byName[f.Key] != "":
				res.Outcome, res.CollectionPlaceID = planner.ImportAlreadyThere, byName[f.Key]
				continue
			default:
				res.Outcome, res.PlaceID = planner.ImportCreated, planner.NewID()
				newPlaces, newNames, addresses, uris = append(newPlaces, res.PlaceID), append(newNames, r.Name), append(addresses, r.Address), append(uris, r.URL)
				newLats, newLngs = append(newLats, r.Lat), append(newLngs, r.Lng)
			}
			res.CollectionPlaceID = planner.NewID()
			byPlace[res.PlaceID] = res.CollectionPlaceID
			if res.Outcome == planner.ImportCreated {
				byName[f.Key] = res.CollectionPlaceID
			}
			cpIDs, cpPlaces, memos = append(cpIDs, res.CollectionPlaceID), append(cpPlaces, res.PlaceID), append(memos, r.Note)
			d := planner.Details{Place: r.Name, Names: planner.NamesOf(r.Name, nil)}
			if h.ids == nil {
				h = collectionDid(collectionID, userID, planner.ActPlaceAdded, planner.TargetCollectionPlace, res.CollectionPlaceID, d)
			} else {
				h = h.also(res.CollectionPlaceID, d)
			}
		}
		report.Count()
		if len(cpIDs) == 0 {
			return nil
		}
		if len(newPlaces) > 0 {
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO places (id, provider, name, address, provider_maps_uri, latitude, longitude)
				SELECT u.id, 'MANUAL', u.name, u.address, u.uri, round(u.lat::numeric, 6), round(u.lng::numeric, 6)
				FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[]) AS u(id, name, address, uri, lat, lng)`,
				pq.Array(newPlaces), pq.Array(newNames), pq.Array(addresses), pq.Array(uris), pq.Array(newLats), pq.Array(newLngs)); err != nil {
				return mapError(err)
			}
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO collection_places (id, collection_id, place_id, added_by, memo)
			SELECT u.id, $1, u.place_id, $2, u.memo
			FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS u(id, place_id, memo, n)
			ORDER BY u.n`, collectionID, m.ID, pq.Array(cpIDs), pq.Array(cpPlaces), pq.Array(memos)); err != nil {
			return mapError(err)
		}
		return db.record(ctx, tx, h.toOthers(paths.Collection(collectionID), ""))
	})
	if err != nil {
		return nil, err
	}
	return report, nil
}
