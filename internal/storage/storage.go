// Package storage keeps uploaded files — profile pictures — in a gocloud.dev blob bucket: a
// local directory by default, S3-compatible storage when STORAGE_URL is an s3:// URL.
//
// Clients upload straight to a short-lived signed URL. For S3 that is the store's own presigned
// URL; for the local directory it is this server's PUT /uploads, which checks the signature,
// the size and the bytes. Files are served back by GET /files/{key} with the type their bytes
// show, so nothing but the accepted image types is ever served, whoever stored it.
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
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/s3blob" // s3:// URLs
	"gocloud.dev/gcerrors"
)

// Limits of a picture.
const (
	MaxPictureBytes = 5 << 20
	UploadTTL       = 10 * time.Minute
)

// PictureTypes are the accepted image types and the file extension of each.
var PictureTypes = map[string]string{"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp"}

// ErrNotFound is a key with no file (or a file that is not an accepted image).
var ErrNotFound = errors.New("storage: no such file")

// ErrRejected is an upload refused: bad or expired signature, wrong type, too large.
var ErrRejected = errors.New("storage: upload refused")

// Store is a bucket of uploaded files.
type Store struct {
	bucket *blob.Bucket
	signer *fileblob.URLSignerHMAC // the local directory's signer; nil for remote stores
}

// Open opens storageURL, or the local directory dir when it is empty; uploadURL is where the
// local directory's signed uploads go (this server's PUT /uploads), secret signs them.
func Open(ctx context.Context, storageURL, dir, uploadURL string, secret []byte) (*Store, error) {
	if storageURL != "" {
		b, err := blob.OpenBucket(ctx, storageURL)
		if err != nil {
			return nil, fmt.Errorf("open STORAGE_URL: %w", err)
		}
		return &Store{bucket: b}, nil
	}
	base, err := url.Parse(uploadURL)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	signer := fileblob.NewURLSignerHMAC(base, secret)
	b, err := fileblob.OpenBucket(dir, &fileblob.Options{URLSigner: signer, NoTempDir: true})
	if err != nil {
		return nil, err
	}
	return &Store{bucket: b, signer: signer}, nil
}

// Close closes the bucket.
func (s *Store) Close() error { return s.bucket.Close() }

// UploadURL is a URL that accepts one PUT of the file's bytes with that content type, for
// UploadTTL.
func (s *Store) UploadURL(ctx context.Context, key, contentType string) (string, error) {
	return s.bucket.SignedURL(ctx, key, &blob.SignedURLOptions{Method: http.MethodPut, ContentType: contentType, Expiry: UploadTTL})
}

// Accept stores the body of a PUT to a signed upload URL of the local directory: the signature
// must be valid and unexpired and be for a PUT of the request's content type, and the bytes
// must be an accepted image of that type, at most MaxPictureBytes.
func (s *Store) Accept(ctx context.Context, r *http.Request) (key string, err error) {
	if s.signer == nil || r.Method != http.MethodPut {
		return "", ErrRejected
	}
	key, err = s.signer.KeyFromURL(ctx, r.URL)
	q := r.URL.Query()
	contentType := r.Header.Get("Content-Type")
	if err != nil || q.Get("method") != http.MethodPut || q.Get("contentType") != contentType || PictureTypes[contentType] == "" {
		return "", ErrRejected
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, MaxPictureBytes+1))
	if err != nil || len(data) > MaxPictureBytes || Sniff(data) != contentType {
		return "", ErrRejected
	}
	return key, s.bucket.WriteAll(ctx, key, data, &blob.WriterOptions{ContentType: contentType})
}

// Sniff is the accepted image type the bytes are, or "".
func Sniff(data []byte) string {
	t := http.DetectContentType(data[:min(len(data), 512)])
	if PictureTypes[t] == "" {
		return ""
	}
	return t
}

// Read returns a file's bytes and the image type they show; ErrNotFound when there is no such
// file or it is not an accepted image.
func (s *Store) Read(ctx context.Context, key string) ([]byte, string, error) {
	r, err := s.bucket.NewReader(ctx, key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound || gcerrors.Code(err) == gcerrors.InvalidArgument {
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

// Delete removes a file; a missing one is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	err := s.bucket.Delete(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil
	}
	return err
}
