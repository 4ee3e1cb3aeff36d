package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"tripplan/internal/testimg"
)

func pngBytes(t *testing.T) []byte { return testimg.PNG(t, 4, 4) }

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
	// signature, too large (none of which uses up the URL).
	if s := put(t, up.PresignedURL, "image/png", []byte("<svg onload=alert(1)>")); s != 400 {
		t.Errorf("non-image bytes: %d", s)
	}
	if s := put(t, up.PresignedURL, "image/jpeg", img); s != 400 {
		t.Errorf("another content type: %d", s)
	}
	uploadTo(t, strings.Replace(up.PresignedURL, "signature=", "signature=x", 1), "image/png", img).problem(t, 403, "INVALID_UPLOAD_URL")
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

// uploadTo sends raw bytes to an upload URL and answers what the client saw.
func uploadTo(t *testing.T, url, contentType string, body []byte) response {
	t.Helper()
	r, _ := http.NewRequest("PUT", url, bytes.NewReader(body))
	r.Header.Set("Content-Type", contentType)
	r.Header.Set("Accept", "application/json")
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// startUpload asks for an upload URL for a PNG picture.
func (a *testApp) startUpload(t *testing.T, token string) pictureUploadJSON {
	t.Helper()
	res := a.do(req{Method: "PATCH", Path: "/users/me/picture?content_type=image/png", Token: token})
	var up pictureUploadJSON
	if err := json.Unmarshal(res.Body, &up); err != nil || res.Status != 200 {
		t.Fatalf("start upload: %d %s", res.Status, res.Body)
	}
	return up
}

// uploadPicture gives the user a new PNG picture and answers its URL.
func (a *testApp) uploadPicture(t *testing.T, token string) string {
	t.Helper()
	up := a.startUpload(t, token)
	if r := uploadTo(t, up.PresignedURL, "image/png", pngBytes(t)); r.Status != 200 {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	return up.Picture
}

// fileStatus is the status GET answers for a picture URL of this server.
func (a *testApp) fileStatus(t *testing.T, picture string) int {
	t.Helper()
	return a.do(req{Method: "GET", Path: strings.TrimPrefix(picture, a.http.URL)}).Status
}

func (a *testApp) me(t *testing.T, token string) userJSON {
	t.Helper()
	var me userJSON
	res := a.do(req{Method: "GET", Path: "/users/me", Token: token})
	if err := json.Unmarshal(res.Body, &me); err != nil || res.Status != 200 {
		t.Fatalf("GET /users/me: %d %s", res.Status, res.Body)
	}
	return me
}

func TestUploadURLWorksOnce(t *testing.T) {
	a := newTestApp(t)
	ben := a.member("once-ben", "Ben")
	img := pngBytes(t)

	first := a.startUpload(t, ben)
	if me := a.me(t, ben); me.Picture != "" {
		t.Fatalf("the picture changed before the upload arrived: %q", me.Picture)
	}
	if r := uploadTo(t, first.PresignedURL, "image/png", img); r.Status != 200 {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	if me := a.me(t, ben); me.Picture != first.Picture {
		t.Fatalf("picture after upload = %q, want %q", me.Picture, first.Picture)
	}
	// The same URL again is refused, and the picture's bytes stay.
	uploadTo(t, first.PresignedURL, "image/png", pngBytes(t)).problem(t, 403, "INVALID_UPLOAD_URL")

	// A newer upload URL invalidates an older unused one. Until an upload arrives the user
	// keeps the picture they have, whatever URLs were issued or refused.
	older, newer := a.startUpload(t, ben), a.startUpload(t, ben)
	uploadTo(t, older.PresignedURL, "image/png", img).problem(t, 403, "INVALID_UPLOAD_URL")
	if s := a.fileStatus(t, older.Picture); s != 404 {
		t.Fatalf("a refused upload was stored: %d", s)
	}
	uploadTo(t, newer.PresignedURL, "image/png", []byte("not a picture")).problem(t, 400, "UNSUPPORTED_IMAGE_CONTENT_TYPE")
	if me := a.me(t, ben); me.Picture != first.Picture || a.fileStatus(t, first.Picture) != 200 {
		t.Fatalf("before the new upload arrived the picture became %q (the first one's file answers %d)", me.Picture, a.fileStatus(t, first.Picture))
	}
	// Several PUTs at once to one URL: exactly one is taken.
	var wg sync.WaitGroup
	statuses := make([]int, 5)
	for i := range statuses {
		wg.Go(func() { statuses[i] = uploadTo(t, newer.PresignedURL, "image/png", img).Status })
	}
	wg.Wait()
	slices.Sort(statuses)
	if !slices.Equal(statuses, []int{200, 403, 403, 403, 403}) {
		t.Fatalf("concurrent uploads to one URL: %v", statuses)
	}
	// The newer picture replaced the first, whose file is gone.
	if me := a.me(t, ben); me.Picture != newer.Picture {
		t.Fatalf("picture = %q, want %q", me.Picture, newer.Picture)
	}
	if s := a.fileStatus(t, first.Picture); s != 404 {
		t.Fatalf("the replaced picture's file: %d", s)
	}
	if s := a.fileStatus(t, newer.Picture); s != 200 {
		t.Fatalf("the new picture's file: %d", s)
	}
}

// memberWithPicture signs a user in whose provider supplied the picture URL.
func (a *testApp) memberWithPicture(t *testing.T, providerID, picture string) string {
	t.Helper()
	res := a.do(req{Method: "POST", Path: "/dev/auth/login", Body: map[string]string{
		"provider": "GOOGLE", "provider_id": providerID, "nickname": "Mal", "picture": picture}})
	if res.Status != 200 {
		t.Fatalf("dev login: %d %s", res.Status, res.Body)
	}
	res = a.do(req{Method: "PATCH", Path: "/users/me/terms", Token: res.json(t)["access_token"].(string)})
	if res.Status != 200 {
		t.Fatalf("accept terms: %d %s", res.Status, res.Body)
	}
	return res.json(t)["access_token"].(string)
}

func TestPictureChangesTouchOnlyTheUsersOwnFiles(t *testing.T) {
	a := newTestApp(t)
	ben := a.member("own-ben", "Ben")
	benPicture := a.uploadPicture(t, ben)
	benKey := strings.TrimPrefix(benPicture, a.http.URL+"/files/pictures/")
	// Whatever URL a provider put in a profile: another user's file, a path that climbs out
	// of one's own prefix into his, the provider's own URL.
	for i, picture := range []string{
		benPicture,
		a.http.URL + "/files/pictures/" + strings.Repeat("m", 21) + "/../" + benKey,
		a.http.URL + "/files/pictures/%2e%2e/pictures/" + benKey,
		"https://lh3.googleusercontent.com/a/photo.png",
	} {
		// Removing the picture, replacing it, withdrawing.
		mal := a.memberWithPicture(t, fmt.Sprintf("mal-del-%d", i), picture)
		if me := a.me(t, mal); me.Picture != picture {
			t.Fatalf("profile picture = %q, want %q", me.Picture, picture)
		}
		if r := a.do(req{Method: "DELETE", Path: "/users/me/picture", Token: mal}); r.Status != 204 {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		mal = a.memberWithPicture(t, fmt.Sprintf("mal-put-%d", i), picture)
		a.uploadPicture(t, mal)
		mal = a.memberWithPicture(t, fmt.Sprintf("mal-wd-%d", i), picture)
		if r := a.do(req{Method: "DELETE", Path: "/users/me", Token: mal, Body: map[string]string{"reason": "bye"}}); r.Status != 204 {
			t.Fatalf("withdraw: %d %s", r.Status, r.Body)
		}
		if s := a.fileStatus(t, benPicture); s != 200 {
			t.Fatalf("profile picture %q: Ben's file answers %d after another user's changes", picture, s)
		}
	}
}

func TestOddFilePathsAreNotFound(t *testing.T) {
	a := newTestApp(t)
	ben := a.member("odd-ben", "Ben")
	picture := strings.TrimPrefix(a.uploadPicture(t, ben), a.http.URL)
	for _, path := range []string{
		"/files/",
		"/files/pictures",
		"/files/pictures/",
		picture + ".attrs", // gocloud fileblob's sidecar of the picture
		picture + "%2eattrs",
		picture + "/",
		picture + "%00",
		"/files/a%00b",
		"/files/../../etc/passwd",
		"/files/%2e%2e/%2e%2e/etc/passwd",
		"/files/..%2f..%2fgo.mod",
		"/files/pictures/..%5c..%5cgo.mod",
		"/files/%252e%252e/go.mod",
		"/files/" + strings.Repeat("a", 300),
		"/files/" + strings.Repeat("a/", 2000),
		"/files/" + strings.Repeat("ab", 4000) + ".png",
		"/files/pictures/%ff%fe.png",
	} {
		a.do(req{Method: "GET", Path: path}).problem(t, 404, "NOT_FOUND")
		res := a.do(req{Method: "GET", Path: path, Header: map[string]string{"Accept": "text/html"}})
		if res.Status != 404 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET %s as a page: %d %s", path, res.Status, res.Header.Get("Content-Type"))
		}
	}
}
