package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"tripplan/internal/postgres/pgtest"
)

// TestTwoInstancesShareOneBucket starts two server processes on one database and one bucket
// of an S3 server (gofakes3 in this process, speaking the S3 protocol over HTTP): a picture
// uploaded through one instance is served by the other, byte for byte.
func TestTwoInstancesShareOneBucket(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("tripplan"); err != nil {
		t.Fatal(err)
	}
	s3 := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(s3.Close)
	env := []string{"STORAGE_URL=s3://tripplan?endpoint=" + url.QueryEscape(s3.URL) + "&use_path_style=true&region=us-east-1",
		"AWS_ACCESS_KEY_ID=tripplan-test", "AWS_SECRET_ACCESS_KEY=tripplan-test-secret"}
	dbURL := pgtest.URL(t)
	a, b := startInstance(t, dbURL, env...), startInstance(t, dbURL, env...)
	ana := a.member(t, "bucket-ana", "Ana")

	status, body := a.call(t, "PATCH", "/users/me/picture?content_type=image/png", ana, nil)
	var up struct {
		PresignedURL string `json:"presigned_url"`
		Picture      string `json:"picture"`
	}
	if json.Unmarshal(body, &up); status != 200 || up.PresignedURL == "" {
		t.Fatalf("start upload on A: %d %s", status, body)
	}
	// The URLs are under the instance's public URL, http://localhost:0 with ADDR's port 0: the
	// upload goes to A itself.
	upload, err := url.Parse(up.PresignedURL)
	if err != nil {
		t.Fatal(err)
	}
	picture := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR Ana's picture")
	r, _ := http.NewRequest("PUT", a.base+upload.RequestURI(), bytes.NewReader(picture))
	r.Header.Set("Content-Type", "image/png")
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("upload to A: %d", res.StatusCode)
	}

	path := up.Picture[strings.Index(up.Picture, "/files/"):]
	if o, err := backend.HeadObject("tripplan", strings.TrimPrefix(path, "/files/")); err != nil || o.Size != int64(len(picture)) {
		t.Fatalf("the picture in the bucket: %+v %v", o, err)
	}
	res, err = http.Get(b.base + path)
	if err != nil {
		t.Fatal(err)
	}
	served, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" || !bytes.Equal(served, picture) {
		t.Fatalf("B serves the picture uploaded through A: %d %s %q %v", res.StatusCode, res.Header.Get("Content-Type"), served, err)
	}
	if _, body := b.call(t, "GET", "/users/me", ana, nil); !strings.Contains(string(body), up.Picture) {
		t.Fatalf("B's profile of Ana lacks the picture %s: %s", up.Picture, body)
	}
}
