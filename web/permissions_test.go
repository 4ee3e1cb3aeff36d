package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// The permission matrix of docs/API.md §Authentication, proven over HTTP for every registered route: each role
// calls the route with a request a member could make successfully, and gets what the matrix
// says. A route missing from accessTable fails the test, so new routes must be classified.

// access is who may call a route.
type access int

const (
	public     access = iota // anyone; only "never a 5xx" is checked
	signedIn                 // any signed-in user; guests are GUEST_FORBIDDEN
	anyViewer                // any signed-in user, and the guest of any plan or collection
	reader                   // members of the resource and its guests
	memberOnly               // members of the resource (reads of linked collections, and every write)
	ownerOnly                // its owner
	leaving                  // its members but not its owner (NEED_TO_DELEGATE_OWNERSHIP)
	authorOnly               // the member who wrote it (the fixture's opinion is the owner's)
	jobOwner                 // the member who asked for it (the fixture's job is the owner's); others JOB_NOT_FOUND
)

// role is who calls.
type role string

const (
	anonymous  role = "anonymous"
	outsider   role = "signed-in non-member"
	guestHere  role = "guest of this resource"
	guestOther role = "guest of another resource"
	member     role = "member"
	owner      role = "owner"
)

// accessRow classifies a route and builds a request a member (or owner) could make
// successfully on a fresh fixture. ok, when set, is the success status instead of any 2xx/3xx.
type accessRow struct {
	access access
	plan   bool // the resource is the fixture's plan (else its collection)
	build  func(fx *matrixFixture) req
	ok     int
	stream bool // an event stream: only its status is read
}

func get(path string) func(*matrixFixture) req {
	return func(*matrixFixture) req { return req{Method: "GET", Path: path} }
}

