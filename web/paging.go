package web

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"tripplan/internal/planner"
)

// pageJSON is the paging envelope (docs/API.md §Conventions).
type pageJSON[T any] struct {
	Contents []T  `json:"contents"`
	HasNext  bool `json:"has_next"`
	Page     int  `json:"page"`
	Size     int  `json:"size"`
}

func newPage[T any](contents []T, hasNext bool, p planner.Page) pageJSON[T] {
	if contents == nil {
		contents = []T{}
	}
	return pageJSON[T]{Contents: contents, HasNext: hasNext, Page: p.Number, Size: p.Size}
}

// queryParam returns a query parameter by its snake_case name or its older camelCase alias.
func queryParam(c echo.Context, name, alias string) string {
	if v := c.QueryParam(name); v != "" || alias == "" {
		return v
	}
	return c.QueryParam(alias)
}

// pageParams reads ?page (0-based, default 0) and ?size (default 20, 1..100; larger is
// clamped to 100) into v's errors.
func pageParams(c echo.Context, v *planner.Validation) planner.Page {
	p := planner.Page{Size: planner.DefaultPageSize}
	if s := c.QueryParam("page"); s != "" {
		n, err := strconv.Atoi(s)
		v.Check(err == nil && n >= 0 && n <= 1_000_000, "page", "must be a whole number from 0")
		p.Number = max(n, 0)
	}
	if s := c.QueryParam("size"); s != "" {
		n, err := strconv.Atoi(s)
		switch {
		case isDigits(s) && (err != nil || n > planner.MaxPageSize): // too large, even for an int
			p.Size = planner.MaxPageSize
		case err == nil && n >= 1:
			p.Size = n
		default:
			v.Add("size", "must be a whole number from 1 to 100")
		}
	}
	return p
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// sortParam reads ?sort (alias sortType) as one of sorts' keys, def when absent; anything
// else is INVALID_SORT_TYPE naming the accepted values.
func sortParam[T any](c echo.Context, sorts map[string]T, def string) (T, error) {
	v, ok := sorts[sortName(c, def)]
	if !ok {
		names := slices.Sorted(maps.Keys(sorts))
		return v, planner.Errorf(planner.CodeInvalidSortType, "sort must be one of %s.", strings.Join(names, ", "))
	}
	return v, nil
}

// sortName is the ?sort (or sortType) asked for, def when none.
func sortName(c echo.Context, def string) string {
	if name := queryParam(c, "sort", "sortType"); name != "" {
		return name
	}
	return def
}
