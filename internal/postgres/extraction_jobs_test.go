package postgres_test

import (
	"context"
	"database/sql"
	"testing"

	"tripplan/internal/planner"
)

// The worker's stages: each comes with its status, the stage's start moves only when the stage
// changes (so the panel can tell how long it has lasted), counting names keeps it, and a job
// completed takes no more stages and has all its names counted.
func TestJobStages(t *testing.T) {
	db, demo := seededDB(t)
	ctx := t.Context()
	var ana string
	mustGet(t, db, &ana, `SELECT user_id FROM collection_members WHERE nickname = 'Ana'`)
	db.OnExtraction(noQueue{})
	j, err := db.CreateExtractionJob(ctx, ana, demo.collection, "https://a.example/seoul", "https://a.example/seoul")
	if err != nil {
		t.Fatal(err)
	}
	if j.Stage != planner.StagePending || j.Progress != nil {
		t.Fatalf("new job: %s %+v", j.Stage, j.Progress)
	}
	read := func() *planner.ExtractionJob {
		t.Helper()
		j, err := db.ExtractionJob(ctx, ana, demo.collection, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	set := func(stage planner.Stage, p *planner.Progress) {
		t.Helper()
		if err := db.SetJobStage(ctx, j.ID, stage, p); err != nil {
			t.Fatalf("%s: %v", stage, err)
		}
	}
	set(planner.StageFetching, nil)
	if got := read(); got.Stage != planner.StageFetching || got.Status != planner.JobExtracting {
		t.Fatalf("fetching: %s %s", got.Stage, got.Status)
	}
	set(planner.StageMatching, &planner.Progress{Total: 40})
	// Say the matching began 12 s ago: it keeps its start while names are counted.
	if _, err := db.ExecContext(ctx, `UPDATE extraction_jobs SET stage_started_at = now() - interval '12 seconds' WHERE id = $1`, j.ID); err != nil {
		t.Fatal(err)
	}
	set(planner.StageMatching, &planner.Progress{Done: 12, Total: 40})
	got := read()
	if got.Stage != planner.StageMatching || got.Status != planner.JobSearching || got.Progress == nil || *got.Progress != (planner.Progress{Done: 12, Total: 40}) {
		t.Fatalf("matching: %s %s %+v", got.Stage, got.Status, got.Progress)
	}
	if got.StageAge <= planner.SlowStageAfter {
		t.Errorf("matching for %v; it began 12 s ago", got.StageAge)
	}
	if err := db.CompleteJob(ctx, j.ID, &planner.ExtractionResult{URL: "https://a.example/seoul", MediaType: "WEB", Title: "Seoul"}); err != nil {
		t.Fatal(err)
	}
	got = read()
	if got.Stage != planner.StageCompleted || got.Progress == nil || *got.Progress != (planner.Progress{Done: 40, Total: 40}) || got.StageAge > planner.SlowStageAfter {
		t.Fatalf("completed: %s %+v %v", got.Stage, got.Progress, got.StageAge)
	}
	if err := db.SetJobStage(ctx, j.ID, planner.StageFetching, nil); planner.ErrorCode(err) != planner.CodeJobNotFound {
		t.Errorf("a stage after completion: %v", err)
	}
}

// noQueue stands for the job queue where a test needs jobs recorded, never worked.
type noQueue struct{}

func (noQueue) Enqueue(context.Context, *sql.Tx, string) (int64, error) { return 1, nil }
func (noQueue) Cancel(context.Context, *sql.Tx, int64) error            { return nil }