var accessTable = map[string]accessRow{
	"GET /healthz":                        {access: public, build: get("/healthz")},
	"GET /readyz":                         {access: public, build: get("/readyz")},
	"GET /openapi.json":                   {access: public, build: get("/openapi.json")},
	"GET /static/*":                       {access: public, build: get("/static/css/app.css")},
	"POST /auth/reissue":                  {access: public, build: func(*matrixFixture) req { return req{Method: "POST", Path: "/auth/reissue"} }},
	"POST /dev/auth/login":                {access: public, build: func(*matrixFixture) req { return req{Method: "POST", Path: "/dev/auth/login"} }},
	"POST /auth/token":                    {access: public, build: func(*matrixFixture) req { return req{Method: "POST", Path: "/auth/token"} }},
	"POST /auth/:provider/token":          {access: public, build: func(*matrixFixture) req { return req{Method: "POST", Path: "/auth/google/token"} }},
	"GET /oauth2/authorization/:provider": {access: public, build: get("/oauth2/authorization/google")},
	"GET /login/oauth2/code/:provider":    {access: public, build: get("/login/oauth2/code/google")},
	"PUT /uploads":                        {access: public, build: func(*matrixFixture) req { return req{Method: "PUT", Path: "/uploads"} }},
	"GET /files/*":                        {access: public, build: get("/files/none.png")},
	"GET /invite/:code":                   {access: public, build: get("/invite/unknown")},
	"GET /s/:code":                        {access: public, build: get("/s/unknown")},
	"GET /calendar/:token":                {access: public, build: get("/calendar/unknown.ics")},
	"GET /":                               {access: public, build: get("/")},
	"GET /login":                          {access: public, build: get("/login")},
	"GET /link-error":                     {access: public, build: get("/link-error")},
	"POST /language": {access: public, build: func(*matrixFixture) req {
		return req{Method: "POST", Path: "/language", Body: "language=ko&next=%2F", Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}
	}},

	"POST /auth/logout":     {access: signedIn, build: func(*matrixFixture) req { return req{Method: "POST", Path: "/auth/logout"} }},
	"GET /users/me":         {access: signedIn, build: get("/users/me")},
	"PATCH /users/me/terms": {access: signedIn, build: func(*matrixFixture) req { return req{Method: "PATCH", Path: "/users/me/terms"} }, ok: http.StatusConflict},
	"PUT /users/me":         {access: signedIn, build: body("PUT", "/users/me", map[string]any{"nickname": "Renamed"})},
	"DELETE /users/me":      {access: signedIn, build: body("DELETE", "/users/me", map[string]any{"reason": "testing"})},
	"PATCH /users/me/picture": {access: signedIn, build: func(*matrixFixture) req {
		return req{Method: "PATCH", Path: "/users/me/picture?content_type=image/png"}
	}},
	"DELETE /users/me/picture":            {access: signedIn, build: func(*matrixFixture) req { return req{Method: "DELETE", Path: "/users/me/picture"} }},
	"GET /places/search":                  {access: signedIn, build: get("/places/search?query=seoul")},
	"POST /collections":                   {access: signedIn, build: body("POST", "/collections", map[string]any{"title": "New"})},
	"GET /collections":                    {access: signedIn, build: get("/collections")},
	"POST /plans":                         {access: signedIn, build: body("POST", "/plans", map[string]any{"title": "New", "start_date": "2026-05-01", "end_date": "2026-05-02"})},
	"GET /plans":                          {access: signedIn, build: get("/plans")},
	"POST /plans/imports":                 {access: signedIn, build: body("POST", "/plans/imports", minimalBackup())},
	"GET /onboarding/terms":               {access: signedIn, build: get("/onboarding/terms")},
	"POST /onboarding/terms":              {access: signedIn, build: func(*matrixFixture) req { return req{Method: "POST", Path: "/onboarding/terms"} }, ok: http.StatusConflict},
	"GET /home":                           {access: signedIn, build: get("/home")},
	"GET /collections/new":                {access: signedIn, build: get("/collections/new")},
	"GET /plans/new":                      {access: signedIn, build: get("/plans/new")},
	"GET /profile":                        {access: signedIn, build: get("/profile")},
	"GET /onboarding/nickname":            {access: signedIn, build: get("/onboarding/nickname")},
	"GET /users/me/notification-settings": {access: signedIn, build: get("/users/me/notification-settings")},
	"PUT /users/me/notification-settings": {access: signedIn, build: body("PUT", "/users/me/notification-settings",
		map[string]any{"settings": []map[string]any{{"category": "PLAN", "push": true}}})},
	"POST /users/me/push-subscriptions": {access: signedIn, build: body("POST", "/users/me/push-subscriptions",
		map[string]any{"endpoint": "https://push.example/matrix", "keys": map[string]string{"p256dh": strings.Repeat("A", 87), "auth": strings.Repeat("A", 22)}})},
	"DELETE /users/me/push-subscriptions": {access: signedIn, build: func(*matrixFixture) req {
		return req{Method: "DELETE", Path: "/users/me/push-subscriptions?endpoint=https%3A%2F%2Fpush.example%2Fmatrix"}
	}},
	"GET /sw.js":                     {access: public, build: get("/sw.js")},
	"GET /manifest.webmanifest":      {access: public, build: get("/manifest.webmanifest")},
	"GET /offline":                   {access: public, build: get("/offline")},
	"GET /notifications/digest-off":  {access: public, build: get("/notifications/digest-off?user=u&sig=s")},
	"POST /notifications/digest-off": {access: public, build: func(*matrixFixture) req { return req{Method: "POST", Path: "/notifications/digest-off?user=u&sig=s"} }},
	"GET /opinion-tags":              {access: anyViewer, build: get("/opinion-tags?category_id=101000")},

	// Notifications and live updates.
	"GET /notifications":   {access: signedIn, build: get("/notifications")},
	"PATCH /notifications": {access: signedIn, build: func(*matrixFixture) req { return req{Method: "PATCH", Path: "/notifications"} }},
	"PATCH /notifications/:notificationId": {access: signedIn, build: func(*matrixFixture) req {
		return req{Method: "PATCH", Path: "/notifications/" + strings.Repeat("n", 21)}
	}, ok: http.StatusNotFound},
	"GET /plans/:planId/events":           {access: reader, plan: true, stream: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/events"} })},
	"GET /plans/:planId/days/:day/route":  {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/days/1/route"} })},
	"GET /plans/:planId/export.ics":       {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/export.ics"} })},
	"GET /plans/:planId/export.gpx":       {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/export.gpx"} })},
	"GET /plans/:planId/export.json":      {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/export.json"} })},
	"GET /plans/:planId/expenses.csv":     {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/expenses.csv"} })},
	"GET /plans/:planId/calendar-feed":    {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/calendar-feed"} })},
	"POST /plans/:planId/calendar-feed":   {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "POST", Path: f.plan + "/calendar-feed"} })},
	"DELETE /plans/:planId/calendar-feed": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "DELETE", Path: f.plan + "/calendar-feed"} })},
	"GET /plans/:planId/presence":         {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/presence"} })},
	"GET /plans/:planId/activity":         {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/activity"} })},
	"GET /collections/:collectionId/activity": {access: reader, build: fx(func(f *matrixFixture) req {
		return req{Method: "GET", Path: f.col + "/activity?page=0&size=5"}
	})},
	"GET /collections/:collectionId/events": {access: reader, stream: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "GET", Path: f.col + "/events"}
	})},

	// Extraction jobs.
	"POST /collections/:collectionId/extraction-jobs": {access: memberOnly, build: fx(func(f *matrixFixture) req {
		// in the spare collection, where nobody has a job yet (one undecided job per member)
		return jsonReq("POST", "/collections/"+f.spareColID+"/extraction-jobs", map[string]any{"url": "https://blog.example/seoul"})
	})},
	"GET /collections/:collectionId/extraction-jobs/latest": {access: jobOwner, build: fx(func(f *matrixFixture) req {
		return req{Method: "GET", Path: f.col + "/extraction-jobs/latest"}
	})},
	"GET /collections/:collectionId/extraction-jobs/:jobId": {access: jobOwner, build: fx(func(f *matrixFixture) req {
		return req{Method: "GET", Path: f.col + "/extraction-jobs/" + f.job}
	})},
	"POST /collections/:collectionId/extraction-jobs/:jobId/places": {access: jobOwner, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.col+"/extraction-jobs/"+f.job+"/places", map[string]any{"place_ids": []string{f.spare}})
	})},
	"POST /collections/:collectionId/imports": {access: memberOnly, build: fx(func(f *matrixFixture) req {
		return fileReq(f.col+"/imports", "places.csv", "name,lat,lng\nFixture Spot,37.5,127\n")
	})},
	"POST /collections/:collectionId/extraction-jobs/:jobId/custom-places": {access: jobOwner, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.col+"/extraction-jobs/"+f.job+"/custom-places", map[string]any{"name": "Fixture Teahouse"})
	})},
	"DELETE /collections/:collectionId/extraction-jobs/:jobId": {access: jobOwner, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.col + "/extraction-jobs/" + f.job}
	})},

	// Collections.
	"GET /collections/:collectionId":         {access: reader, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.col} })},
	"PUT /collections/:collectionId":         {access: memberOnly, build: fx(func(f *matrixFixture) req { return jsonReq("PUT", f.col, map[string]any{"title": "Renamed"}) })},
	"DELETE /collections/:collectionId":      {access: ownerOnly, build: fx(func(f *matrixFixture) req { return req{Method: "DELETE", Path: f.col} })},
	"GET /collections/:collectionId/plans":   {access: memberOnly, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.col + "/plans"} })},
	"GET /collections/:collectionId/members": {access: reader, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.col + "/members"} })},
	"PATCH /collections/:collectionId/owner": {access: ownerOnly, build: fx(func(f *matrixFixture) req {
		return jsonReq("PATCH", f.col+"/owner", map[string]any{"collection_member_id": f.colThird})
	})},
	"DELETE /collections/:collectionId/members/me": {access: leaving, build: fx(func(f *matrixFixture) req { return req{Method: "DELETE", Path: f.col + "/members/me"} })},
	"DELETE /collections/:collectionId/members/:collectionMemberId": {access: ownerOnly, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.col + "/members/" + f.colThird}
	})},
	"POST /collections/:collectionId/invitations": {access: memberOnly, build: fx(func(f *matrixFixture) req { return req{Method: "POST", Path: f.col + "/invitations"} })},
	"GET /collections/:collectionId/invitations":  {access: memberOnly, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.col + "/invitations"} })},
	// The owner's link: the member did not make it (the maker's own revoke is in TestRevokingLinks).
	"DELETE /collections/:collectionId/invitations/:code": {access: ownerOnly, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.col + "/invitations/" + f.links["collection"]}
	})},
	"GET /collections/:collectionId/removed-members": {access: ownerOnly, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.col + "/removed-members"} })},
	"DELETE /collections/:collectionId/removed-members/:memberId": {access: ownerOnly, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.col + "/removed-members/" + f.colRemoved}
	})},
	"POST /collections/:collectionId/places": {access: memberOnly, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.col+"/places", map[string]any{"place_id": f.spare})
	})},
	"GET /collections/:collectionId/places":                    {access: reader, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.col + "/places"} })},
	"GET /collections/:collectionId/places/:collectionPlaceId": {access: reader, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.cp} })},
	"PATCH /collections/:collectionId/places/:collectionPlaceId/memo": {access: memberOnly, build: fx(func(f *matrixFixture) req {
		return jsonReq("PATCH", f.cp+"/memo", map[string]any{"memo": "note"})
	})},
	"DELETE /collections/:collectionId/places/:collectionPlaceId":          {access: memberOnly, build: fx(func(f *matrixFixture) req { return req{Method: "DELETE", Path: f.cp} })},
	"POST /collections/:collectionId/places/:collectionPlaceId/preference": {access: memberOnly, build: fx(func(f *matrixFixture) req { return req{Method: "POST", Path: f.cp + "/preference?type=PICK"} })},

	// Plans.
	"GET /plans/:planId": {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan} })},
	"PUT /plans/:planId": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("PUT", f.plan, map[string]any{"title": "Renamed", "start_date": "2026-04-01", "end_date": "2026-04-03"})
	})},
	"DELETE /plans/:planId": {access: ownerOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "DELETE", Path: f.plan} })},
	"PATCH /plans/:planId/owner": {access: ownerOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("PATCH", f.plan+"/owner", map[string]any{"plan_member_id": f.planThird})
	})},
	"GET /plans/:planId/members":                  {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/members"} })},
	"DELETE /plans/:planId/members/me":            {access: leaving, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "DELETE", Path: f.plan + "/members/me"} })},
	"DELETE /plans/:planId/members/:planMemberId": {access: ownerOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "DELETE", Path: f.plan + "/members/" + f.planThird} })},
	"POST /plans/:planId/invitations":             {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "POST", Path: f.plan + "/invitations"} })},
	"GET /plans/:planId/invitations":              {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/invitations"} })},
	"DELETE /plans/:planId/invitations/:code": {access: ownerOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.plan + "/invitations/" + f.links["plan"]}
	})},
	"GET /plans/:planId/removed-members": {access: ownerOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/removed-members"} })},
	"DELETE /plans/:planId/removed-members/:memberId": {access: ownerOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.plan + "/removed-members/" + f.planRemoved}
	})},
	"GET /plans/:planId/edit":   {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/edit"} })},
	"GET /plans/:planId/header": {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/header"} })},
	"GET /plans/:planId/panel":  {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/panel?collection=" + f.colID} })},
	"GET /plans/:planId/place-choices": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "GET", Path: f.plan + "/place-choices?query=Palace"}
	})},

	// Plan collections.
	"GET /plans/:planId/collections": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/collections"} })},
	"POST /plans/:planId/collections": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/collections", map[string]any{"collection_ids": []string{f.spareColID}})
	})},
	"DELETE /plans/:planId/collections/:collectionId": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.plan + "/collections/" + f.colID}
	})},
	"GET /plans/:planId/collections/:collectionId/places": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "GET", Path: f.plan + "/collections/" + f.colID + "/places"}
	})},
	"GET /plans/:planId/collections/:collectionId/places/:collectionPlaceId": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "GET", Path: f.plan + "/collections/" + f.colID + "/places/" + f.cpID}
	})},

	// Blocks.
	"POST /plans/:planId/blocks": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/blocks", map[string]any{"type": "PLACE", "collection_place_id": f.cpID, "day": 2, "start_time": "09:00", "end_time": "10:00"})
	})},
	"POST /plans/:planId/blocks/by-place": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/blocks/by-place", map[string]any{"place_id": f.spare, "day": 2, "start_time": "11:00", "end_time": "12:00"})
	})},
	"POST /plans/:planId/blocks/manual": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/blocks/manual", map[string]any{"day": 2, "start_time": "13:00", "end_time": "14:00", "manual_place": map[string]string{"name": "Home", "address": "Mapo-gu"}})
	})},
	"GET /plans/:planId/blocks":          {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/blocks?day=1"} })},
	"GET /plans/:planId/blocks/:blockId": {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/blocks/" + f.candidate} })},
	"PATCH /plans/:planId/blocks/:blockId": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("PATCH", f.plan+"/blocks/"+f.candidate, map[string]any{"memo": "moved"})
	})},
	"DELETE /plans/:planId/blocks/:blockId":                  {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "DELETE", Path: f.plan + "/blocks/" + f.timeBlock} })},
	"POST /plans/:planId/deleted-blocks/:deletionId/restore": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "POST", Path: f.restore} })},
	"POST /plans/:planId/blocks/:blockId/candidates": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/blocks/"+f.timeBlock+"/candidates", map[string]any{"place_ids": []string{f.spare}})
	})},
	"GET /plans/:planId/blocks/:blockId/candidates": {access: reader, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "GET", Path: f.plan + "/blocks/" + f.timeBlock + "/candidates"}
	})},
	"PATCH /plans/:planId/blocks/:blockId/selection": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("PATCH", f.plan+"/blocks/"+f.timeBlock+"/selection", map[string]any{"block_id": f.second})
	})},
	"DELETE /plans/:planId/blocks/:blockId/candidates/:candidateId": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.plan + "/blocks/" + f.timeBlock + "/candidates/" + f.second}
	})},
	"POST /plans/:planId/blocks/:blockId/copies": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/blocks/"+f.timeBlock+"/copies", map[string]any{"day": 3})
	})},
	"POST /plans/:planId/days/:day/swap": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/days/1/swap", map[string]any{"with": 3})
	})},
	"GET /plans/:planId/days/:day/optimised": {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/days/1/optimised"} })},
	"GET /plans/:planId/days/:day/gaps":      {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/days/1/gaps"} })},
	"POST /plans/:planId/days/:day/arrangement": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/days/1/arrangement", map[string]any{"blocks": []map[string]any{
			{"time_block_id": f.timeBlock, "version": f.version, "start_time": "12:00", "end_time": "13:00"}}})
	})},

	// Budget.
	"GET /plans/:planId/budgets": {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/budgets"} })},
	"PATCH /plans/:planId/budgets": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("PATCH", f.plan+"/budgets", map[string]any{"type": "BUDGET", "total_budget": 500000})
	})},

	// Expenses.
	"POST /plans/:planId/expenses": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/expenses", map[string]any{"day": 1, "items": []map[string]any{{"name": "Taxi", "cost": 100}}})
	})},
	"GET /plans/:planId/budget":     {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/budget"} })},
	"GET /plans/:planId/print":      {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/print"} })},
	"GET /plans/:planId/settlement": {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/settlement"} })},
	"GET /plans/:planId/expenses":   {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/expenses?day=1"} })},
	"PUT /plans/:planId/expenses/:expenseId": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "PUT", Path: f.plan + "/expenses/" + f.expense, Body: []map[string]any{{"name": "Ticket", "cost": 100}}}
	})},
	"DELETE /plans/:planId/expenses/:expenseId": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.plan + "/expenses/" + f.expense}
	})},
	"POST /plans/:planId/settlements": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/settlements", map[string]any{"from_plan_member_id": f.planThird, "to_plan_member_id": f.planRemoved, "amount": 1000})
	})},
	"GET /plans/:planId/settlements": {access: reader, plan: true, build: fx(func(f *matrixFixture) req { return req{Method: "GET", Path: f.plan + "/settlements"} })},
	"DELETE /plans/:planId/settlements/:settlementId": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.plan + "/settlements/" + f.settlement}
	})},

	// Opinions.
	"POST /plans/:planId/blocks/:blockId/opinions": {access: memberOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("POST", f.plan+"/blocks/"+f.second+"/opinions", map[string]any{"type": "POSITIVE"})
	})},
	"GET /plans/:planId/blocks/:blockId/opinions": {access: reader, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "GET", Path: f.plan + "/blocks/" + f.candidate + "/opinions"}
	})},
	"GET /plans/:planId/blocks/:blockId/opinions/:opinionId": {access: reader, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "GET", Path: f.plan + "/blocks/" + f.candidate + "/opinions/" + f.opinion}
	})},
	"PUT /plans/:planId/blocks/:blockId/opinions/:opinionId": {access: authorOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return jsonReq("PUT", f.plan+"/blocks/"+f.candidate+"/opinions/"+f.opinion, map[string]any{"type": "NEGATIVE", "comment": "changed"})
	})},
	"DELETE /plans/:planId/blocks/:blockId/opinions/:opinionId": {access: authorOnly, plan: true, build: fx(func(f *matrixFixture) req {
		return req{Method: "DELETE", Path: f.plan + "/blocks/" + f.candidate + "/opinions/" + f.opinion}
	})},
}

