package postgres

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// placeRow is a places row as scanned.
type placeRow struct {
	ID              string         `db:"id"`
	Provider        string         `db:"provider"`
	ProviderPlaceID string         `db:"provider_place_id"`
	Name            string         `db:"name"`
	Names           pq.StringArray `db:"names"`
	Address         string         `db:"address"`
	LocalAddress    string         `db:"local_address"`
	City            string         `db:"city"`
	Level1          string         `db:"category_level1"`
	Level2          string         `db:"category_level2"`
	Level3          string         `db:"category_level3"`
	PrimaryType     string         `db:"primary_type"`
	PrimaryTypeName string         `db:"primary_type_name"`
	MapsURI         string         `db:"provider_maps_uri"`
	Photos          pq.StringArray `db:"photos"`
	Latitude        *string        `db:"latitude"`
	Longitude       *string        `db:"longitude"`
}

const placeColumns = `p.id, p.provider, COALESCE(p.provider_place_id, '') AS provider_place_id, p.name, p.names,
	p.address, p.local_address, p.city, p.category_level1, p.category_level2, p.category_level3,
	p.primary_type, p.primary_type_name, p.provider_maps_uri, p.photos,
	p.latitude::text AS latitude, p.longitude::text AS longitude`

func (r placeRow) place() planner.Place {
	p := planner.Place{
		ID: r.ID, Provider: r.Provider, ProviderPlaceID: r.ProviderPlaceID, Name: r.Name,
		Names: append([]string{}, r.Names...), Address: r.Address, LocalAddress: r.LocalAddress, City: r.City,
		CategoryLevel1: r.Level1, CategoryLevel2: r.Level2, CategoryLevel3: r.Level3,
		PrimaryType: r.PrimaryType, PrimaryTypeName: r.PrimaryTypeName, MapsURI: r.MapsURI,
		Photos: append([]string{}, r.Photos...),
	}
	if r.Latitude != nil && r.Longitude != nil {
		p.Latitude, p.Longitude = *r.Latitude, *r.Longitude
	}
	return p
}

