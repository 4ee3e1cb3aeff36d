package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
	"tripplan/internal/storage"
)

// filesPath is where stored files are served; a picture's URL is BaseURL + filesPath + key.
const filesPath = "/files/"

type pictureUploadJSON struct {
	PresignedURL string `json:"presigned_url"`
	Picture      string `json:"picture"`
}

// startPictureUpload answers a signed URL that accepts the new picture's bytes once, for ten
// minutes, and the URL the picture will have. The profile keeps its picture until the upload
// arrives; issuing this URL makes any older unused one stop working.
func (s *Server) startPictureUpload(c echo.Context) error {
	contentType := queryParam(c, "content_type", "contentType")
	if _, ok := storage.PictureTypes[contentType]; !ok {
		return planner.Errorf(planner.CodeUnsupportedImageType, "The picture must be image/jpeg, image/png or image/webp.")
	}
	ctx, userID := c.Request().Context(), caller(c).UserID
	key := storage.NewPictureKey(userID, contentType)
	if err := s.store.StartPictureUpload(ctx, userID, key, storage.UploadTTL); err != nil {
		return err
	}
	upload, err := s.files.UploadURL(ctx, key, contentType)
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, pictureUploadJSON{PresignedURL: upload, Picture: s.cfg.BaseURL + filesPath + key}, nil, nil)
}

// deletePicture removes the user's picture.
func (s *Server) deletePicture(c echo.Context) error {
	ctx, userID := c.Request().Context(), caller(c).UserID
	old, err := s.store.SetPicture(ctx, userID, "", "")
	if err != nil {
		return err
	}
	s.deletePictureFile(ctx, userID, old)
	return respondChange(c, http.StatusNoContent, nil, nil, "/profile")
}

// deletePictureFile deletes a picture file the user uploaded (key as the store answered it, ""
// for none); failing to is only logged, the orphan job deletes it later.
func (s *Server) deletePictureFile(ctx context.Context, userID, key string) {
	if key == "" {
		return
	}
	if err := s.files.DeletePicture(ctx, userID, key); err != nil {
		s.log.WarnContext(ctx, "delete picture file", "key", key, "err", err)
	}
}

// acceptUpload receives a signed upload (storage.Bucket.Receive), uses up its URL, stores the
// bytes and makes them the user's picture, deleting the file of the picture it replaces.
func (s *Server) acceptUpload(c echo.Context) error {
	ctx := c.Request().Context()
	up, err := s.files.Receive(ctx, c.Request())
	switch {
	case errors.Is(err, storage.ErrBadURL):
		return planner.Errorf(planner.CodeInvalidUploadURL, "This upload URL is not valid, or its time is up. Ask for a new one.")
	case errors.Is(err, storage.ErrRejected):
		return planner.Errorf(planner.CodeUnsupportedImageType,
			"The bytes are not a JPEG, PNG or WebP image of at most 5 MB of the type the upload URL was made for.")
	case err != nil:
		return err
	}
	userID, err := s.store.ClaimPictureUpload(ctx, up.Key)
	if err != nil {
		return err
	}
	if owner, _ := storage.PictureOwner(up.Key); owner != userID { // keys are made per user; a mismatch is a bug
		return fmt.Errorf("upload %q claimed by user %s", up.Key, userID)
	}
	if err := s.files.Write(ctx, up); err != nil {
		return err
	}
	old, err := s.store.SetPicture(ctx, userID, s.cfg.BaseURL+filesPath+up.Key, up.Key)
	if err != nil { // withdrawn meanwhile
		s.deletePictureFile(ctx, userID, up.Key)
		return err
	}
	s.deletePictureFile(ctx, userID, old)
	return c.NoContent(http.StatusOK)
}

// serveFile serves a stored picture with the type its bytes show; any other path, a picture
// key or not, is 404. Pictures are shown by pages of other origins too (a front end of its
// own, CORS_ORIGINS): Cross-Origin-Resource-Policy lets them embed it even when they require
// it (Cross-Origin-Embedder-Policy).
func (s *Server) serveFile(c echo.Context) error {
	key := c.Param("*")
	data, contentType, err := s.files.Read(c.Request().Context(), key)
	if errors.Is(err, storage.ErrNotFound) {
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=86400, immutable") // a key is never reused
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	return c.Blob(http.StatusOK, contentType, data)
}
