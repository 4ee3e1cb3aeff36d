package postgres_test

import (
	"context"
	"crypto/sha256"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/money"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// guestFixture is a plan and a collection (linked) with everything a write could touch, a
// member of each, a removed member, and a guest of each through its own invite link.
type guestFixture struct {
	owner, member                  string // user ids
	plan, col, spareCol            string
	cp, cp2                        string // collection places
	places                         []string
	timeBlock, candidate, second   string
	opinion, expense, job          string
	notification                   string // the owner's
	planMember, colMember, removed string // member ids (removed: a plan member the owner removed)
	planLink, colLink              *planner.ShareLink
	planGuest, colGuest            string // guest viewer ids
}

func newGuestFixture(t *testing.T, db *postgres.DB) *guestFixture {
	t.Helper()
	ctx := t.Context()
	f := &guestFixture{owner: newUser(t, db, "Owner"), member: newUser(t, db, "Member")}
	third := newUser(t, db, "Third")
	f.plan = must(db.CreatePlan(ctx, f.owner, planner.PlanInput{Title: "Trip", StartDate: day("2026-11-27"), EndDate: day("2026-11-29")})).ID
	saved := must(db.SavePlaces(ctx, []planner.Place{
		{Provider: "GOOGLE", ProviderPlaceID: "guest-0", Name: "Palace"},
		{Provider: "GOOGLE", ProviderPlaceID: "guest-1", Name: "Market"},
		{Provider: "GOOGLE", ProviderPlaceID: "guest-2", Name: "Tower"},
	}))
	for _, p := range saved {
		f.places = append(f.places, p.ID)
	}
	f.col = must(db.CreateCollection(ctx, f.owner, "Seoul")).ID
	f.spareCol = must(db.CreateCollection(ctx, f.owner, "Spare")).ID
	f.cp = must(db.AddCollectionPlace(ctx, f.owner, f.col, f.places[0])).ID
	f.cp2 = must(db.AddCollectionPlace(ctx, f.owner, f.col, f.places[1])).ID
	must(db.LinkCollections(ctx, f.owner, f.plan, []string{f.col}))
	tb := must(db.AddBlock(ctx, f.owner, f.plan, planner.NewBlock{Type: planner.BlockPlace, CollectionPlaceID: f.cp, Slot: slot(1, "10:00", "11:00")}))
	tb = must(db.AddCandidates(ctx, f.owner, f.plan, tb.ID, []string{f.cp2}, nil))
	f.timeBlock, f.candidate, f.second = tb.ID, tb.Candidates[0].ID, tb.Candidates[1].ID
	f.opinion = must(db.AddOpinion(ctx, f.owner, f.plan, f.candidate, planner.OpinionInput{Type: planner.OpinionPositive})).ID
	f.expense = must(db.AddExpense(ctx, f.owner, f.plan, planner.NewExpense{Day: 1, Items: []planner.NewItem{{Name: "Bus", Cost: must(money.ParseDecimal("1500"))}}})).ID
	must(db.CreateCalendarFeed(ctx, f.owner, f.plan))
	db.OnExtraction(noQueue{})
	f.job = must(db.CreateExtractionJob(ctx, f.owner, f.col, "https://blog.example/a", "https://blog.example/a")).ID

	f.planLink = must(db.CreateShareLink(ctx, f.owner, planner.SharePlan, f.plan))
	f.colLink = must(db.CreateShareLink(ctx, f.owner, planner.ShareCollection, f.col))
	must(db.JoinByLink(ctx, f.member, f.planLink.Code))
	must(db.JoinByLink(ctx, f.member, f.colLink.Code))
	must(db.JoinByLink(ctx, third, f.planLink.Code))
	f.planMember = must(db.PlanMembers(ctx, f.member, f.plan)).Me.ID
	f.colMember = must(db.CollectionMembers(ctx, f.member, f.col)).Me.ID
	f.removed = must(db.PlanMembers(ctx, third, f.plan)).Me.ID
	if err := db.RemovePlanMember(ctx, f.owner, f.plan, f.removed); err != nil {
		t.Fatal(err)
	}
	list, _, _ := must3(db.Notifications(ctx, f.owner, planner.Page{Number: 0, Size: 10}))
	if len(list) == 0 {
		t.Fatal("the owner has no notification")
	}
	f.notification = list[0].ID
	f.planGuest, f.colGuest = planner.GuestViewer(f.planLink), planner.GuestViewer(f.colLink)
	return f
}

func must3[A, B, C any](a A, b B, c C, err error) (A, B, C) {
	if err != nil {
		panic(err)
	}
	return a, b, c
}

// membersOnly calls every store method that changes something on a caller's behalf, and every
// read that only members may make, as a guest: of the plan for the plan's, of the collection
// for the collection's, and the plan's guest for the caller's own account. Each is a call a
// member could make successfully. The routes leave this decision to the store (their
// middleware only authenticates), so these calls are what a guest's requests come to.
func membersOnly(f *guestFixture) map[string]func(ctx context.Context, db *postgres.DB) error {
	pg, cg := f.planGuest, f.colGuest
	memo := "mine now"
	total := must(money.ParseDecimal("1000"))
	input := planner.PlanInput{Title: "Hijack", StartDate: day("2026-11-27"), EndDate: day("2026-11-29")}
	items := []planner.NewItem{{Name: "Taxi", Cost: must(money.ParseDecimal("100"))}}
	return map[string]func(ctx context.Context, db *postgres.DB) error{
		// Plans and their members.
		"CreatePlan": func(ctx context.Context, db *postgres.DB) error { _, err := db.CreatePlan(ctx, pg, input); return err },
		"RestorePlan": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.RestorePlan(ctx, pg, &planner.Restore{Plan: input, Budget: planner.RestoreBudget{Mode: planner.BudgetInitial}})
			return err
		},
		"UpdatePlan": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.UpdatePlan(ctx, pg, f.plan, input, false, planner.AnyVersion)
			return err
		},
		"DeletePlan": func(ctx context.Context, db *postgres.DB) error {
			return db.DeletePlan(ctx, pg, f.plan, planner.AnyVersion)
		},
		"ChangePlanOwner": func(ctx context.Context, db *postgres.DB) error {
			return db.ChangePlanOwner(ctx, pg, f.plan, f.planMember)
		},
		"LeavePlan": func(ctx context.Context, db *postgres.DB) error { return db.LeavePlan(ctx, pg, f.plan) },
		"RemovePlanMember": func(ctx context.Context, db *postgres.DB) error {
			return db.RemovePlanMember(ctx, pg, f.plan, f.planMember)
		},
		"LinkCollections": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.LinkCollections(ctx, pg, f.plan, []string{f.spareCol})
			return err
		},
		"UnlinkCollection": func(ctx context.Context, db *postgres.DB) error { return db.UnlinkCollection(ctx, pg, f.plan, f.col) },
		// Blocks, candidates, opinions.
		"AddBlock": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddBlock(ctx, pg, f.plan, planner.NewBlock{Type: planner.BlockFree, Slot: slot(2, "09:00", "10:00")})
			return err
		},
		"AddBlockByPlace": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddBlockByPlace(ctx, pg, f.plan, f.places[2], slot(2, "11:00", "12:00"), "")
			return err
		},
		"AddBlockFromSearch": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddBlockFromSearch(ctx, pg, f.plan, f.places[2], slot(2, "11:00", "12:00"), "")
			return err
		},
		"AddManualBlock": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddManualBlock(ctx, pg, f.plan, planner.ManualPlace{Name: "Home", Address: "1 Main St"}, slot(2, "13:00", "14:00"), "")
			return err
		},
		"UpdateBlock": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.UpdateBlock(ctx, pg, f.plan, f.candidate, planner.BlockChange{Memo: &memo}, planner.AnyVersion)
			return err
		},
		"DeleteTimeBlock": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.DeleteTimeBlock(ctx, pg, f.plan, f.timeBlock, planner.AnyVersion)
			return err
		},
		"RestoreTimeBlock": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.RestoreTimeBlock(ctx, pg, f.plan, planner.NewID())
			return err
		},
		"CopyTimeBlock": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.CopyTimeBlock(ctx, pg, f.plan, f.timeBlock, planner.BlockCopy{})
			return err
		},
		"SwapDays": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.SwapDays(ctx, pg, f.plan, 1, 2)
			return err
		},
		"ArrangeDay": func(ctx context.Context, db *postgres.DB) error {
			_, _, err := db.ArrangeDay(ctx, pg, f.plan, 1, planner.Arrangement{Blocks: []planner.Arranged{{TimeBlockID: f.timeBlock, Version: 1, Start: 12 * planner.TimeOfDay(time.Hour), End: 13 * planner.TimeOfDay(time.Hour)}}})
			return err
		},
		"AddCandidates": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddCandidates(ctx, pg, f.plan, f.timeBlock, nil, []string{f.places[2]})
			return err
		},
		"AddCandidateFromSearch": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddCandidateFromSearch(ctx, pg, f.plan, f.timeBlock, f.places[2])
			return err
		},
		"ChangeSelection": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.ChangeSelection(ctx, pg, f.plan, f.timeBlock, f.second, planner.AnyVersion)
			return err
		},
		"DeleteCandidate": func(ctx context.Context, db *postgres.DB) error {
			return db.DeleteCandidate(ctx, pg, f.plan, f.timeBlock, f.second, planner.AnyVersion)
		},
		"AddOpinion": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddOpinion(ctx, pg, f.plan, f.second, planner.OpinionInput{Type: planner.OpinionNeutral})
			return err
		},
		"UpdateOpinion": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.UpdateOpinion(ctx, pg, f.plan, f.candidate, f.opinion, planner.OpinionInput{Type: planner.OpinionNegative}, planner.AnyVersion)
			return err
		},
		"DeleteOpinion": func(ctx context.Context, db *postgres.DB) error {
			return db.DeleteOpinion(ctx, pg, f.plan, f.candidate, f.opinion, planner.AnyVersion)
		},
		// Money.
		"UpdateBudget": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.UpdateBudget(ctx, pg, f.plan, planner.BudgetChange{Mode: planner.BudgetBudget, TotalBudget: &total}, planner.AnyVersion)
			return err
		},
		"AddExpense": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddExpense(ctx, pg, f.plan, planner.NewExpense{Day: 1, Items: items})
			return err
		},
		"SetExpense": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.SetExpense(ctx, pg, f.plan, f.expense, items, nil, planner.AnyVersion)
			return err
		},
		"DeleteExpense": func(ctx context.Context, db *postgres.DB) error {
			return db.DeleteExpense(ctx, pg, f.plan, f.expense, planner.AnyVersion)
		},
		// Calendar feeds.
		"CreateCalendarFeed": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.CreateCalendarFeed(ctx, pg, f.plan)
			return err
		},
		"DeleteCalendarFeed": func(ctx context.Context, db *postgres.DB) error { return db.DeleteCalendarFeed(ctx, pg, f.plan) },
		// Collections and their members.
		"CreateCollection": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.CreateCollection(ctx, cg, "Mine")
			return err
		},
		"RenameCollection": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.RenameCollection(ctx, cg, f.col, "Renamed", planner.AnyVersion)
			return err
		},
		"DeleteCollection": func(ctx context.Context, db *postgres.DB) error {
			return db.DeleteCollection(ctx, cg, f.col, planner.AnyVersion)
		},
		"ChangeCollectionOwner": func(ctx context.Context, db *postgres.DB) error {
			return db.ChangeCollectionOwner(ctx, cg, f.col, f.colMember)
		},
		"LeaveCollection": func(ctx context.Context, db *postgres.DB) error { return db.LeaveCollection(ctx, cg, f.col) },
		"RemoveCollectionMember": func(ctx context.Context, db *postgres.DB) error {
			return db.RemoveCollectionMember(ctx, cg, f.col, f.colMember)
		},
		"AddCollectionPlace": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddCollectionPlace(ctx, cg, f.col, f.places[2])
			return err
		},
		"SetCollectionPlaceMemo": func(ctx context.Context, db *postgres.DB) error {
			return db.SetCollectionPlaceMemo(ctx, cg, f.col, f.cp, "note", planner.AnyVersion)
		},
		"DeleteCollectionPlace": func(ctx context.Context, db *postgres.DB) error {
			return db.DeleteCollectionPlace(ctx, cg, f.col, f.cp, planner.AnyVersion)
		},
		"TogglePreference": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.TogglePreference(ctx, cg, f.col, f.cp, planner.PreferencePick)
			return err
		},
		// Extraction jobs.
		"CreateExtractionJob": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.CreateExtractionJob(ctx, cg, f.col, "https://blog.example/b", "https://blog.example/b")
			return err
		},
		"DismissExtractionJob": func(ctx context.Context, db *postgres.DB) error {
			return db.DismissExtractionJob(ctx, cg, f.col, f.job)
		},
		"AddPlacesFromJob": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddPlacesFromJob(ctx, cg, f.col, f.job, []string{f.places[2]})
			return err
		},
		"AddCustomPlaceFromJob": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.AddCustomPlaceFromJob(ctx, cg, f.col, f.job, "Hanok Teahouse Moon")
			return err
		},
		"ImportPlaces": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.ImportPlaces(ctx, cg, f.col, "CSV", []planner.ImportRow{{Row: 1, Name: "Tower", HasPoint: true, Lat: 37.5, Lng: 127}})
			return err
		},
		// Invite links and removed members.
		"CreateShareLink": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.CreateShareLink(ctx, pg, planner.SharePlan, f.plan)
			return err
		},
		"JoinByLink": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.JoinByLink(ctx, pg, f.planLink.Code)
			return err
		},
		"RevokeShareLink": func(ctx context.Context, db *postgres.DB) error {
			return db.RevokeShareLink(ctx, pg, planner.SharePlan, f.plan, f.planLink.Code)
		},
		"LetMemberBack": func(ctx context.Context, db *postgres.DB) error {
			return db.LetMemberBack(ctx, pg, planner.SharePlan, f.plan, f.removed)
		},
		// The caller's own account.
		"AcceptTerms": func(ctx context.Context, db *postgres.DB) error { _, err := db.AcceptTerms(ctx, pg); return err },
		"UpdateProfile": func(ctx context.Context, db *postgres.DB) error {
			nickname := "Hacker"
			_, err := db.UpdateProfile(ctx, pg, planner.ProfileChange{Nickname: &nickname})
			return err
		},
		"SetNotificationSettings": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.SetNotificationSettings(ctx, pg, []planner.NotificationSetting{{Category: planner.NotifyCategories[0], Push: true, Email: true}})
			return err
		},
		"SavePushSubscription": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.SavePushSubscription(ctx, pg, planner.PushSubscription{Endpoint: "https://push.example/x", P256dh: "k", Auth: "a"})
			return err
		},
		"DeletePushSubscription": func(ctx context.Context, db *postgres.DB) error {
			return db.DeletePushSubscription(ctx, pg, "https://push.example/x")
		},
		"SetPicture": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.SetPicture(ctx, pg, "/files/users/x/picture.png", "")
			return err
		},
		"StartPictureUpload": func(ctx context.Context, db *postgres.DB) error {
			return db.StartPictureUpload(ctx, pg, "pictures/x/upload.png", time.Minute)
		},
		"WithdrawUser": func(ctx context.Context, db *postgres.DB) error { return db.WithdrawUser(ctx, pg, "bye") },
		"MarkNotificationRead": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.MarkNotificationRead(ctx, pg, f.notification)
			return err
		},
		"MarkAllNotificationsRead": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.MarkAllNotificationsRead(ctx, pg)
			return err
		},
		"CreateRefreshToken": func(ctx context.Context, db *postgres.DB) error {
			hash := sha256.Sum256([]byte("guest"))
			_, err := db.CreateRefreshToken(ctx, pg, hash[:], time.Now().Add(time.Hour))
			return err
		},
		"RevokeSession": func(ctx context.Context, db *postgres.DB) error { return db.RevokeSession(ctx, pg, "any-session") },
		"RecordSettlement": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.RecordSettlement(ctx, pg, f.plan, "any-member", "another-member", must(money.ParseDecimal("1000")))
			return err
		},
		"DeleteSettlement": func(ctx context.Context, db *postgres.DB) error {
			return db.DeleteSettlement(ctx, pg, f.plan, "any-settlement")
		},
		"ExpenseCurrency": func(ctx context.Context, db *postgres.DB) error { // asked only before a write
			_, _, err := db.ExpenseCurrency(ctx, pg, f.plan, f.expense)
			return err
		},
		"RevokeUserSessions": func(ctx context.Context, db *postgres.DB) error { return db.RevokeUserSessions(ctx, pg) },

		// Reads for members only: the guest of the very plan or collection is refused too.
		"PlanToChange": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.PlanToChange(ctx, pg, f.plan)
			return err
		},
		"PlanCollections": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.PlanCollections(ctx, pg, f.plan)
			return err
		},
		"PlanCollectionPlaces": func(ctx context.Context, db *postgres.DB) error {
			_, _, err := db.PlanCollectionPlaces(ctx, pg, f.plan, f.col, planner.Page{Size: 10}, planner.CollectionPlaceSort{}, planner.PlaceFilter{})
			return err
		},
		"PlanCollectionPlace": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.PlanCollectionPlace(ctx, pg, f.plan, f.col, f.cp)
			return err
		},
		"PlanPlaces": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.PlanPlaces(ctx, pg, f.plan, "", 10)
			return err
		},
		"GapPlaces": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.GapPlaces(ctx, pg, f.plan, 10)
			return err
		},
		"HasCalendarFeed": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.HasCalendarFeed(ctx, pg, f.plan)
			return err
		},
		"ShareLinks": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.ShareLinks(ctx, pg, planner.SharePlan, f.plan)
			return err
		},
		"RemovedMembers": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.RemovedMembers(ctx, cg, planner.ShareCollection, f.col)
			return err
		},
		"CollectionPlans": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.CollectionPlans(ctx, cg, f.col)
			return err
		},
		"ExtractionJob": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.ExtractionJob(ctx, cg, f.col, f.job)
			return err
		},
		"LatestExtractionJob": func(ctx context.Context, db *postgres.DB) error {
			_, err := db.LatestExtractionJob(ctx, cg, f.col)
			return err
		},
	}
}