// LoadCatalog stores the built-in catalog's places, inserting new ones and updating changed
// ones by (provider, provider place id), in one statement. An unchanged version costs one
// query. Places that left the catalog are kept: collections may hold them.
func (db *DB) LoadCatalog(ctx context.Context, version string, places []planner.Place) (loaded bool, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		// Several instances starting at once load it once.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tripplan.catalog'))`); err != nil {
			return err
		}
		var current string
		err := tx.GetContext(ctx, &current, `SELECT COALESCE((SELECT version FROM catalog_versions WHERE name = 'builtin'), '')`)
		if err != nil || current == version {
			return err
		}
		if _, err := upsertPlaces(ctx, tx, places); err != nil {
			return err
		}
		loaded = true
		// Fresh statistics, so that the planner knows the table's real size at once.
		if _, err := tx.ExecContext(ctx, `ANALYZE places`); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO catalog_versions (name, version) VALUES ('builtin', $1)
			ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, loaded_at = now()`, version)
		return err
	})
	return loaded, err
}

// likeEscaper escapes LIKE's wildcards (and its escape character) in user text.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// upsertPlaces stores places by (provider, provider place id) in one statement, inserting new
// ones and refreshing known ones, and returns their ids in the order given.
func upsertPlaces(ctx context.Context, tx *sqlx.Tx, places []planner.Place) ([]string, error) {
	n := len(places)
	ids, providers, pids, names, altNames, addrs, localAddrs := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	cities, l1, l2, l3, types, typeNames, uris, lats, lngs := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	photos := make([]string, n)
	for i, p := range places {
		alt, err := json.Marshal(append([]string{}, p.Names...)) // [] rather than null
		if err != nil {
			return nil, err
		}
		ph, err := json.Marshal(append([]string{}, p.Photos...))
		if err != nil {
			return nil, err
		}
		ids[i], providers[i], pids[i], names[i], altNames[i], photos[i] = planner.NewID(), p.Provider, p.ProviderPlaceID, p.Name, string(alt), string(ph)
		addrs[i], localAddrs[i], cities[i] = p.Address, p.LocalAddress, p.City
		l1[i], l2[i], l3[i], types[i], typeNames[i] = p.CategoryLevel1, p.CategoryLevel2, p.CategoryLevel3, p.PrimaryType, p.PrimaryTypeName
		uris[i], lats[i], lngs[i] = p.MapsURI, p.Latitude, p.Longitude
	}
	var rows []struct {
		ID       string `db:"id"`
		Provider string `db:"provider"`
		PID      string `db:"provider_place_id"`
	}
	err := tx.SelectContext(ctx, &rows, `
		INSERT INTO places (id, provider, provider_place_id, name, names, address, local_address, city,
			category_level1, category_level2, category_level3, primary_type, primary_type_name,
			provider_maps_uri, photos, latitude, longitude)
		SELECT u.id, u.provider, u.pid, u.name, ARRAY(SELECT jsonb_array_elements_text(u.alt::jsonb)),
			u.addr, u.local_addr, u.city, u.l1, u.l2, u.l3, u.typ, u.type_name, u.uri,
			ARRAY(SELECT jsonb_array_elements_text(u.photos::jsonb)),
			NULLIF(u.lat, '')::numeric, NULLIF(u.lng, '')::numeric
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
			$8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
			$16::text[], $17::text[])
			AS u(id, provider, pid, name, alt, addr, local_addr, city, l1, l2, l3, typ, type_name, uri, photos, lat, lng)
		ON CONFLICT ON CONSTRAINT places_provider_place DO UPDATE SET
			name = EXCLUDED.name, names = EXCLUDED.names, address = EXCLUDED.address,
			local_address = EXCLUDED.local_address, city = EXCLUDED.city,
			category_level1 = EXCLUDED.category_level1, category_level2 = EXCLUDED.category_level2,
			category_level3 = EXCLUDED.category_level3, primary_type = EXCLUDED.primary_type,
			primary_type_name = EXCLUDED.primary_type_name, provider_maps_uri = EXCLUDED.provider_maps_uri,
			photos = EXCLUDED.photos, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude,
			updated_at = now()
		RETURNING id, provider, provider_place_id`,
		pq.Array(ids), pq.Array(providers), pq.Array(pids), pq.Array(names), pq.Array(altNames), pq.Array(addrs),
		pq.Array(localAddrs), pq.Array(cities), pq.Array(l1), pq.Array(l2), pq.Array(l3), pq.Array(types),
		pq.Array(typeNames), pq.Array(uris), pq.Array(photos), pq.Array(lats), pq.Array(lngs))
	if err != nil {
		return nil, err
	}
	byKey := make(map[string]string, len(rows))
	for _, r := range rows {
		byKey[r.Provider+"\x00"+r.PID] = r.ID
	}
	out := make([]string, n)
	for i, p := range places {
		out[i] = byKey[p.Provider+"\x00"+p.ProviderPlaceID]
	}
	return out, nil
}

// SavePlaces stores places found at a remote provider (deduplicated by provider and provider
// place id: a place found again is refreshed, keeping its id) and returns them with their ids.
func (db *DB) SavePlaces(ctx context.Context, places []planner.Place) ([]planner.Place, error) {
	if len(places) == 0 {
		return []planner.Place{}, nil
	}
	out := append([]planner.Place(nil), places...)
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		unique := dedupe(places)
		ids, err := upsertPlaces(ctx, tx, unique)
		if err != nil {
			return err
		}
		idOf := map[string]string{}
		for i, p := range unique {
			idOf[p.Provider+"\x00"+p.ProviderPlaceID] = ids[i]
		}
		for i := range out {
			out[i].ID = idOf[out[i].Provider+"\x00"+out[i].ProviderPlaceID]
		}
		return nil
	})
	return out, err
}

// dedupe drops repeats of a (provider, provider place id): one INSERT … ON CONFLICT cannot
// touch a row twice.
func dedupe(places []planner.Place) []planner.Place {
	seen := map[string]bool{}
	var out []planner.Place
	for _, p := range places {
		k := p.Provider + "\x00" + p.ProviderPlaceID
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// SearchPlaces finds built-in places by name in any language, address words or city,
// tolerating case, accents and small typos (pg_trgm in the database), best match first: exact
// names, then (when near names a city, as searches from a plan with a destination do) the
// places of that city, then names starting with the query, then by trigram word similarity of
// the names and then of the whole search text.
func (db *DB) SearchPlaces(ctx context.Context, query, near string) ([]planner.Place, error) {
	var rows []placeRow
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		// A looser threshold than the default 0.6 lets one typo in a short word still match.
		// Seq scans are off for this transaction: the planner prices the trigram operator as
		// cheap and would test it on every row (16–19 ms for a thousand places) instead of
		// asking the trigram index (about 4 ms). See docs/PERFORMANCE.md.
		if _, err := tx.ExecContext(ctx, `SELECT set_config('pg_trgm.word_similarity_threshold', '0.45', true),
			set_config('enable_seqscan', 'off', true)`); err != nil {
			return err
		}
		// $1 is the query, $2 the same with LIKE's wildcards escaped; both are normalised by
		// the function that made the indexed text. The materialised CTE asks only the trigram
		// index; the provider is checked on its few hits.
		return tx.SelectContext(ctx, &rows, `
			WITH hits AS MATERIALIZED (
				SELECT id FROM places
				WHERE search_normalize($1) <% search_text OR search_text LIKE '%' || search_normalize($2) || '%')
			SELECT `+placeColumns+`
			FROM places p JOIN hits h ON h.id = p.id
			WHERE p.provider = 'BUILTIN'
			ORDER BY p.name_text = search_normalize($1) DESC,
			         ($4 <> '' AND lower(p.city) = lower($4)) DESC,
			         p.name_text LIKE search_normalize($2) || '%' DESC,
			         word_similarity(search_normalize($1), p.name_text) DESC,
			         word_similarity(search_normalize($1), p.search_text) DESC,
			         p.name, p.id
			LIMIT $3`, query, likeEscaper.Replace(query), planner.SearchLimit, near)
	})
	if err != nil {
		return nil, err
	}
	out := make([]planner.Place, len(rows))
	for i, r := range rows {
		out[i] = r.place()
	}
	return out, nil
}
