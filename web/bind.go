package web

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"reflect"
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
		var bad planner.Validation
		jsonKind(&bad, jsonPath(reflect.TypeOf(v), te.Field), te.Type.Kind().String())
		return bad.Err()
	}
	return planner.Errorf(planner.CodeInvalidRequest, "The body is not valid JSON.")
}

// jsonPath turns the path encoding/json reports for a type error into the dotted JSON path
// of the field: the decoder puts the Go names of embedded structs on the path
// ("SlotRequest.start_time"), which a client never sent, so each segment that is not a JSON
// field of the struct reached so far but names an embedded struct is dropped.
func jsonPath(t reflect.Type, path string) string {
	var out []string
	for _, seg := range strings.Split(path, ".") {
		t = elemStruct(t)
		if t == nil {
			out = append(out, seg)
			continue
		}
		if f, ok := jsonField(t, seg); ok {
			out, t = append(out, seg), f.Type
		} else if f, ok := t.FieldByName(seg); ok && f.Anonymous {
			t = f.Type
		} else {
			out, t = append(out, seg), nil
		}
	}
	return strings.Join(out, ".")
}

// elemStruct is the struct type a value of t holds, through pointers, slices, arrays and maps;
// nil when it holds none.
func elemStruct(t reflect.Type) reflect.Type {
	for t != nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			return t
		default:
			return nil
		}
	}
	return nil
}

// jsonField finds the field of struct t (its own or promoted from an embedded struct) that
// encoding/json names name.
func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	for _, f := range reflect.VisibleFields(t) {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || tag == "-" || f.Anonymous && tag == "" {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		if tag == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// jsonKind records the field as not of the JSON type a value of the Go kind is, named the way
// a JSON client thinks of it.
func jsonKind(v *planner.Validation, field, kind string) {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"), strings.HasPrefix(kind, "float"):
		v.Add(field, "must be a JSON number")
	case kind == "bool":
		v.Add(field, "must be a JSON boolean")
	case kind == "slice", kind == "array":
		v.Add(field, "must be a JSON array")
	case kind == "map", kind == "struct", kind == "ptr":
		v.Add(field, "must be a JSON object")
	default:
		v.Add(field, "must be a JSON string")
	}
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
