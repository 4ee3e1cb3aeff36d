package web

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"
)

func pngBytes(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// put sends raw bytes to a URL as an app uploading to a presigned URL does.
func put(t *testing.T, url, contentType string, body []byte) int {
	t.Helper()
	r, _ := http.NewRequest("PUT", url, bytes.NewReader(body))
	r.Header.Set("Content-Type", contentType)
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

func TestPictureUploadRoundTrip(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	a.do(req{Method: "PATCH", Path: "/users/me/picture?content_type=image/gif", Token: f.ben}).problem(t, 400, "UNSUPPORTED_IMAGE_CONTENT_TYPE")
	a.do(req{Method: "PATCH", Path: "/users/me/picture", Token: f.ben}).problem(t, 400, "UNSUPPORTED_IMAGE_CONTENT_TYPE")

	res := a.do(req{Method: "PATCH", Path: "/users/me/picture?contentType=image/png", Token: f.ben})
	var up pictureUploadJSON
	if json.Unmarshal(res.Body, &up); res.Status != 200 || !strings.HasPrefix(up.Picture, a.http.URL+"/files/pictures/") || up.PresignedURL == "" {
		t.Fatalf("start upload: %d %s", res.Status, res.Body)
	}
	img := pngBytes(t)
	// Refused: bytes that are not the declared type, another type than signed, a tampered
	// signature, too large.
	if s := put(t, up.PresignedURL, "image/png", []byte("<svg onload=alert(1)>")); s != 400 {
		t.Errorf("non-image bytes: %d", s)
	}
	if s := put(t, up.PresignedURL, "image/jpeg", img); s != 400 {
		t.Errorf("another content type: %d", s)
	}
	if s := put(t, strings.Replace(up.PresignedURL, "signature=", "signature=x", 1), "image/png", img); s != 400 {
		t.Errorf("tampered signature: %d", s)
	}
	if s := put(t, up.PresignedURL, "image/png", append(img, make([]byte, 5<<20)...)); s != 400 {
		t.Errorf("over 5 MB: %d", s)
	}
	if r := a.do(req{Method: "GET", Path: strings.TrimPrefix(up.Picture, a.http.URL)}); r.Status != 404 {
		t.Errorf("before the upload the picture is missing: %d", r.Status)
	}
	if s := put(t, up.PresignedURL, "image/png", img); s != 200 {
		t.Fatalf("upload: %d", s)
	}
	// Served back with its type, and shown to other members.
	got := a.do(req{Method: "GET", Path: strings.TrimPrefix(up.Picture, a.http.URL)})
	if got.Status != 200 || got.Header.Get("Content-Type") != "image/png" || !bytes.Equal(got.Body, img) {
		t.Fatalf("serve: %d %s", got.Status, got.Header.Get("Content-Type"))
	}
	res = a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/members", Token: f.ana})
	if !strings.Contains(string(res.Body), up.Picture) {
		t.Fatalf("members do not show the picture: %s", res.Body)
	}
	// Deleting the picture removes it and its file.
	if r := a.do(req{Method: "DELETE", Path: "/users/me/picture", Token: f.ben}); r.Status != 204 {
		t.Fatalf("delete: %d", r.Status)
	}
	var me userJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: "/users/me", Token: f.ben}).Body, &me)
	if me.Picture != "" {
		t.Fatalf("picture after delete: %q", me.Picture)
	}
	if r := a.do(req{Method: "GET", Path: strings.TrimPrefix(up.Picture, a.http.URL)}); r.Status != 404 {
		t.Fatalf("file after delete: %d", r.Status)
	}
	a.do(req{Method: "GET", Path: "/files/../../etc/passwd"}).problem(t, 404, "NOT_FOUND")
}