func fx(b func(f *matrixFixture) req) func(*matrixFixture) req { return b }

func body(method, path string, b map[string]any) func(*matrixFixture) req {
	return func(*matrixFixture) req { return jsonReq(method, path, b) }
}

func jsonReq(method, path string, b map[string]any) req {
	return req{Method: method, Path: path, Body: b}
}

// matrixFixture is a plan and a collection (linked) owned by one user, with a member, a third
// member, a stranger, and guests of each and of another plan and collection.
type matrixFixture struct {
	tokens               map[role]string
	guests               map[string]*http.Client // "plan", "collection", "other-plan", "other-collection"
	plan, col, cp        string                  // paths
	colID, cpID, spare   string
	spareColID           string
	planThird, colThird  string // member ids of the third member
	timeBlock, candidate string
	version              int               // the time block's
	second               string            // the time block's second candidate
	opinion              string            // the owner's opinion of the first candidate
	expense              string            // an additional expense on day 1
	settlement           string            // a payment recorded from the third member to the removed one
	restore              string            // the path that restores a deleted block of day 2
	job                  string            // the owner's completed extraction job, which found the spare place
	links                map[string]string // the codes of the guests' links, by f.guests' names (all the owner's)
	planRemoved          string            // the member id of someone the owner removed from the plan
	colRemoved           string            // … and from the collection
}

