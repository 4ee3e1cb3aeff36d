package web

import (
	"context"
	_ "embed"
	"fmt"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
)

// openapiYAML is the OpenAPI 3.1 document of every JSON endpoint, written by hand beside the
// handlers; a test fails when a registered JSON route is missing from it.
//
//go:embed openapi.yaml
var openapiYAML []byte

func loadOpenAPI() (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(openapiYAML)
	if err != nil {
		return nil, fmt.Errorf("load openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi.yaml is invalid: %w", err)
	}
	return doc, nil
}

// OpenAPI returns the published document.
func (s *Server) OpenAPI() *openapi3.T { return s.openapi }

func (s *Server) openAPIDocument(c echo.Context) error {
	return c.JSON(http.StatusOK, s.openapi)
}
