package postgres_test

import (
	"testing"

	"tripplan/internal/planner"
	"tripplan/internal/postgres/pgtest"
)

func TestPlanCollections(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()

	// The member of the plan is not a member of the collections.
	_, err := db.LinkCollections(ctx, f.member, f.plan.ID, []string{f.unlinked})
	wantCode(t, "not a member of the collection", err, planner.CodeForbiddenNotMember)
	_, err = db.LinkCollections(ctx, f.owner, f.plan.ID, []string{planner.NewID()})
	wantCode(t, "unknown collection", err, planner.CodeCollectionNotFound)
	_, err = db.LinkCollections(ctx, f.stranger, f.plan.ID, []string{f.unlinked})
	wantCode(t, "stranger", err, planner.CodeForbiddenNotMember)
	// One of them linked already: nothing is linked.
	_, err = db.LinkCollections(ctx, f.owner, f.plan.ID, []string{f.unlinked, f.linked})
	wantCode(t, "one linked already", err, planner.CodePlanCollectionAlreadyExists)
	if got := must(db.PlanCollections(ctx, f.member, f.plan.ID)); len(got) != 1 || got[0].CollectionID != f.linked {
		t.Fatalf("after a refused link: %+v", got)
	}

	added, err := db.LinkCollections(ctx, f.owner, f.plan.ID, []string{f.unlinked, f.unlinked})
	if err != nil || len(added) != 1 || added[0].CollectionID != f.unlinked || added[0].Title != "Unlinked" || added[0].AddedBy.Nickname != "Owner" {
		t.Fatalf("linked %+v, %v", added, err)
	}
	all := must(db.PlanCollections(ctx, f.member, f.plan.ID))
	if len(all) != 2 || all[0].CollectionID != f.linked || all[1].CollectionID != f.unlinked {
		t.Fatalf("linked collections %+v", all)
	}
	if p := must(db.Plan(ctx, f.member, f.plan.ID)); p.CollectionCount != 2 {
		t.Errorf("collection_count %d, want 2", p.CollectionCount)
	}
	_, err = db.PlanCollections(ctx, f.stranger, f.plan.ID)
	wantCode(t, "stranger lists", err, planner.CodeForbiddenNotMember)

	// A plan member browses a linked collection without being a member of it.
	places, hasNext, err := db.PlanCollectionPlaces(ctx, f.member, f.plan.ID, f.linked, planner.Page{Size: 3}, planner.CollectionPlaceSort{OldestFirst: true}, planner.PlaceFilter{})
	if err != nil || !hasNext || len(places) != 3 || places[0].ID != f.cps[0] || places[0].MyPreference != planner.PreferenceNothing {
		t.Fatalf("linked places %+v, %v, %v", places, hasNext, err)
	}
	cp, err := db.PlanCollectionPlace(ctx, f.member, f.plan.ID, f.linked, f.cps[1])
	if err != nil || cp.Place.ID != f.places[1] {
		t.Fatalf("linked place %+v, %v", cp, err)
	}
	_, err = db.PlanCollectionPlace(ctx, f.member, f.plan.ID, f.linked, f.unlinkedCP)
	wantCode(t, "place of another collection", err, planner.CodeCollectionPlaceNotFound)

	// Unlinked, its places are out of reach; blocks made from them stay.
	f.block(t, 1, 0, "10:00", "11:00")
	if err := db.UnlinkCollection(ctx, f.member, f.plan.ID, f.linked); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "unlink twice", db.UnlinkCollection(ctx, f.member, f.plan.ID, f.linked), planner.CodePlanCollectionNotFound)
	_, _, err = db.PlanCollectionPlaces(ctx, f.member, f.plan.ID, f.linked, planner.Page{Size: 3}, planner.CollectionPlaceSort{}, planner.PlaceFilter{})
	wantCode(t, "browse unlinked", err, planner.CodePlanCollectionNotFound)
	_, err = db.PlanCollectionPlace(ctx, f.member, f.plan.ID, f.linked, f.cps[1])
	wantCode(t, "place of unlinked", err, planner.CodePlanCollectionNotFound)
	_, _, err = db.PlanCollectionPlaces(ctx, f.stranger, f.plan.ID, f.unlinked, planner.Page{Size: 3}, planner.CollectionPlaceSort{}, planner.PlaceFilter{})
	wantCode(t, "stranger browses", err, planner.CodeForbiddenNotMember)
	if day, _ := db.DayBlocks(ctx, f.member, f.plan.ID, 1, planner.Page{Size: 10}); len(day.Blocks) != 1 {
		t.Errorf("blocks after unlinking: %+v", day.Blocks)
	}
}
