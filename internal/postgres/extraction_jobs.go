package postgres

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// reuseWindow is how long a completed analysis of a URL is reused for the same URL.
const reuseWindow = "24 hours"

const jobColumns = `j.id, j.collection_id, j.url, j.normalized_url, j.requested_at, j.status, j.failure_code,
	j.failure_message, j.decision_status, j.decided_at, j.result, j.stage, j.stage_started_at, j.matched, j.to_match,
	extract(epoch FROM now() - j.stage_started_at) AS stage_seconds`

type jobRow struct {
	planner.ExtractionJob
	Result       []byte  `db:"result"`
	Matched      *int    `db:"matched"`
	ToMatch      *int    `db:"to_match"`
	StageSeconds float64 `db:"stage_seconds"`
}

func (r *jobRow) job() (*planner.ExtractionJob, error) {
	j := r.ExtractionJob
	j.StageAge = max(time.Duration(r.StageSeconds*float64(time.Second)), 0)
	if r.Matched != nil && r.ToMatch != nil {
		j.Progress = &planner.Progress{Done: *r.Matched, Total: *r.ToMatch}
	}
	if len(r.Result) > 0 {
		j.Result = &planner.ExtractionResult{}
		if err := json.Unmarshal(r.Result, j.Result); err != nil {
			return nil, err
		}
	}
	return &j, nil
}

func jobNotFound() error {
	return planner.Errorf(planner.CodeJobNotFound, "No such extraction job of yours.")
}

// ownJob loads one of the member's jobs in the collection, locked; JOB_NOT_FOUND otherwise.
func ownJob(ctx context.Context, tx *sqlx.Tx, collectionID, memberID, jobID string) (*planner.ExtractionJob, error) {
	var r jobRow
	err := sql.ErrNoRows
	if planner.ValidID(jobID) {
		err = tx.GetContext(ctx, &r, `SELECT `+jobColumns+` FROM extraction_jobs j
			WHERE j.id = $1 AND j.collection_id = $2 AND j.requested_by = $3 FOR UPDATE`, jobID, collectionID, memberID)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, jobNotFound()
	}
	if err != nil {
		return nil, err
	}
	return r.job()
}

// memberJob checks that the user is a member of the collection (collectionMember) and loads
// one of their jobs in it, locked (ownJob).
func memberJob(ctx context.Context, tx *sqlx.Tx, collectionID, userID, jobID string) (membership, *planner.ExtractionJob, error) {
	m, err := collectionMember(ctx, tx, collectionID, userID)
	if err != nil {
		return m, nil, err
	}
	j, err := ownJob(ctx, tx, collectionID, m.ID, jobID)
	return m, j, err
}

// ExtractionQueue schedules the work of an extraction job in the transaction that records it,
// and cancels it in the one that dismisses it (extraction.Queue, River).
type ExtractionQueue interface {
	Enqueue(ctx context.Context, tx *sql.Tx, jobID string) (int64, error)
	Cancel(ctx context.Context, tx *sql.Tx, queueJobID int64) error
}

// OnExtraction sets the queue that works extraction jobs; until it is called, requesting one
// fails (no job is recorded that nothing would work on).
func (db *DB) OnExtraction(q ExtractionQueue) { db.extractions = q }