var fixtureSeq atomic.Int64

func newMatrixFixture(t *testing.T, a *testApp) *matrixFixture {
	n := fixtureSeq.Add(1)
	id := func(s string) string { return fmt.Sprintf("pm-%d-%s", n, s) }
	f := &matrixFixture{tokens: map[role]string{}, guests: map[string]*http.Client{}, links: map[string]string{}}
	f.tokens[owner] = a.member(id("owner"), "Owner")
	f.tokens[member] = a.member(id("member"), "Member")
	f.tokens[outsider] = a.member(id("out"), "Outsider")
	a.member(id("third"), "Third")
	col := a.createCollection(f.tokens[owner], "Matrix")
	f.colID, f.col = col.CollectionID, "/collections/"+col.CollectionID
	a.joinCollection(col.CollectionID, id("member"))
	f.colThird = a.joinCollection(col.CollectionID, id("third"))
	found := a.search(f.tokens[owner], "Seoul")
	cp := a.addPlace(f.tokens[owner], col.CollectionID, found[0].PlaceID)
	cp2 := a.addPlace(f.tokens[owner], col.CollectionID, found[1].PlaceID)
	f.cpID, f.cp, f.spare = cp.CollectionPlaceID, f.col+"/places/"+cp.CollectionPlaceID, found[2].PlaceID
	f.spareColID = a.createCollection(f.tokens[owner], "Spare").CollectionID // not linked yet
	a.joinCollection(f.spareColID, id("member"))
	p := a.createPlan(f.tokens[owner], "Matrix", "2026-04-01", "2026-04-03")
	f.plan = "/plans/" + p.PlanID
	a.joinPlan(p.PlanID, id("member"))
	f.planThird = a.joinPlan(p.PlanID, id("third"))
	a.login(id("gone"), "Gone")
	f.planRemoved, f.colRemoved = a.joinPlan(p.PlanID, id("gone")), a.joinCollection(col.CollectionID, id("gone"))
	for _, table := range []string{"plan_members", "collection_members"} {
		if _, err := a.db.Exec(`UPDATE `+table+` SET left_at = now(), removed_at = now() WHERE id IN ($1, $2)`, f.planRemoved, f.colRemoved); err != nil {
			t.Fatal(err)
		}
	}
	a.do(req{Method: "POST", Path: f.plan + "/collections", Token: f.tokens[owner], Body: map[string]any{"collection_ids": []string{col.CollectionID}}})
	tb := decodeBlock(t, a.do(req{Method: "POST", Path: f.plan + "/blocks", Token: f.tokens[owner],
		Body: map[string]any{"type": "PLACE", "collection_place_id": cp.CollectionPlaceID, "day": 1, "start_time": "10:00", "end_time": "11:00"}}))
	tb = decodeBlock(t, a.do(req{Method: "POST", Path: f.plan + "/blocks/" + tb.TimeBlockID + "/candidates", Token: f.tokens[owner],
		Body: map[string]any{"collection_place_ids": []string{cp2.CollectionPlaceID}}}))
	f.timeBlock, f.candidate, f.second, f.version = tb.TimeBlockID, tb.Candidates[0].BlockID, tb.Candidates[1].BlockID, tb.Version
	var op opinionJSON
	res := a.do(req{Method: "POST", Path: f.plan + "/blocks/" + f.candidate + "/opinions", Token: f.tokens[owner], Body: map[string]any{"type": "POSITIVE"}})
	if err := json.Unmarshal(res.Body, &op); err != nil || res.Status != http.StatusCreated {
		t.Fatalf("fixture opinion: %d %s", res.Status, res.Body)
	}
	f.opinion = op.OpinionID
	var added expenseAddedJSON
	res = a.do(req{Method: "POST", Path: f.plan + "/expenses", Token: f.tokens[owner], Body: map[string]any{"day": 1, "items": []map[string]any{{"name": "Bus", "cost": 1500}}}})
	if err := json.Unmarshal(res.Body, &added); err != nil || res.Status != http.StatusCreated {
		t.Fatalf("fixture expense: %d %s", res.Status, res.Body)
	}
	f.expense = added.Selected.ExpenseID
	var paid settlementRecordJSON
	res = a.do(req{Method: "POST", Path: f.plan + "/settlements", Token: f.tokens[owner],
		Body: map[string]any{"from_plan_member_id": f.planThird, "to_plan_member_id": f.planRemoved, "amount": 500}})
	if err := json.Unmarshal(res.Body, &paid); err != nil || res.Status != http.StatusCreated {
		t.Fatalf("fixture settlement: %d %s", res.Status, res.Body)
	}
	f.settlement = paid.SettlementID
	gone := decodeBlock(t, a.do(req{Method: "POST", Path: f.plan + "/blocks", Token: f.tokens[owner],
		Body: map[string]any{"type": "FREE", "day": 2, "start_time": "10:00", "end_time": "11:00"}}))
	res = a.do(req{Method: "DELETE", Path: f.plan + "/blocks/" + gone.TimeBlockID, Token: f.tokens[owner]})
	restore := regexp.MustCompile(`^<(/plans/[^>]+/deleted-blocks/[^/>]+/restore)>; rel="restore"$`).FindStringSubmatch(res.Header.Get("Link"))
	if res.Status != http.StatusNoContent || restore == nil {
		t.Fatalf("fixture deletion: %d, Link %q", res.Status, res.Header.Get("Link"))
	}
	f.restore = restore[1]
	var job jobJSON
	res = a.do(req{Method: "POST", Path: f.col + "/extraction-jobs", Token: f.tokens[owner], Body: map[string]any{"url": "https://blog.example/fixture"}})
	if err := json.Unmarshal(res.Body, &job); err != nil || res.Status != http.StatusAccepted {
		t.Fatalf("fixture job: %d %s", res.Status, res.Body)
	}
	f.job = job.JobID
	if _, err := a.db.Exec(`UPDATE extraction_jobs SET status = 'COMPLETED', stage = 'COMPLETED', result = $2 WHERE id = $1`, f.job,
		`{"detected_count":1,"matched_count":1,"media_type":"BLOG","url":"https://blog.example/fixture","places":[{"place_id":"`+f.spare+`","name":"Spare","address":""}],"unmatched":[{"name":"Fixture Teahouse","quote":""}],"city":"Seoul"}`); err != nil {
		t.Fatal(err)
	}

	otherPlan := a.createPlan(f.tokens[outsider], "Other", "2026-04-01", "2026-04-02")
	otherCol := a.createCollection(f.tokens[outsider], "Other")
	for name, target := range map[string][2]string{
		"plan": {f.tokens[owner], f.plan}, "collection": {f.tokens[owner], f.col},
		"other-plan": {f.tokens[outsider], "/plans/" + otherPlan.PlanID}, "other-collection": {f.tokens[outsider], "/collections/" + otherCol.CollectionID},
	} {
		link := a.invite(target[0], target[1])
		f.links[name] = link.URL[strings.LastIndex(link.URL, "/")+1:]
		g := browser(t)
		a.do(req{Method: "GET", Path: strings.TrimPrefix(link.URL, a.http.URL), Client: g, Header: map[string]string{"Accept": "text/html"}})
		f.guests[name] = g
	}
	return f
}

