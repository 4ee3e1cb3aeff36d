package storage_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"tripplan/internal/planner"
	"tripplan/internal/storage"
)

// fakeS3 starts an S3 server in this process (gofakes3: the S3 protocol over HTTP, objects
// in memory) holding the bucket "tripplan", and answers the STORAGE_URL of that bucket and
// of one that does not exist. The credentials come from the environment, as in production.
func fakeS3(t *testing.T) (bucketURL, missingURL string) {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("tripplan"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "tripplan-test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "tripplan-test-secret")
	params := "?endpoint=" + url.QueryEscape(srv.URL) + "&use_path_style=true&region=us-east-1"
	return "s3://tripplan" + params, "s3://no-such-bucket" + params
}

// openS3 opens a store on an s3:// URL, as one instance of the server does.
func openS3(t *testing.T, storageURL string) *storage.Bucket {
	t.Helper()
	s, err := storage.Open(context.Background(), storageURL, "", "http://localhost/uploads", []byte("upload-secret-upload-secret-32by"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// receive passes a PUT of the bytes to a URL the store signed through the store's Receive.
func receive(t *testing.T, s *storage.Bucket, key string, data []byte) *storage.Upload {
	t.Helper()
	ctx := context.Background()
	signed, err := s.UploadURL(ctx, key, "image/png")
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequestWithContext(ctx, http.MethodPut, signed, bytes.NewReader(data))
	r.Header.Set("Content-Type", "image/png")
	up, err := s.Receive(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	return up
}

// TestStoresShareAnS3Bucket opens two stores on one bucket of an S3 server, as two instances
// of the server do: what one stores the other serves, deletes and lists.
func TestStoresShareAnS3Bucket(t *testing.T) {
	ctx := context.Background()
	bucketURL, _ := fakeS3(t)
	a, b := openS3(t, bucketURL), openS3(t, bucketURL)
	picture := append(slices.Clone(pngHeader), "a picture of Ana"...)

	ana, ben := planner.NewID(), planner.NewID()
	key := storage.NewPictureKey(ana, "image/png")
	if _, _, err := b.Read(ctx, key); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a picture not yet stored: %v", err)
	}
	if err := a.Write(ctx, receive(t, a, key, picture)); err != nil {
		t.Fatal(err)
	}
	data, contentType, err := b.Read(ctx, key)
	if err != nil || contentType != "image/png" || !bytes.Equal(data, picture) {
		t.Fatalf("stored through one store, read through the other: %q %s %v", data, contentType, err)
	}

	// Deleting through one store removes the file for the other; a second delete is no error.
	if err := b.DeletePicture(ctx, ana, key); err != nil {
		t.Fatal(err)
	}
	if err := b.DeletePicture(ctx, ana, key); err != nil {
		t.Fatalf("deleting a deleted picture: %v", err)
	}
	if _, _, err := a.Read(ctx, key); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("deleted through one store, read through the other: %v", err)
	}

	// A user's files are listed under the user's prefix: deleting the user through one store
	// removes every file the other stored for that user, and no one else's.
	anaKeys := []string{storage.NewPictureKey(ana, "image/png"), storage.NewPictureKey(ana, "image/png")}
	benKey := storage.NewPictureKey(ben, "image/png")
	for _, k := range append(slices.Clone(anaKeys), benKey) {
		if err := a.Write(ctx, receive(t, a, k, picture)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.DeleteUser(ctx, ana); err != nil {
		t.Fatal(err)
	}
	for _, k := range anaKeys {
		if _, _, err := a.Read(ctx, k); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("%s after its user was deleted: %v", k, err)
		}
	}
	if _, _, err := a.Read(ctx, benKey); err != nil {
		t.Fatalf("another user's picture after deleting Ana: %v", err)
	}

	// The orphan job lists the bucket with the time S3 keeps: files written before the cutoff
	// that no profile claims go, claimed ones stay, and newer ones are not even asked about.
	orphan := storage.NewPictureKey(ben, "image/png")
	if err := a.Write(ctx, receive(t, a, orphan, picture)); err != nil {
		t.Fatal(err)
	}
	var asked []string
	claimOnly := func(_ context.Context, keys []string) ([]string, error) {
		asked = append(asked, keys...)
		return slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return k != benKey }), nil
	}
	if n, err := b.DeleteOrphans(ctx, time.Now().Add(-time.Hour), claimOnly); err != nil || n != 0 || len(asked) != 0 {
		t.Fatalf("orphans before an hour-old cutoff: deleted %d, asked about %v, %v", n, asked, err)
	}
	if n, err := b.DeleteOrphans(ctx, time.Now().Add(time.Minute), claimOnly); err != nil || n != 1 {
		t.Fatalf("orphans: deleted %d, %v; want 1", n, err)
	}
	if slices.Sort(asked); !slices.Equal(asked, sorted(benKey, orphan)) {
		t.Fatalf("asked about %v, want %v", asked, sorted(benKey, orphan))
	}
	if _, _, err := a.Read(ctx, orphan); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("an orphan after the job: %v", err)
	}
	if _, _, err := a.Read(ctx, benKey); err != nil {
		t.Fatalf("a claimed picture after the job: %v", err)
	}
}

func sorted(keys ...string) []string {
	slices.Sort(keys)
	return keys
}

// TestOpenRefusesAMissingBucket: creating the bucket is the operator's job, and a STORAGE_URL
// naming one that does not exist stops the start with a message that says so.
func TestOpenRefusesAMissingBucket(t *testing.T) {
	_, missingURL := fakeS3(t)
	_, err := storage.Open(context.Background(), missingURL, "", "http://localhost/uploads", []byte("upload-secret-upload-secret-32by"))
	if err == nil || !strings.Contains(err.Error(), "no-such-bucket") || !strings.Contains(err.Error(), "create it first") {
		t.Fatalf("open a missing bucket: %v", err)
	}
}
