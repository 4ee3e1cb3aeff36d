// Package static holds the browser assets served under /static/: the built Tailwind CSS,
// the vendored htmx files and app.js, and images. They are committed, so building the Go
// binary needs no Node; see package.json for how to rebuild or re-vendor them.
package static

import "embed"

// FS holds css/, js/, img/ and vendor/ (Leaflet) (paths inside are "css/app.css", "js/htmx.min.js", ...).
//
//go:embed css js img vendor
var FS embed.FS
