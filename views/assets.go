package views

import "tripplan/static"

// asset is the path pages load an embedded static file by, from its name under static/
// ("css/app.css"): its content-hashed name, which browsers keep for a year (web/assets.go).
func asset(name string) string { return static.URL(name) }