// call sends the route's request as the role.
func (f *matrixFixture) call(a *testApp, row accessRow, who role) response {
	rq := row.build(f)
	h := map[string]string{"Accept": "application/json", "Sec-Fetch-Site": "same-origin"}
	for k, v := range rq.Header { // the request's own (a multipart body's type)
		h[k] = v
	}
	rq.Header = h
	kind := "collection"
	if row.plan {
		kind = "plan"
	}
	switch who {
	case guestHere:
		rq.Client = f.guests[kind]
	case guestOther:
		rq.Client = f.guests["other-"+kind]
	case anonymous:
	default:
		rq.Token = f.tokens[who]
	}
	if row.stream {
		return a.openStream(rq)
	}
	return a.do(rq)
}

// expect is the matrix: the status and code a role gets, or 0 for success.
func expect(acc access, who role) (int, string) {
	if acc == public {
		return 0, ""
	}
	if who == anonymous {
		return http.StatusUnauthorized, "MISSING_TOKEN"
	}
	switch acc {
	case signedIn:
		if who == guestHere || who == guestOther {
			return http.StatusForbidden, "GUEST_FORBIDDEN"
		}
		return 0, ""
	case anyViewer:
		return 0, ""
	case reader:
		switch who {
		case outsider:
			return http.StatusForbidden, "FORBIDDEN_NOT_MEMBER"
		case guestOther:
			return http.StatusForbidden, "FORBIDDEN_NOT_GUEST"
		}
		return 0, ""
	}
	switch who { // memberOnly, ownerOnly, leaving
	case outsider:
		return http.StatusForbidden, "FORBIDDEN_NOT_MEMBER"
	case guestHere, guestOther:
		return http.StatusForbidden, "GUEST_FORBIDDEN"
	case member:
		if acc == ownerOnly {
			return http.StatusForbidden, "FORBIDDEN_NOT_OWNER"
		}
		if acc == authorOnly {
			return http.StatusForbidden, "BLOCK_OPINION_FORBIDDEN"
		}
		if acc == jobOwner {
			return http.StatusNotFound, "JOB_NOT_FOUND"
		}
	case owner:
		if acc == leaving {
			return http.StatusConflict, "NEED_TO_DELEGATE_OWNERSHIP"
		}
	}
	return 0, ""
}

