package storage_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
	"tripplan/internal/storage"
)

// pngHeader is enough of a PNG for the sniffer.
var pngHeader = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

// bucket is a local bucket in a temp dir; put writes a file straight into it, last modified at
// the given time.
type bucket struct {
	t     *testing.T
	dir   string
	files *storage.Bucket
}

func newBucket(t *testing.T) *bucket {
	dir := t.TempDir()
	files, err := storage.Open(context.Background(), "", dir, "http://localhost/uploads", []byte("upload-secret-upload-secret-32by"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { files.Close() })
	return &bucket{t: t, dir: dir, files: files}
}

func (b *bucket) put(key string, modified time.Time) {
	b.t.Helper()
	path := filepath.Join(b.dir, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, pngHeader, 0o640); err != nil {
		b.t.Fatal(err)
	}
	if err := os.Chtimes(path, modified, modified); err != nil {
		b.t.Fatal(err)
	}
}

func (b *bucket) exists(key string) bool {
	_, err := os.Stat(filepath.Join(b.dir, filepath.FromSlash(key)))
	return err == nil
}

func signIn(t *testing.T, db *postgres.DB, providerID, picture string) string {
	t.Helper()
	u, err := db.SignInUser(context.Background(), planner.User{Provider: planner.ProviderGoogle, ProviderID: providerID, Nickname: "Ana", Picture: picture})
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func TestOrphanJobDeletesPicturesNoProfileHas(t *testing.T) {
	ctx := context.Background()
	db := pgtest.New(t)
	b := newBucket(t)
	old, fresh := time.Now().Add(-storage.OrphanGrace-time.Minute), time.Now()

	ana := signIn(t, db, "orphan-ana", "")
	current := storage.NewPictureKey(ana, "image/png")
	if _, err := db.SetPicture(ctx, ana, "http://localhost/files/"+current, current); err != nil {
		t.Fatal(err)
	}
	b.put(current, old)
	replaced := storage.NewPictureKey(ana, "image/png") // its deletion failed when it was replaced
	b.put(replaced, old)
	inFlight := storage.NewPictureKey(ana, "image/webp") // stored, not yet recorded
	b.put(inFlight, fresh)
	stray := "pictures/" + ana + "/notes.png.attrs.tmp"
	b.put(stray, old)
	// Another user's profile URL points at one of Ana's files: that keeps nothing alive.
	pointedAt := storage.NewPictureKey(ana, "image/jpeg")
	b.put(pointedAt, old)
	signIn(t, db, "orphan-mal", "http://localhost/files/"+pointedAt)
	// A withdrawn user's leftovers, more than one batch of them.
	bob := signIn(t, db, "orphan-bob", "")
	var leftovers []string
	for range 600 {
		k := storage.NewPictureKey(bob, "image/png")
		b.put(k, old)
		leftovers = append(leftovers, k)
	}
	if err := db.WithdrawUser(ctx, bob, "bye"); err != nil {
		t.Fatal(err)
	}
	outside := "exports/" + planner.NewID() + ".png"
	b.put(outside, old)

	w := &storage.OrphanWorker{Files: b.files, Refs: db}
	if err := w.Work(ctx, &river.Job[storage.OrphanArgs]{}); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]bool{current: true, inFlight: true, outside: true,
		replaced: false, stray: false, pointedAt: false, leftovers[0]: false, leftovers[599]: false} {
		if got := b.exists(key); got != want {
			t.Errorf("%s exists = %v, want %v", key, got, want)
		}
	}
	n := 0
	filepath.WalkDir(filepath.Join(b.dir, "pictures", bob), func(_ string, d os.DirEntry, _ error) error {
		if d != nil && !d.IsDir() {
			n++
		}
		return nil
	})
	if n != 0 {
		t.Errorf("%d of a withdrawn user's files are left", n)
	}
	// The current picture is still served.
	if _, typ, err := b.files.Read(ctx, current); err != nil || typ != "image/png" {
		t.Fatalf("read the current picture: %q %v", typ, err)
	}
}

func TestPictureOwner(t *testing.T) {
	u, id := planner.NewID(), planner.NewID()
	if owner, ok := storage.PictureOwner(storage.NewPictureKey(u, "image/webp")); !ok || owner != u {
		t.Fatalf("a new key's owner = %q %v", owner, ok)
	}
	for _, bad := range []string{"", "pictures/", "pictures/" + u, "pictures/" + u + "/", "pictures/" + u + "/" + id,
		"pictures/" + u + "/" + id + ".png.attrs", "pictures/" + u + "/" + id + ".gif", "pictures/" + u + "/../" + u + "/" + id + ".png",
		"pictures/" + u + "/x/" + id + ".png", "/pictures/" + u + "/" + id + ".png", "pictures/" + u + "/" + id + ".png\x00",
		"other/" + u + "/" + id + ".png", "pictures/" + u[:20] + "/" + id + ".png"} {
		if _, ok := storage.PictureOwner(bad); ok {
			t.Errorf("PictureOwner(%q) ok", bad)
		}
	}
}
