// Package paths builds the site's addresses of plans and collections, the one place for them:
// the store's notifications and history link to them, the server redirects to them, the pages
// link to them.
package paths

import (
	"net/url"
	"strconv"
)

// Plan is a plan's page.
func Plan(id string) string { return "/plans/" + url.PathEscape(id) }

// Day is a plan's page at a day (1-based).
func Day(planID string, day int) string { return Plan(planID) + "?day=" + strconv.Itoa(day) }

// Budget is a plan's budget page.
func Budget(planID string) string { return Plan(planID) + "/budget" }

// Collection is a collection's page.
func Collection(id string) string { return "/collections/" + url.PathEscape(id) }