// CreateExtractionJob records a member's request to analyse a URL. A member has one undecided
// job per collection (JOB_IN_PROGRESS, with its id). A completed analysis of the same
// normalised URL from the last day is reused at once; otherwise the user's share of the queue
// is checked (claimExtraction) and the queue (OnExtraction) schedules the work in the same
// transaction, so the job and its queue entry commit together.
func (db *DB) CreateExtractionJob(ctx context.Context, userID, collectionID, url, normalized string) (*planner.ExtractionJob, error) {
	var out *planner.ExtractionJob
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionMember(ctx, tx, collectionID, userID)
		if err != nil {
			return err
		}
		var pending string
		err = tx.GetContext(ctx, &pending, `SELECT id FROM extraction_jobs
			WHERE collection_id = $1 AND requested_by = $2 AND decision_status = 'UNDECIDED' FOR UPDATE`, collectionID, m.ID)
		if err == nil {
			return &planner.Error{Code: planner.CodeJobInProgress, Detail: "You have an extraction job here you have not decided on yet.",
				Extra: map[string]any{"job_id": pending}}
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var reused []byte
		err = tx.GetContext(ctx, &reused, `SELECT result FROM extraction_jobs
			WHERE normalized_url = $1 AND status = 'COMPLETED' AND updated_at > now() - interval '`+reuseWindow+`'
			ORDER BY updated_at DESC LIMIT 1`, normalized)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		id := planner.NewID()
		status := planner.JobPending
		var queued sql.NullInt64
		if reused != nil {
			status = planner.JobCompleted
		} else {
			if err := claimExtraction(ctx, tx, userID, id); err != nil {
				return err
			}
			if db.extractions == nil {
				return errors.New("create extraction job: no extraction queue (OnExtraction)")
			}
			if queued.Int64, err = db.extractions.Enqueue(ctx, tx.Tx, id); err != nil {
				return fmt.Errorf("create extraction job: enqueue: %w", err)
			}
			queued.Valid = true
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO extraction_jobs (id, collection_id, requested_by, url, normalized_url, status, stage, result, queue_job_id)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8)`, id, collectionID, m.ID, url, normalized, status, reused, queued); err != nil {
			return err
		}
		out, err = ownJob(ctx, tx, collectionID, m.ID, id)
		return err
	})
	return out, err
}

// inProgressRetryAfter is the wait, in seconds, suggested to a user with 3 jobs in progress:
// a job usually takes seconds, and the user's own jobs say when one is done.
const inProgressRetryAfter = 10

// claimExtraction records that the user starts job jobID, or refuses with TOO_MANY_REQUESTS
// (retry_after in seconds) when the user has MaxExtractionsInProgress jobs in progress or
// started MaxExtractionsPerHour in the last hour. The user's row is locked first, so
// concurrent starts of one user take turns and each counts the ones committed before it (the
// counting statement starts after the lock is granted, with a fresh snapshot).
func claimExtraction(ctx context.Context, tx *sqlx.Tx, userID, jobID string) error {
	if _, err := tx.ExecContext(ctx, `SELECT FROM users WHERE id = $1 FOR NO KEY UPDATE`, userID); err != nil {
		return err
	}
	var s struct {
		InProgress int `db:"in_progress"`
		Started    int `db:"started"`
		Wait       int `db:"wait"` // seconds until the oldest start of the hour leaves it
	}
	if err := tx.GetContext(ctx, &s, `
		SELECT (SELECT count(*) FROM extraction_jobs j JOIN collection_members m ON m.id = j.requested_by
		        WHERE m.user_id = $1 AND j.status NOT IN ('COMPLETED', 'FAILED') AND j.decision_status <> 'IGNORED') AS in_progress,
		    count(*) AS started,
		    COALESCE(ceil(extract(epoch FROM min(started_at) + interval '1 hour' - now())), 0)::int AS wait
		FROM extraction_starts WHERE user_id = $1 AND started_at > now() - interval '1 hour'`, userID); err != nil {
		return err
	}
	wait := 0
	if s.Started >= planner.MaxExtractionsPerHour {
		wait = max(s.Wait, 1)
	}
	if s.InProgress >= planner.MaxExtractionsInProgress {
		wait = max(wait, inProgressRetryAfter)
	}
	if wait > 0 {
		e := planner.Errorf(planner.CodeTooManyRequests, "You may have %d links being read at once and start %d an hour; try again in %d seconds.",
			planner.MaxExtractionsInProgress, planner.MaxExtractionsPerHour, wait)
		e.Extra = map[string]any{"retry_after": wait}
		return e
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO extraction_starts (job_id, user_id) VALUES ($1, $2)`, jobID, userID)
	return err
}

// ExtractionJob answers one of the caller's jobs.
func (db *DB) ExtractionJob(ctx context.Context, userID, collectionID, jobID string) (*planner.ExtractionJob, error) {
	var out *planner.ExtractionJob
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		var err error
		_, out, err = memberJob(ctx, tx, collectionID, userID, jobID)
		return err
	})
	return out, err
}

// LatestExtractionJob answers the caller's undecided job in the collection (JOB_NOT_FOUND).
func (db *DB) LatestExtractionJob(ctx context.Context, userID, collectionID string) (*planner.ExtractionJob, error) {
	var out *planner.ExtractionJob
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionMember(ctx, tx, collectionID, userID)
		if err != nil {
			return err
		}
		var id string
		err = tx.GetContext(ctx, &id, `SELECT id FROM extraction_jobs
			WHERE collection_id = $1 AND requested_by = $2 AND decision_status = 'UNDECIDED'
			ORDER BY requested_at DESC LIMIT 1`, collectionID, m.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return jobNotFound()
		}
		if err != nil {
			return err
		}
		out, err = ownJob(ctx, tx, collectionID, m.ID, id)
		return err
	})
	return out, err
}

