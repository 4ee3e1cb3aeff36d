// Package storage keeps uploaded files — profile pictures — in a gocloud.dev blob bucket: a
// local directory by default, S3-compatible storage when STORAGE_URL is an s3:// URL.
//
// A picture's key is pictures/<user id>/<random id><ext>: everything a user uploads lies under
// that user's own prefix, and nothing is read, written or deleted under any other key.
//
// Clients upload to a short-lived signed URL of this server (PUT /uploads), whatever the
// bucket: the server checks the signature, the size and the bytes, and the caller makes sure the
// URL is used once (a store-side presigned URL could not be). Files are served back by
// GET /files/{key} with the type their bytes show, so nothing but the accepted image types is
// ever served, whoever stored it.
package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/driver"
	"gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/s3blob" // s3:// URLs
	"gocloud.dev/gcerrors"

	"tripplan/internal/planner"
)

// Limits of a picture.
const (
	MaxPictureBytes = 5 << 20
	UploadTTL       = 10 * time.Minute
)

// PictureTypes are the accepted image types and the file extension of each.
var PictureTypes = map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp"}

// picturesPrefix is where every picture lies, each user's under picturesPrefix + user id + "/".
const picturesPrefix = "pictures/"

// ErrNotFound is a key with no file (or a file that is not an accepted image).
var ErrNotFound = errors.New("storage: no such file")

// ErrBadURL is an upload to a URL this server did not sign, or whose time is up.
var ErrBadURL = errors.New("storage: upload URL not valid")

// ErrRejected is an upload of bytes refused: wrong type, too large.
var ErrRejected = errors.New("storage: upload refused")

// Bucket holds the uploaded files (a directory, or an S3 bucket).
type Bucket struct {
	bucket *blob.Bucket
	signer *fileblob.URLSignerHMAC // signs the upload URLs to this server's PUT /uploads
}

// Open opens storageURL, or the local directory dir when it is empty; uploadURL is where signed
// uploads go (this server's PUT /uploads), secret signs them.
func Open(ctx context.Context, storageURL, dir, uploadURL string, secret []byte) (*Bucket, error) {
	base, err := url.Parse(uploadURL)
	if err != nil {
		return nil, err
	}
	signer := fileblob.NewURLSignerHMAC(base, secret)
	if storageURL != "" {
		b, err := blob.OpenBucket(ctx, storageURL)
		if err != nil {
			return nil, fmt.Errorf("open STORAGE_URL: %w", err)
		}
		// The bucket is the operator's to create: a missing one, or one the credentials cannot
		// list, stops the start here rather than failing every upload later.
		if ok, err := b.IsAccessible(ctx); err != nil || !ok {
			b.Close()
			if err == nil {
				err = errors.New("no such bucket: create it first")
			}
			return nil, fmt.Errorf("STORAGE_URL %s: %w", storageURL, err)
		}
		return &Bucket{bucket: b, signer: signer}, nil
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	b, err := fileblob.OpenBucket(dir, &fileblob.Options{NoTempDir: true})
	if err != nil {
		return nil, err
	}
	return &Bucket{bucket: b, signer: signer}, nil
}

// Close closes the bucket.
func (s *Bucket) Close() error { return s.bucket.Close() }

// NewPictureKey is a fresh key for a picture of the user, of an accepted type.
func NewPictureKey(userID, contentType string) string {
	return picturesPrefix + userID + "/" + planner.NewID() + PictureTypes[contentType]
}

// PictureOwner is the user a picture key belongs to; ok is false for anything but a key
// NewPictureKey makes (traversal, sidecar files, odd characters, other folders).
func PictureOwner(key string) (userID string, ok bool) {
	rest, ok := strings.CutPrefix(key, picturesPrefix)
	if !ok {
		return "", false
	}
	userID, name, ok := strings.Cut(rest, "/")
	if !ok || !planner.ValidID(userID) {
		return "", false
	}
	dot := strings.IndexByte(name, '.')
	if dot < 0 || !planner.ValidID(name[:dot]) {
		return "", false
	}
	for _, ext := range PictureTypes {
		if name[dot:] == ext {
			return userID, true
		}
	}
	return "", false
}

// UploadURL is a URL that accepts a PUT of the file's bytes with that content type, for
// UploadTTL (Receive checks it).
func (s *Bucket) UploadURL(ctx context.Context, key, contentType string) (string, error) {
	u, err := s.signer.URLFromKey(ctx, key, &driver.SignedURLOptions{Method: http.MethodPut, ContentType: contentType, Expiry: UploadTTL})
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// Upload is a picture received at a signed upload URL, not yet stored.
type Upload struct {
	Key, ContentType string
	Data             []byte
}

// Receive reads the body of a PUT to a signed upload URL: the signature must be valid and
// unexpired, for a PUT of the request's content type and a picture key (else ErrBadURL), and
// the bytes an accepted image of that type, at most MaxPictureBytes (else ErrRejected).
func (s *Bucket) Receive(ctx context.Context, r *http.Request) (*Upload, error) {
	key, err := s.signer.KeyFromURL(ctx, r.URL)
	q := r.URL.Query()
	if _, owned := PictureOwner(key); err != nil || r.Method != http.MethodPut || q.Get("method") != http.MethodPut || !owned {
		return nil, ErrBadURL
	}
	contentType := r.Header.Get("Content-Type")
	if q.Get("contentType") != contentType || PictureTypes[contentType] == "" {
		return nil, ErrRejected
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, MaxPictureBytes+1))
	if err != nil || len(data) > MaxPictureBytes || Sniff(data) != contentType {
		return nil, ErrRejected
	}
	return &Upload{Key: key, ContentType: contentType, Data: data}, nil
}

// Write stores a received upload.
func (s *Bucket) Write(ctx context.Context, u *Upload) error {
	return s.bucket.WriteAll(ctx, u.Key, u.Data, &blob.WriterOptions{ContentType: u.ContentType})
}

// Sniff is the accepted image type the bytes are, or "".
func Sniff(data []byte) string {
	t := http.DetectContentType(data[:min(len(data), 512)])
	if PictureTypes[t] == "" {
		return ""
	}
	return t
}

// Read returns a picture's bytes and the image type they show; ErrNotFound when the key is not
// a picture key, there is no such file, or it is not an accepted image.
func (s *Bucket) Read(ctx context.Context, key string) ([]byte, string, error) {
	if _, ok := PictureOwner(key); !ok {
		return nil, "", ErrNotFound
	}
	r, err := s.bucket.NewReader(ctx, key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, "", ErrNotFound
	}
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(r, MaxPictureBytes+1)); err != nil {
		return nil, "", err
	}
	t := Sniff(buf.Bytes())
	if t == "" || buf.Len() > MaxPictureBytes {
		return nil, "", ErrNotFound
	}
	return buf.Bytes(), t, nil
}

