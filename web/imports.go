package web

import (
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"tripplan/internal/importer"
	"tripplan/internal/planner"
	"tripplan/views"
)

// importBodyLimit caps an import's whole request: the file's own limit is checked on the
// file (PAYLOAD_TOO_LARGE naming the field), this leaves room for the multipart envelope.
var importBodyLimit = middleware.BodyLimit("2112KiB")

// importPaths are the routes whose bodies importBodyLimit or restoreBodyLimit cap instead of
// the default limit.
var importPaths = map[string]bool{"/collections/:collectionId/imports": true, "/plans/imports": true}

// importReportJSON is what an import did, row by row.
type importReportJSON struct {
	Format       string          `json:"format"`
	Matched      int             `json:"matched"`
	Created      int             `json:"created"`
	AlreadyThere int             `json:"already_there"`
	Skipped      int             `json:"skipped"`
	Rows         []importRowJSON `json:"rows"`
}

type importRowJSON struct {
	Row               int     `json:"row"`
	Name              string  `json:"name"`
	Outcome           string  `json:"outcome"`
	PlaceID           *string `json:"place_id"`
	CollectionPlaceID *string `json:"collection_place_id"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// importPlaces adds the places of an uploaded file (multipart/form-data, part "file") to the
// collection: 200 with the report (JSON, or the report partial for the page).
func (s *Server) importPlaces(c echo.Context) error {
	name, data, err := uploadedFile(c, planner.ImportMaxBytes, importer.TooLarge)
	if err != nil {
		return err
	}
	format, rows, err := importer.Parse(name, data)
	if err != nil {
		return err
	}
	collectionID := c.Param("collectionId")
	r, err := s.store.ImportPlaces(c.Request().Context(), caller(c).UserID, collectionID, format, rows)
	if err != nil {
		return err
	}
	out := importReportJSON{Format: r.Format, Matched: r.Matched, Created: r.Created, AlreadyThere: r.AlreadyThere, Skipped: r.Skipped,
		Rows: make([]importRowJSON, len(r.Rows))}
	view := views.ImportReportView{CollectionID: collectionID, Matched: r.Matched, Created: r.Created, AlreadyThere: r.AlreadyThere, Skipped: r.Skipped}
	for i, x := range r.Rows {
		out.Rows[i] = importRowJSON{Row: x.Row, Name: x.Name, Outcome: string(x.Outcome), PlaceID: optional(x.PlaceID), CollectionPlaceID: optional(x.CollectionPlaceID)}
		view.Rows = append(view.Rows, views.ImportRowView{Row: x.Row, Name: x.Name, Outcome: string(x.Outcome)})
	}
	if wantsPartial(c) && r.Matched+r.Created > 0 {
		col, err := s.store.Collection(c.Request().Context(), caller(c).UserID, collectionID)
		if err != nil {
			return err
		}
		view.PlaceCount = col.PlaceCount
		c.Response().Header().Set("HX-Trigger", views.PlacesChanged)
	}
	return respond(c, http.StatusOK, out,
		s.lazyPage(c, "imports.report_title", func(p views.Page) templ.Component { return views.ImportReportPage(p, view) }),
		views.ImportReport(view))
}

// uploadedFile reads the request's "file" part (its name and at most limit bytes of it; more
// is tooLarge's PAYLOAD_TOO_LARGE) without keeping any other part.
func uploadedFile(c echo.Context, limit int, tooLarge func() error) (string, []byte, error) {
	r := c.Request()
	if mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType)); mt != echo.MIMEMultipartForm {
		e := planner.Errorf(planner.CodeUnsupportedMediaType, "Send the file as multipart/form-data, in a part named file.")
		e.Fields = []planner.FieldError{{Field: "file", Reason: "is required"}}
		return "", nil, e
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return "", nil, planner.Errorf(planner.CodeInvalidRequest, "The form could not be read.")
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", nil, uploadError(err, tooLarge)
		}
		if part.FormName() != "file" {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, int64(limit)+1))
		if err != nil {
			return "", nil, uploadError(err, tooLarge)
		}
		if len(data) > limit {
			return "", nil, tooLarge()
		}
		return part.FileName(), data, nil
	}
	e := planner.Errorf(planner.CodeInvalidRequest, "Choose a file to import.")
	e.Fields = []planner.FieldError{{Field: "file", Reason: "is required"}}
	return "", nil, e
}

// uploadError is a body over the route's limit (413) or a form that could not be read (400).
func uploadError(err error, tooLarge func() error) error {
	var he *echo.HTTPError
	var mbe *http.MaxBytesError
	if errors.As(err, &he) || errors.As(err, &mbe) {
		return tooLarge()
	}
	return planner.Errorf(planner.CodeInvalidRequest, "The form could not be read.")
}