func TestPermissionMatrix(t *testing.T) {
	a := newTestApp(t, func(c *Config) { c.VAPIDPublicKey = "matrix-vapid-public-key" }) // Web Push on
	a.loadCatalog()
	shared := newMatrixFixture(t, a) // for calls that are refused, which change nothing
	roles := []role{anonymous, outsider, guestHere, guestOther, member, owner}
	for _, r := range a.srv.Routes() {
		name := r.Method + " " + r.Path
		row, ok := accessTable[name]
		if !ok {
			t.Errorf("%s is not in the permission matrix (accessTable)", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			for _, who := range roles {
				status, code := expect(row.access, who)
				f := shared
				if status == 0 && row.access != public {
					f = newMatrixFixture(t, a) // a call that succeeds may change things
				}
				res := f.call(a, row, who)
				switch {
				case res.Status >= 500:
					t.Errorf("%s: %d %.200s", who, res.Status, res.Body)
				case status != 0:
					if res.Status != status || !strings.Contains(string(res.Body), `"code":"`+code+`"`) {
						t.Errorf("%s: %d %.160s, want %d %s", who, res.Status, res.Body, status, code)
					}
				case row.access == public:
				case row.ok != 0 && res.Status != row.ok, row.ok == 0 && res.Status >= 400:
					t.Errorf("%s: %d %.200s, want success", who, res.Status, res.Body)
				}
			}
		})
	}
}
