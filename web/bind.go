package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
)

// binder reads a request body into a struct: JSON (by `json` tags) or an HTML form (by `form`
// tags), chosen by Content-Type. Anything else with a body is 415. Unknown JSON fields are
// ignored; malformed JSON and wrong JSON types are 400 INVALID_REQUEST naming the field.
type binder struct{}

func (binder) Bind(v any, c echo.Context) error {
	r := c.Request()
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 && r.Header.Get("Transfer-Encoding") == "" {
		return nil
	}
	ct := r.Header.Get(echo.HeaderContentType)
	mt, _, _ := mime.ParseMediaType(ct)
	switch {
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return decodeJSON(r.Body, v)
	case mt == echo.MIMEApplicationForm || mt == echo.MIMEMultipartForm:
		if mt == echo.MIMEApplicationForm && r.Method == http.MethodDelete {
			// net/http parses form bodies of POST, PUT and PATCH only; DELETE /users/me has one.
			if err := parseFormBody(r); err != nil {
				return err
			}
		}
		if err := (&echo.DefaultBinder{}).BindBody(c, v); err != nil {
			var he *echo.HTTPError
			if errors.As(err, &he) && he.Code == http.StatusRequestEntityTooLarge {
				return err
			}
			return planner.Errorf(planner.CodeInvalidRequest, "The form could not be read.")
		}
		return nil
	}
	return planner.Errorf(planner.CodeUnsupportedMediaType, "Send the body as application/json.")
}

// decodeJSON decodes one JSON value; an empty body leaves v as it is.
func decodeJSON(body io.Reader, v any) error {
	dec := json.NewDecoder(body)
	err := dec.Decode(v)
	if err == nil {
		if dec.More() {
			return planner.Errorf(planner.CodeInvalidRequest, "The body must hold exactly one JSON value.")
		}
		return nil
	}
	if errors.Is(err, io.EOF) {
		return nil
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return err // body too large
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return planner.Errorf(planner.CodePayloadTooLarge, "The request body is too large.")
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return planner.Errorf(planner.CodeInvalidRequest, "The body must be a JSON object.")
		}
		return &planner.Error{Code: planner.CodeInvalidRequest, Detail: "The request has invalid fields.",
			Fields: []planner.FieldError{{Field: te.Field, Reason: fmt.Sprintf("must be a JSON %s", jsonKind(te.Type.Kind().String()))}}}
	}
	return planner.Errorf(planner.CodeInvalidRequest, "The body is not valid JSON.")
}

// jsonKind names a Go kind the way a JSON client thinks of it.
func jsonKind(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"), strings.HasPrefix(kind, "float"):
		return "number"
	case kind == "bool":
		return "boolean"
	case kind == "slice", kind == "array":
		return "array"
	case kind == "map", kind == "struct", kind == "ptr":
		return "object"
	}
	return kind
}

// parseFormBody reads a form-encoded body into r.Form and r.PostForm.
func parseFormBody(r *http.Request) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return planner.Errorf(planner.CodePayloadTooLarge, "The request body is too large.")
		}
		return planner.Errorf(planner.CodeInvalidRequest, "The form could not be read.")
	}
	values, err := url.ParseQuery(string(body))
	if err != nil {
		return planner.Errorf(planner.CodeInvalidRequest, "The form could not be read.")
	}
	r.PostForm, r.Form = values, values
	return nil
}
