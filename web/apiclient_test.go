package web

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"tripplan/apiclient"
)

// contractTransport sends requests over HTTP and checks every answer against the published
// document, as a.do does.
type contractTransport struct{ a *testApp }

func (c contractTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	c.a.checkContract(r, response{Status: res.StatusCode, Header: res.Header, Body: body})
	return res, nil
}

// TestGeneratedClientPlansATrip drives the core flow through the Go client generated from
// openapi.yaml (package apiclient) against the real server: sign in, accept the terms, collect
// places, plan a day with two candidates, choose one, give an opinion (a second one is a
// problem the client decodes), add an expense, and read the plan and its expenses back.
func TestGeneratedClientPlansATrip(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	ctx := context.Background()
	var token string
	c, err := apiclient.NewClientWithResponses(a.http.URL,
		apiclient.WithHTTPClient(&http.Client{Transport: contractTransport{a}}),
		apiclient.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			if token != "" {
				r.Header.Set("Authorization", "Bearer "+token)
			}
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	// want fails the test unless the call answered the status.
	want := func(what string, err error, res interface {
		StatusCode() int
	}, body []byte, status int) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if res.StatusCode() != status {
			t.Fatalf("%s: %d, want %d: %s", what, res.StatusCode(), status, body)
		}
	}

	signIn, err := c.DevSignInWithResponse(ctx, nil, apiclient.DevSignInJSONRequestBody{
		Provider: apiclient.DevLoginRequestProviderGOOGLE, ProviderID: "client-ana", Nickname: "Ana"})
	want("sign in", err, signIn, signIn.Body, http.StatusOK)
	if signIn.JSON200.ExpiresIn != 3600 || signIn.JSON200.RefreshToken == "" {
		t.Fatalf("tokens: %+v", signIn.JSON200)
	}
	token = signIn.JSON200.AccessToken
	me, err := c.GetMeWithResponse(ctx)
	want("me", err, me, me.Body, http.StatusOK)
	if me.JSON200.Nickname != "Ana" || me.JSON200.TermsAccepted {
		t.Fatalf("me before the terms: %+v", me.JSON200)
	}
	terms, err := c.AcceptTermsWithResponse(ctx)
	want("accept terms", err, terms, terms.Body, http.StatusOK)
	token = terms.JSON200.AccessToken

	col, err := c.CreateCollectionWithResponse(ctx, nil, apiclient.CreateCollectionJSONRequestBody{Title: "Seoul food"})
	want("create collection", err, col, col.Body, http.StatusCreated)
	if col.JSON201.Title != "Seoul food" || col.JSON201.MemberCount != 1 || col.JSON201.PlaceCount != 0 {
		t.Fatalf("collection: %+v", col.JSON201)
	}
	collectionID := col.JSON201.CollectionID
	placeID := func(query string) string {
		t.Helper()
		found, err := c.SearchPlacesWithResponse(ctx, &apiclient.SearchPlacesParams{Query: &query})
		want("search "+query, err, found, found.Body, http.StatusOK)
		if len(*found.JSON200) == 0 || (*found.JSON200)[0].Name != query {
			t.Fatalf("search %q: %s", query, found.Body)
		}
		return (*found.JSON200)[0].PlaceID
	}
	added, err := c.AddCollectionPlaceWithResponse(ctx, collectionID, nil,
		apiclient.AddCollectionPlaceJSONRequestBody{PlaceID: placeID("Gwangjang Market")})
	want("add place", err, added, added.Body, http.StatusCreated)
	if added.JSON201.Place.Name != "Gwangjang Market" || added.JSON201.PickPass.MyPreference != apiclient.PickPassMyPreferenceNOTHING {
		t.Fatalf("collection place: %s", added.Body)
	}

	plan, err := c.CreatePlanWithResponse(ctx, nil, apiclient.CreatePlanJSONRequestBody{Title: "Seoul trip",
		StartDate: openapi_types.Date{Time: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)},
		EndDate:   openapi_types.Date{Time: time.Date(2026, 4, 3, 0, 0, 0, 0, time.UTC)}})
	want("create plan", err, plan, plan.Body, http.StatusCreated)
	planID := plan.JSON201.PlanID
	linked, err := c.LinkPlanCollectionsWithResponse(ctx, planID, nil,
		apiclient.LinkPlanCollectionsJSONRequestBody{CollectionIds: []string{collectionID}})
	want("link collection", err, linked, linked.Body, http.StatusCreated)
	if len(*linked.JSON201) != 1 || (*linked.JSON201)[0].CollectionID != collectionID {
		t.Fatalf("linked: %s", linked.Body)
	}

	var day apiclient.LenientDay
	if err := day.FromLenientDay0(1); err != nil {
		t.Fatal(err)
	}
	cpID := added.JSON201.CollectionPlaceID
	block, err := c.AddBlockWithResponse(ctx, planID, nil, apiclient.AddBlockJSONRequestBody{Type: apiclient.AddBlockJSONBodyTypePLACE,
		CollectionPlaceID: &cpID, Day: day, StartTime: "12:00", EndTime: "13:30"})
	want("add block", err, block, block.Body, http.StatusOK)
	tb := block.JSON200
	if tb.BlockStatus != apiclient.TimeBlockBlockStatusDIRECT || tb.StartTime != "12:00:00.000Z" || tb.EndTime != "13:30:00.000Z" ||
		tb.CandidateCount != 1 || tb.SelectedBlock == nil || tb.SelectedBlock.Place.Name != "Gwangjang Market" {
		t.Fatalf("new block: %s", block.Body)
	}
	more, err := c.AddCandidatesWithResponse(ctx, planID, tb.TimeBlockID, nil,
		apiclient.AddCandidatesJSONRequestBody{PlaceIds: &[]string{placeID("N Seoul Tower")}})
	want("add candidate", err, more, more.Body, http.StatusOK)
	if more.JSON200.BlockStatus != apiclient.TimeBlockBlockStatusPENDING || more.JSON200.CandidateCount != 2 || more.JSON200.SelectedBlock != nil {
		t.Fatalf("with a second candidate: %s", more.Body)
	}
	tower := more.JSON200.Candidates[1]
	if tower.Place.Name != "N Seoul Tower" || tower.AddedBy.Nickname != "Ana" {
		t.Fatalf("second candidate: %s", more.Body)
	}
	chosen, err := c.SelectCandidateWithResponse(ctx, planID, tb.TimeBlockID, nil, apiclient.SelectCandidateJSONRequestBody{BlockID: tower.BlockID})
	want("select", err, chosen, chosen.Body, http.StatusOK)
	if chosen.JSON200.BlockStatus != apiclient.TimeBlockBlockStatusFIXED || chosen.JSON200.SelectedBlock == nil ||
		chosen.JSON200.SelectedBlock.BlockID != tower.BlockID || chosen.JSON200.Version <= more.JSON200.Version {
		t.Fatalf("selected: %s", chosen.Body)
	}

	comment := "The view at dusk"
	opinion, err := c.AddOpinionWithResponse(ctx, planID, tower.BlockID, nil,
		apiclient.AddOpinionJSONRequestBody{Type: apiclient.OpinionRequestTypePOSITIVE, Comment: &comment})
	want("opinion", err, opinion, opinion.Body, http.StatusCreated)
	if opinion.JSON201.Type != apiclient.OpinionTypePOSITIVE || opinion.JSON201.Comment != comment || opinion.JSON201.AddedBy.Nickname != "Ana" {
		t.Fatalf("opinion: %s", opinion.Body)
	}
	again, err := c.AddOpinionWithResponse(ctx, planID, tower.BlockID, nil,
		apiclient.AddOpinionJSONRequestBody{Type: apiclient.OpinionRequestTypeNEGATIVE})
	want("second opinion", err, again, again.Body, http.StatusConflict)
	if again.ApplicationProblemJSON409.Code != "BLOCK_OPINION_ALREADY_EXISTS" {
		t.Fatalf("second opinion: %s", again.Body)
	}

	var cost apiclient.LenientAmount
	if err := cost.FromLenientAmount0("12000"); err != nil {
		t.Fatal(err)
	}
	expense, err := c.AddExpenseWithResponse(ctx, planID, nil, apiclient.AddExpenseJSONRequestBody{Day: &day,
		Items: []apiclient.ExpenseItemInput{{Name: "Taxi", Cost: cost}}})
	want("expense", err, expense, expense.Body, http.StatusCreated)
	taxi := expense.JSON201.Selected
	if len(taxi.Items) != 1 || taxi.Items[0].Name != "Taxi" || taxi.Items[0].Cost != "12000" || taxi.Block != nil {
		t.Fatalf("expense: %s", expense.Body)
	}

	read, err := c.GetPlanWithResponse(ctx, planID)
	want("read plan", err, read, read.Body, http.StatusOK)
	if p := read.JSON200; p.Title != "Seoul trip" || p.StartDate.String() != "2026-04-01" || p.EndDate.String() != "2026-04-03" ||
		p.DurationDays != 3 || p.MemberCount != 1 || p.CollectionCount != 1 {
		t.Fatalf("plan: %s", read.Body)
	}
	blocks, err := c.ListDayBlocksWithResponse(ctx, planID, &apiclient.ListDayBlocksParams{Day: 1})
	want("read blocks", err, blocks, blocks.Body, http.StatusOK)
	if len(blocks.JSON200.Contents) != 1 {
		t.Fatalf("day 1: %s", blocks.Body)
	}
	if got := blocks.JSON200.Contents[0].SelectedBlock; got == nil || got.BlockID != tower.BlockID || got.OpinionSummary.TotalCount != 1 ||
		got.OpinionSummary.My == nil || got.OpinionSummary.My.OpinionID != opinion.JSON201.OpinionID {
		t.Fatalf("day 1: %s", blocks.Body)
	}
	groups, err := c.ListDayExpensesWithResponse(ctx, planID, &apiclient.ListDayExpensesParams{Day: 1})
	want("read expenses", err, groups, groups.Body, http.StatusOK)
	g := *groups.JSON200
	// The additional expense (its selected expense asked) and the block's (its time block asked).
	type groupShape struct {
		Type                         apiclient.ExpenseGroupType
		SelectedExpense, TimeBlockID *string
	}
	var gotGroups []groupShape
	for i, x := range g {
		gs := groupShape{Type: x.Type}
		if i == 0 && x.Selected != nil {
			gs.SelectedExpense = &x.Selected.ExpenseID
		}
		if i == 1 {
			gs.TimeBlockID = x.TimeBlockID
		}
		gotGroups = append(gotGroups, gs)
	}
	if diff := cmp.Diff([]groupShape{{Type: apiclient.ExpenseGroupTypeADDITIONAL, SelectedExpense: &taxi.ExpenseID},
		{Type: apiclient.ExpenseGroupTypeBLOCK, TimeBlockID: &tb.TimeBlockID}}, gotGroups); diff != "" {
		t.Fatalf("expenses of day 1 (-want +got):\n%s", diff)
	}
	budget, err := c.GetBudgetWithResponse(ctx, planID)
	want("budget", err, budget, budget.Body, http.StatusOK)
	if budget.JSON200.TotalCost != "12000" || budget.JSON200.TravelerCount != 1 || budget.JSON200.Currency != "KRW" {
		t.Fatalf("budget: %s", budget.Body)
	}
}