// DeletePicture removes one of the user's pictures; a key that is not a picture key of that
// user is refused, a missing file is not an error.
func (s *Bucket) DeletePicture(ctx context.Context, userID, key string) error {
	if owner, ok := PictureOwner(key); !ok || owner != userID {
		return fmt.Errorf("storage: %q is not a picture of user %s", key, userID)
	}
	return s.delete(ctx, key)
}

// DeleteUser removes every file under the user's prefix.
func (s *Bucket) DeleteUser(ctx context.Context, userID string) error {
	if !planner.ValidID(userID) {
		return fmt.Errorf("storage: %q is not a user id", userID)
	}
	it := s.bucket.List(&blob.ListOptions{Prefix: picturesPrefix + userID + "/"})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.delete(ctx, o.Key); err != nil {
			return err
		}
	}
}

func (s *Bucket) delete(ctx context.Context, key string) error {
	err := s.bucket.Delete(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil
	}
	return err
}

// orphanBatch is how many keys DeleteOrphans asks about at once.
const orphanBatch = 500

// DeleteOrphans deletes the files under pictures/ last written before cutoff that inUse does
// not claim: inUse answers which of the keys it is given are still referred to. It answers how
// many files it deleted. Files written since cutoff are left alone (an upload in flight is
// stored before a profile refers to it).
func (s *Bucket) DeleteOrphans(ctx context.Context, cutoff time.Time, inUse func(ctx context.Context, keys []string) ([]string, error)) (int, error) {
	deleted := 0
	var batch []string
	flush := func() error {
		used, err := inUse(ctx, batch)
		if err != nil {
			return err
		}
		kept := make(map[string]bool, len(used))
		for _, k := range used {
			kept[k] = true
		}
		for _, k := range batch {
			if !kept[k] {
				if err := s.delete(ctx, k); err != nil {
					return err
				}
				deleted++
			}
		}
		batch = batch[:0]
		return nil
	}
	it := s.bucket.List(&blob.ListOptions{Prefix: picturesPrefix})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return deleted, err
		}
		if o.IsDir || !o.ModTime.Before(cutoff) {
			continue
		}
		if _, ok := PictureOwner(o.Key); !ok { // no profile can refer to it
			if err := s.delete(ctx, o.Key); err != nil {
				return deleted, err
			}
			deleted++
			continue
		}
		if batch = append(batch, o.Key); len(batch) == orphanBatch {
			if err := flush(); err != nil {
				return deleted, err
			}
		}
	}
	if len(batch) > 0 {
		if err := flush(); err != nil {
			return deleted, err
		}
	}
	return deleted, nil
}
