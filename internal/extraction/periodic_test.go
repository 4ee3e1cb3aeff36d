package extraction_test

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"tripplan/internal/extraction"
	"tripplan/internal/postgres/pgtest"
)

type tickArgs struct{}

func (tickArgs) Kind() string { return "test_tick" }

type tickWorker struct {
	river.WorkerDefaults[tickArgs]
	ran chan struct{}
}

func (w *tickWorker) Work(context.Context, *river.Job[tickArgs]) error {
	select {
	case w.ran <- struct{}{}:
	default:
	}
	return nil
}

func TestPeriodicJobRunsAtStart(t *testing.T) {
	db := pgtest.New(t)
	w := &tickWorker{ran: make(chan struct{}, 1)}
	q, err := extraction.NewQueue(db.DB.DB, &extraction.Worker{}, nil, extraction.Every(time.Hour, tickArgs{}, w))
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		q.Stop(ctx)
	})
	select {
	case <-w.ran:
	case <-time.After(30 * time.Second): // a deadline for the condition, not a wait
		t.Fatal("the periodic job did not run at start")
	}
}