// notWrites are the store's other methods, and why no guest test applies to them.
var notWrites = map[string]string{
	// Reads: a guest of the resource may make those that concern it; the rest are an
	// account's own (its plans, collections, notifications, settings), which only routes that
	// require an account call, and find nothing for a guest.
	"DayBlocks": "read", "BlockDetail": "read", "Candidates": "read", "Discussion": "read", "LastChangedBy": "read", "Budget": "read", "SettlementData": "read",
	"BudgetOverview": "read", "Settlements": "read", "ExpenseSheet": "read", "CollectionPlaces": "read", "CollectionPlace": "read", "Collections": "read",
	"Collection": "read", "CollectionMembers": "read", "DayExpenses": "read",
	"PlanExport": "read", "PlanSchedule": "read",
	"RecentPlans": "read", "Notifications": "read", "UnreadCount": "read", "Opinions": "read", "Opinion": "read",
	"SearchPlaces": "read",
	"Plans":        "read", "Plan": "read", "PlanMembers": "read", "PlanPresence": "read", "ShareLink": "read",
	"User": "read", "Language": "read", "PlanActivity": "read", "CollectionActivity": "read",
	"EnterPlan": "a reader's presence: guests of the plan are counted as they look",
	// No caller: the server's own work, or identities that come from a sign-in provider.
	"Listen": "change feed", "Subscribe": "live events", "EventsSince": "live events", "LastEventID": "live events",
	"CalendarFeed": "the feed's secret token is the authorization",
	"TakeToken":    "rate limit of anonymous requests, keyed by client address", "CloseInstanceStreams": "server shutdown",
	"OpenStream":  "stream caps, counted per reader; no plan or collection is touched",
	"TouchStream": "a stream id OpenStream recorded", "CloseStream": "a stream id OpenStream recorded",
	"TouchPresence": "a connection key EnterPlan issued", "LeavePlanPresence": "a connection key EnterPlan issued",
	"WorkJob": "job worker", "SetJobStage": "job worker", "CompleteJob": "job worker", "FailJob": "job worker",
	"LoadCatalog": "start-up", "SeedDemo": "start-up", "ConnectionRoom": "start-up", "SavePlaces": "provider search results", "PruneExpired": "periodic job",
	"NewSessionStore": "wiring", "SignInUser": "sign-in", "SignInSocial": "sign-in",
	"CreateAppCode": "sign-in", "RedeemAppCode": "the one-time code is the authorization",
	"ClaimPictureUpload": "the signed upload URL is the authorization", "PictureKeysInUse": "periodic job",
	"SessionRevoked": "read",
	// Idempotency keys are the caller's own, not the plan's or collection's: the request they
	// guard goes through the checks above.
	"ClaimIdempotencyKey": "idempotency key", "RecordIdempotentAnswer": "idempotency key",
	"ReleaseIdempotencyKey": "idempotency key", "DeleteExpiredIdempotencyKeys": "periodic job",

	"CollectionMap": "read", "NotificationSettings": "read",
	"TurnOffDigest": "the signed unsubscribe link is the authorization", "OnPush": "wiring", "OnExtraction": "wiring",
	"PushDelivery": "push worker", "PushDelivered": "push worker", "DropPushSubscription": "push worker",
	"DigestRecipients": "digest job", "Digest": "digest job",
	"RotateRefreshToken": "the refresh token is the authorization", "RevokeRefreshToken": "the refresh token is the authorization",
	"Tx": "test helper (export_test.go)", "HoldFeed": "test helper (feed_export_test.go)", "PlanVersion": "test helper (feed_export_test.go)",
}