// decide marks an undecided job decided (ALREADY_DECIDED otherwise) and answers the queue's
// id of its work (not valid when an analysis was reused).
func decide(ctx context.Context, tx *sqlx.Tx, j *planner.ExtractionJob, decision planner.Decision) (queued sql.NullInt64, err error) {
	if j.DecisionStatus != planner.DecisionUndecided {
		return queued, planner.Errorf(planner.CodeAlreadyDecided, "This job was already decided on.")
	}
	err = tx.GetContext(ctx, &queued, `UPDATE extraction_jobs SET decision_status = $2, decided_at = now(), updated_at = now()
		WHERE id = $1 RETURNING queue_job_id`, j.ID, decision)
	return queued, err
}

// DismissExtractionJob sets the caller's job aside without adding anything. A job still being
// worked on stops: its queue entry is cancelled in the same transaction, and the worker
// treats a dismissed job as gone (WorkJob, SetJobStage, CompleteJob and FailJob answer
// JOB_NOT_FOUND), so nothing it finds is recorded.
func (db *DB) DismissExtractionJob(ctx context.Context, userID, collectionID, jobID string) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		_, j, err := memberJob(ctx, tx, collectionID, userID, jobID)
		if err != nil {
			return err
		}
		queued, err := decide(ctx, tx, j, planner.DecisionIgnored)
		if err != nil || !queued.Valid || j.Done() {
			return err
		}
		if db.extractions == nil {
			return errors.New("dismiss extraction job: no extraction queue (OnExtraction)")
		}
		if err := db.extractions.Cancel(ctx, tx.Tx, queued.Int64); err != nil {
			return fmt.Errorf("dismiss extraction job: cancel: %w", err)
		}
		return nil
	})
}

// AddPlacesFromJob adds places chosen from the caller's completed job to the collection, each
// keeping the page it came from; places already there are skipped.
func (db *DB) AddPlacesFromJob(ctx context.Context, userID, collectionID, jobID string, placeIDs []string) (*planner.AddedFromJob, error) {
	var out *planner.AddedFromJob
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		m, j, err := memberJob(ctx, tx, collectionID, userID, jobID)
		if err != nil {
			return err
		}
		if _, err := decide(ctx, tx, j, planner.DecisionSelected); err != nil {
			return err
		}
		if j.Result == nil {
			return &planner.Error{Code: planner.CodeInvalidRequest, Detail: "The job has no result to choose from.",
				Fields: []planner.FieldError{{Field: "place_ids", Reason: "the job has not found any places yet"}}}
		}
		found := map[string]bool{}
		for _, p := range j.Result.Places {
			found[p.PlaceID] = true
		}
		ids := unique(placeIDs)
		for _, id := range ids {
			if !found[id] {
				return &planner.Error{Code: planner.CodeInvalidRequest, Detail: "Choose places from the job's result.",
					Fields: []planner.FieldError{{Field: "place_ids", Reason: "must be places the job found"}}}
			}
		}
		cpIDs := make([]string, len(ids))
		for i := range ids {
			cpIDs[i] = planner.NewID()
		}
		var added []struct {
			ID      string         `db:"id"`
			PlaceID string         `db:"place_id"`
			Names   pq.StringArray `db:"names"` // the place's other names
		}
		if err := tx.SelectContext(ctx, &added, `
			INSERT INTO collection_places (id, collection_id, place_id, added_by, social_media_id)
			SELECT u.id, $1, u.place_id, $2, NULLIF($3, '')
			FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS u(id, place_id, n)
			ORDER BY u.n
			ON CONFLICT ON CONSTRAINT collection_places_one_per_place DO NOTHING
			RETURNING id, place_id, (SELECT p.names FROM places p WHERE p.id = place_id) AS names`, collectionID, m.ID, j.Result.SocialMediaID, pq.Array(cpIDs), pq.Array(ids)); err != nil {
			return err
		}
		out = &planner.AddedFromJob{Total: len(ids), Added: len(added), Skipped: len(ids) - len(added), Places: []planner.CollectionPlace{}}
		if len(added) == 0 {
			return nil
		}
		addedIDs := make([]string, len(added))
		for i, a := range added {
			addedIDs[i] = a.ID
		}
		names := make(map[string]string, len(j.Result.Places))
		for _, p := range j.Result.Places {
			names[p.PlaceID] = p.Name
		}
		facts := func(i int) planner.Details {
			name := names[added[i].PlaceID]
			return planner.Details{Place: name, Names: planner.NamesOf(name, added[i].Names)}
		}
		h := collectionDid(collectionID, userID, planner.ActPlaceAdded, planner.TargetCollectionPlace, added[0].ID, facts(0))
		for i := range added[1:] {
			h = h.also(added[i+1].ID, facts(i+1))
		}
		if err := db.record(ctx, tx, h.toOthers(paths.Collection(collectionID), "")); err != nil {
			return err
		}
		var rows []collectionPlaceRow
		if err := tx.SelectContext(ctx, &rows, collectionPlaceSQL+` WHERE cp.id = ANY($1)
			ORDER BY array_position($2::text[], cp.id)`, pq.Array(addedIDs), pq.Array(cpIDs)); err != nil {
			return err
		}
		out.Places, err = withPreferences(ctx, tx, rows, m.ID)
		return err
	})
	return out, err
}

