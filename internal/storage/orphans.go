package storage

import (
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
)

// Orphan pictures: files no profile refers to any more (a replacement whose old file could not
// be deleted, an upload stored by an instance that stopped before recording it, a withdrawn
// account's leftovers) are deleted by a periodic River job.
const (
	// OrphanInterval is how often the job runs.
	OrphanInterval = time.Hour
	// OrphanGrace is how old an unreferred file must be before it goes: an upload is stored a
	// moment before the profile refers to it, and that moment must not cost the picture.
	OrphanGrace = time.Hour
)

// OrphanArgs is the periodic job that deletes orphan pictures.
type OrphanArgs struct{}

// Kind names the job kind on the queue.
func (OrphanArgs) Kind() string { return "delete_orphan_pictures" }

// References knows which picture keys profiles refer to.
type References interface {
	PictureKeysInUse(ctx context.Context, keys []string) ([]string, error)
}

// OrphanWorker works the orphan pictures job.
type OrphanWorker struct {
	river.WorkerDefaults[OrphanArgs]
	Files *Bucket
	Refs  References
	Log   *slog.Logger
}

// Work deletes the files under pictures/ older than OrphanGrace that no profile refers to.
func (w *OrphanWorker) Work(ctx context.Context, _ *river.Job[OrphanArgs]) error {
	n, err := w.Files.DeleteOrphans(ctx, time.Now().Add(-OrphanGrace), w.Refs.PictureKeysInUse)
	if n > 0 && w.Log != nil {
		w.Log.InfoContext(ctx, "deleted orphan pictures", "count", n)
	}
	return err
}