// TestGuestsCannotWriteThroughTheStore calls every write method of the store, and every read
// only members may make, with a guest's viewer id, as a guest's request does: each answers
// GUEST_FORBIDDEN and the database is unchanged. A new method of *DB fails this test until it
// is listed here.
func TestGuestsCannotWriteThroughTheStore(t *testing.T) {
	db := pgtest.New(t)
	f := newGuestFixture(t, db)
	writes := membersOnly(f)

	// Every method is classified, and every listed name is a method.
	dbType, promoted := reflect.TypeOf(db), reflect.TypeOf(&sqlx.DB{})
	methods := map[string]bool{}
	for i := range dbType.NumMethod() {
		name := dbType.Method(i).Name
		if _, ok := promoted.MethodByName(name); ok {
			continue // sqlx's, through the embedded *sqlx.DB
		}
		methods[name] = true
		_, w := writes[name]
		_, r := notWrites[name]
		switch {
		case w && r:
			t.Errorf("%s is listed both as a write and as not one", name)
		case !w && !r:
			t.Errorf("*DB.%s is new: add it to membersOnly (a guest must get GUEST_FORBIDDEN) or to notWrites", name)
		}
	}
	for name := range writes {
		if !methods[name] {
			t.Errorf("membersOnly lists %s, which *DB does not have", name)
		}
	}
	for name := range notWrites {
		if !methods[name] {
			t.Errorf("notWrites lists %s, which *DB does not have", name)
		}
	}

	names := make([]string, 0, len(writes))
	for name := range writes {
		names = append(names, name)
	}
	sort.Strings(names)
	before := snapshot(t, db)
	for _, name := range names {
		err := writes[name](t.Context(), db)
		wantCode(t, name, err, planner.CodeGuestForbidden)
	}
	after := snapshot(t, db)
	for table, sum := range before {
		if after[table] != sum {
			t.Errorf("a guest changed table %s", table)
		}
	}

}