// AddCustomPlaceFromJob adds, as a custom place of the collection, a name the caller's
// completed job listed as not found in the place search: a new place of provider MANUAL
// named so, its address the city the page is about, keeping the page it came from. The job
// stays undecided (its found places may still be added). Checks, in order: membership,
// JOB_NOT_FOUND (another member's job, or dismissed), INVALID_REQUEST (no result yet, or a
// name the job did not list), COLLECTION_PLACE_ALREADY_EXISTS (the collection has a custom
// place of that name).
func (db *DB) AddCustomPlaceFromJob(ctx context.Context, userID, collectionID, jobID, name string) (*planner.CollectionPlace, error) {
	var out *planner.CollectionPlace
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		m, j, err := memberJob(ctx, tx, collectionID, userID, jobID)
		if err != nil {
			return err
		}
		if j.DecisionStatus == planner.DecisionIgnored {
			return jobNotFound()
		}
		listed := false
		if j.Result != nil {
			for _, u := range j.Result.Unmatched {
				listed = listed || u.Name == name
			}
		}
		if !listed {
			return &planner.Error{Code: planner.CodeInvalidRequest, Detail: "Choose a name the job could not find.",
				Fields: []planner.FieldError{{Field: "name", Reason: "must be a name the job listed as not found"}}}
		}
		var exists bool
		if err := tx.GetContext(ctx, &exists, `
			SELECT EXISTS (SELECT 1 FROM collection_places cp JOIN places p ON p.id = cp.place_id
			WHERE cp.collection_id = $1 AND p.provider = 'MANUAL' AND p.name = $2)`, collectionID, name); err != nil {
			return err
		}
		if exists {
			return planner.Errorf(planner.CodeCollectionPlaceAlreadyExists, "This place is already in the collection.")
		}
		placeID, id := planner.NewID(), planner.NewID()
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO places (id, provider, name, address, city) VALUES ($1, 'MANUAL', $2, $3, $3)`,
			placeID, name, j.Result.City); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO collection_places (id, collection_id, place_id, added_by, social_media_id)
			VALUES ($1, $2, $3, $4, NULLIF($5, ''))`, id, collectionID, placeID, m.ID, j.Result.SocialMediaID); err != nil {
			return err
		}
		if out, err = loadCollectionPlace(ctx, tx, collectionID, id, m.ID); err != nil {
			return err
		}
		return db.record(ctx, tx, collectionDid(collectionID, userID, planner.ActPlaceAdded, planner.TargetCollectionPlace, id,
			planner.Details{Place: name, Names: planner.NamesOf(name, nil)}).toOthers(paths.Collection(collectionID), ""))
	})
	return out, err
}

// WorkJob is the worker's view of a job: its URL and status, without a caller. A dismissed job
// is, for the worker, gone: JOB_NOT_FOUND, as for one deleted with its collection.
func (db *DB) WorkJob(ctx context.Context, jobID string) (_ *planner.ExtractionJob, err error) {
	defer named(&err)
	var r jobRow
	err = db.GetContext(ctx, &r, `SELECT `+jobColumns+` FROM extraction_jobs j WHERE j.id = $1 AND j.decision_status <> 'IGNORED'`, jobID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, jobNotFound()
	}
	if err != nil {
		return nil, err
	}
	return r.job()
}

