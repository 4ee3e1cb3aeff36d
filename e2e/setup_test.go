package e2e

import (
	"testing"
	"time"
)

// This file holds how a browser test usually begins: a server, a browser per person, a plan.

// newScenario starts a server and opens a browser for each name, the scenario's browsers in
// that order (a failing step saves what each shows).
func newScenario(t *testing.T, names ...string) *scenario {
	t.Helper()
	chromium := findChromium(t)
	s := &scenario{t: t, srv: startServer(t)}
	for _, name := range names {
		s.browsers = append(s.browsers, newBrowser(t, name, chromium))
	}
	return s
}

// newPlanWith makes a plan of the browser's user through the JSON API, days long from months
// ahead, with the collections linked; it answers the plan's id.
func newPlanWith(t *testing.T, b *browser, title string, months, days int, collectionIDs ...string) string {
	t.Helper()
	start := time.Now().AddDate(0, months, 0)
	plan := sendJSON[struct {
		PlanID string `json:"plan_id"`
	}](t, b, "POST", "/plans", map[string]string{"title": title, "start_date": start.Format("2006-01-02"), "end_date": start.AddDate(0, 0, days-1).Format("2006-01-02")})
	if len(collectionIDs) > 0 {
		sendJSON[any](t, b, "POST", "/plans/"+plan.PlanID+"/collections", map[string]any{"collection_ids": collectionIDs})
	}
	return plan.PlanID
}

// saveOnFailure saves what the browsers show when the test has failed by its end (also after
// t.Fatal), before they are closed.
func saveOnFailure(t *testing.T, srv *server, browsers ...*browser) {
	t.Cleanup(func() {
		if t.Failed() {
			saveArtifacts(t, "", srv, browsers...)
		}
	})
}
