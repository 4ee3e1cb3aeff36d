package web

import (
	"errors"
	"net/http"
	"strings"

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

// startPictureUpload answers a signed URL that accepts the new picture's bytes for ten minutes,
// and the picture's URL, which the profile shows from now on (until the upload arrives, the
// initials stand in).
func (s *Server) startPictureUpload(c echo.Context) error {
	contentType := queryParam(c, "content_type", "contentType")
	ext, ok := storage.PictureTypes[contentType]
	if !ok {
		return planner.Errorf(planner.CodeUnsupportedImageType, "The picture must be image/jpeg, image/png or image/webp.")
	}
	ctx, userID := c.Request().Context(), caller(c).UserID
	key := "pictures/" + userID + "/" + planner.NewID() + ext
	upload, err := s.files.UploadURL(ctx, key, contentType)
	if err != nil {
		return err
	}
	picture := s.cfg.BaseURL + filesPath + key
	old, err := s.store.SetPicture(ctx, userID, picture)
	if err != nil {
		return err
	}
	s.deleteOwnFile(c, old)
	return respond(c, http.StatusOK, pictureUploadJSON{PresignedURL: upload, Picture: picture}, nil, nil)
}

// deletePicture removes the user's picture.
func (s *Server) deletePicture(c echo.Context) error {
	old, err := s.store.SetPicture(c.Request().Context(), caller(c).UserID, "")
	if err != nil {
		return err
	}
	s.deleteOwnFile(c, old)
	return respondChange(c, http.StatusNoContent, nil, nil, "/profile")
}

// deleteOwnFile deletes a replaced picture when it is one of ours; failing to is only logged.
func (s *Server) deleteOwnFile(c echo.Context, picture string) {
	key, ok := strings.CutPrefix(picture, s.cfg.BaseURL+filesPath)
	if !ok || key == "" {
		return
	}
	if err := s.files.Delete(c.Request().Context(), key); err != nil {
		s.log.WarnContext(c.Request().Context(), "delete replaced picture", "key", key, "err", err)
	}
}

// acceptUpload receives a signed upload into the local directory (storage.Store.Accept).
func (s *Server) acceptUpload(c echo.Context) error {
	if _, err := s.files.Accept(c.Request().Context(), c.Request()); err != nil {
		if errors.Is(err, storage.ErrRejected) {
			return planner.Errorf(planner.CodeUnsupportedImageType,
				"The upload URL is not valid any more, or the bytes are not a JPEG, PNG or WebP image of at most 5 MB of the type it was made for.")
		}
		return err
	}
	return c.NoContent(http.StatusOK)
}

// serveFile serves a stored picture with the type its bytes show.
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
	return c.Blob(http.StatusOK, contentType, data)
}