// SetJobStage records the work's progress: the stage (with the status it belongs to, see
// planner.Stage.Status) and, while matching, how many names were looked up (nil otherwise). The
// stage's start time moves only when the stage changes. JOB_NOT_FOUND when the job is gone,
// dismissed or already over.
func (db *DB) SetJobStage(ctx context.Context, jobID string, stage planner.Stage, p *planner.Progress) (err error) {
	defer named(&err)
	var done, total sql.NullInt64
	if p != nil {
		done, total = sql.NullInt64{Int64: int64(p.Done), Valid: true}, sql.NullInt64{Int64: int64(p.Total), Valid: true}
	}
	res, err := db.ExecContext(ctx, `UPDATE extraction_jobs SET status = $3, stage = $2, matched = $4, to_match = $5,
		stage_started_at = CASE WHEN stage = $2 THEN stage_started_at ELSE now() END, updated_at = now()
		WHERE id = $1 AND status NOT IN ('COMPLETED', 'FAILED') AND decision_status <> 'IGNORED'`, jobID, stage, stage.Status(), done, total)
	if err != nil {
		return mapError(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return cmp.Or(err, jobNotFound())
	}
	return nil
}

// lockWorkJob locks a job the worker is about to finish, so a dismissal waits for the result
// or the result for the dismissal; JOB_NOT_FOUND when it is gone or dismissed.
func lockWorkJob(ctx context.Context, tx *sqlx.Tx, jobID string) error {
	var id string
	err := tx.GetContext(ctx, &id, `SELECT id FROM extraction_jobs WHERE id = $1 AND decision_status <> 'IGNORED' FOR UPDATE`, jobID)
	if errors.Is(err, sql.ErrNoRows) {
		return jobNotFound()
	}
	return err
}

// CompleteJob stores what the job found, with the page it came from (JOB_NOT_FOUND, storing
// nothing, when the job is gone or dismissed).
func (db *DB) CompleteJob(ctx context.Context, jobID string, result *planner.ExtractionResult) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if err := lockWorkJob(ctx, tx, jobID); err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &result.SocialMediaID, `
			INSERT INTO social_media (id, media_type, url, author_name, title, summary) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT ON CONSTRAINT social_media_url DO UPDATE SET media_type = EXCLUDED.media_type,
			    author_name = EXCLUDED.author_name, title = EXCLUDED.title, summary = EXCLUDED.summary, updated_at = now()
			RETURNING id`, planner.NewID(), result.MediaType, result.URL, result.AuthorName, result.Title, result.Summary); err != nil {
			return err
		}
		b, err := json.Marshal(result)
		if err != nil {
			return err
		}
		if _, err = tx.ExecContext(ctx, `UPDATE extraction_jobs SET status = 'COMPLETED', stage = 'COMPLETED', matched = to_match, result = $2,
			failure_code = NULL, failure_message = NULL, stage_started_at = now(), updated_at = now() WHERE id = $1`, jobID, b); err != nil {
			return err
		}
		return notifyRequester(ctx, tx, jobID, planner.ActExtractionCompleted)
	})
}

// notifyRequester notifies the member who asked for a job that it ended (the link is the
// collection, paths.Collection followed by its id, ids never need escaping); such
// notices are never merged.
func notifyRequester(ctx context.Context, tx *sqlx.Tx, jobID string, kind planner.ActivityKind) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO notifications (id, user_id, category, event_type, details, link_url)
		SELECT `+newRowID+`, m.user_id, $2, $3, jsonb_build_object('in', c.title), $4 || c.id
		FROM extraction_jobs j JOIN collection_members m ON m.id = j.requested_by JOIN collections c ON c.id = j.collection_id
		WHERE j.id = $1 AND m.left_at IS NULL`, jobID, planner.NotifyCollection, kind, paths.Collection(""))
	return err
}

// FailJob records that the job failed for good (JOB_NOT_FOUND when it is gone or dismissed).
func (db *DB) FailJob(ctx context.Context, jobID string, code planner.FailureCode, message string) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if err := lockWorkJob(ctx, tx, jobID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE extraction_jobs SET status = 'FAILED', stage = 'FAILED', failure_code = $2,
			failure_message = $3, stage_started_at = now(), updated_at = now() WHERE id = $1`, jobID, code, message); err != nil {
			return err
		}
		return notifyRequester(ctx, tx, jobID, planner.ActExtractionFailed)
	})
}