// snapshot is a digest of every table's rows, to tell whether anything changed.
func snapshot(t *testing.T, db *postgres.DB) map[string]string {
	t.Helper()
	var tables []string
	if err := db.Select(&tables, `
		SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, table := range tables {
		var sum string
		if err := db.Get(&sum, `SELECT COALESCE(md5(string_agg(t::text, '|' ORDER BY t::text)), '') FROM `+table+` t`); err != nil {
			t.Fatal(err)
		}
		out[table] = sum
	}
	return out
}

// TestRevokedLinkEndsItsGuestsReads: a guest reads through their link only while it works. The
// store checks the link on every read, the day listing included (which members get from the
// day cache), so revoking or expiring one link refuses its guests at their next read and leaves
// the guests of other links alone.
func TestRevokedLinkEndsItsGuestsReads(t *testing.T) {
	db, _, url := pgtest.Counted(t)
	if err := db.Listen(t.Context(), url, nil); err != nil { // the day cache, as in production
		t.Fatal(err)
	}
	ctx := t.Context()
	f := newGuestFixture(t, db)
	other := must(db.CreateShareLink(ctx, f.member, planner.SharePlan, f.plan))
	first, second := f.planGuest, planner.GuestViewer(other)
	reads := func(viewer string) map[string]error {
		_, dayErr := db.DayBlocks(ctx, viewer, f.plan, 1, planner.Page{Size: 20})
		_, planErr := db.Plan(ctx, viewer, f.plan)
		_, exportErr := db.PlanExport(ctx, viewer, f.plan)
		_, membersErr := db.PlanMembers(ctx, viewer, f.plan)
		_, _, activityErr := db.PlanActivity(ctx, viewer, f.plan, planner.Page{Size: 20})
		return map[string]error{"DayBlocks": dayErr, "Plan": planErr, "PlanExport": exportErr, "PlanMembers": membersErr, "PlanActivity": activityErr}
	}
	for _, viewer := range []string{first, first, second} { // twice: the second day listing could come from a cache
		for name, err := range reads(viewer) {
			if err != nil {
				t.Fatalf("%s before revoking: %v", name, err)
			}
		}
	}

	// The member who made a link, and the owner, may revoke it; another member may not.
	wantCode(t, "revoke another's link", db.RevokeShareLink(ctx, f.member, planner.SharePlan, f.plan, f.planLink.Code), planner.CodeForbiddenNotOwner)
	if err := db.RevokeShareLink(ctx, f.owner, planner.SharePlan, f.plan, f.planLink.Code); err != nil {
		t.Fatal(err)
	}
	for name, err := range reads(first) {
		wantCode(t, name+" after revoking", err, planner.CodeInvalidLink)
	}
	for name, err := range reads(second) {
		if err != nil {
			t.Errorf("%s by the other link's guest: %v", name, err)
		}
	}
	_, err := db.ShareLink(ctx, f.planLink.Code)
	wantCode(t, "the revoked link", err, planner.CodeInvalidLink)
	wantCode(t, "revoking it again", db.RevokeShareLink(ctx, f.owner, planner.SharePlan, f.plan, f.planLink.Code), planner.CodeInvalidLink)

	// An expired link admits nobody either; links shows only the ones that work.
	if _, err := db.Exec(`UPDATE share_links SET expires_at = now() - interval '1 second' WHERE code = $1`, other.Code); err != nil {
		t.Fatal(err)
	}
	for name, err := range reads(second) {
		wantCode(t, name+" after expiry", err, planner.CodeInvalidLink)
	}
	if links := must(db.ShareLinks(ctx, f.owner, planner.SharePlan, f.plan)); len(links) != 0 {
		t.Errorf("links listed after revoking and expiry: %+v", links)
	}
	if err := db.RevokeShareLink(ctx, f.member, planner.SharePlan, f.plan, other.Code); err != nil {
		t.Errorf("its maker revoking an expired link: %v", err)
	}
}
