package postgres

import (
	"context"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// memberKind is what membership of plans and of collections has in common: the members
// table, its key column and unique constraint, the parent table, the noun for messages, and
// the check that the user is an active member (NOT_FOUND / FORBIDDEN_NOT_MEMBER).
type memberKind struct {
	table, key, uniq, parent, noun string
	member                         func(ctx context.Context, q sqlx.QueryerContext, id, userID string) (membership, error)
}

var (
	planKind = memberKind{table: "plan_members", key: "plan_id", uniq: "plan_members_one_per_user",
		parent: "plans", noun: "plan", member: planMember}
	collectionKind = memberKind{table: "collection_members", key: "collection_id", uniq: "collection_members_one_per_user",
		parent: "collections", noun: "collection", member: collectionMember}
)

// did is a change of membership of the resource (to the member memberID, then called
// nickname) in its history.
func (k memberKind) did(id, userID string, kind planner.ActivityKind, memberID, nickname string) happening {
	h := planDid(id, userID, kind, planner.TargetMember, memberID, planner.Details{Member: nickname})
	h.k = k
	return h
}

// link is the resource's page.
func (k memberKind) link(id string) string {
	if k.noun == planKind.noun {
		return paths.Plan(id)
	}
	return paths.Collection(id)
}

// refuse is the error for a plan or the one for a collection: each says its resource in a
// sentence of its own, so that each translates whole.
func (k memberKind) refuse(plan, collection *planner.Error) *planner.Error {
	if k.noun == planKind.noun {
		return plan
	}
	return collection
}

// outsider answers for a viewer who is not an active member of the resource: the guest of
// exactly this resource reads as GUEST while their link works (linkLive, from
// guestLinkColumn) and is INVALID_LINK once it was revoked or expired; a guest of another is
// FORBIDDEN_NOT_GUEST; anyone else FORBIDDEN_NOT_MEMBER.
func outsider(t planner.ShareType, resourceID, viewer string, linkLive bool) (membership, error) {
	if g, ok := planner.ParseGuestViewer(viewer); ok {
		if g.Type != t || g.ReferenceID != resourceID {
			return membership{}, planner.Errorf(planner.CodeForbiddenNotGuest, "Your invite link is for another plan or collection.")
		}
		if !linkLive {
			return membership{}, planner.Errorf(planner.CodeInvalidLink, "Your invite link no longer works; ask for a new one.")
		}
		return membership{Role: planner.RoleGuest}, nil
	}
	if t == planner.SharePlan {
		return membership{}, planner.Errorf(planner.CodeForbiddenNotMember, "You are not a member of this plan.")
	}
	return membership{}, planner.Errorf(planner.CodeForbiddenNotMember, "You are not a member of this collection.")
}

// group lists the resource's active members, the owner first and then by join time, with the
// member whose membership id is me (if any) as the group's Me.
func (k memberKind) group(ctx context.Context, q sqlx.QueryerContext, id, me string) (*planner.MemberGroup, error) {
	g := &planner.MemberGroup{Members: []planner.Member{}}
	if err := sqlx.SelectContext(ctx, q, &g.Members, `
		SELECT id, nickname, picture, role FROM `+k.table+`
		WHERE `+k.key+` = $1 AND left_at IS NULL
		ORDER BY role = 'OWNER' DESC, joined_at, id`, id); err != nil {
		return nil, err
	}
	g.Mark(me)
	return g, nil
}

// owner is member, then refused (FORBIDDEN_NOT_OWNER, saying what only the owner can do)
// unless the user owns the resource.
func (k memberKind) owner(ctx context.Context, q sqlx.QueryerContext, id, userID string, refused *planner.Error) (membership, error) {
	m, err := k.member(ctx, q, id, userID)
	if err == nil && m.Role != planner.RoleOwner {
		err = refused
	}
	return m, err
}

// active reports MEMBER_NOT_FOUND unless memberID is an active member of the resource.
func (k memberKind) active(ctx context.Context, tx *sqlx.Tx, id, memberID string) error {
	var found bool
	if planner.ValidID(memberID) {
		if err := tx.GetContext(ctx, &found, `
			SELECT EXISTS (SELECT 1 FROM `+k.table+` WHERE id = $1 AND `+k.key+` = $2 AND left_at IS NULL)`, memberID, id); err != nil {
			return err
		}
	}
	if !found {
		return k.refuse(planner.Errorf(planner.CodeMemberNotFound, "No such member of this plan."),
			planner.Errorf(planner.CodeMemberNotFound, "No such member of this collection."))
	}
	return nil
}

// changeOwner hands ownership to another active member (the owner only); the roles swap.
func (k memberKind) changeOwner(ctx context.Context, db *DB, tx *sqlx.Tx, id, userID, memberID string) error {
	me, err := k.owner(ctx, tx, id, userID, k.refuse(planner.Errorf(planner.CodeForbiddenNotOwner, "Only the owner can hand over the plan."),
		planner.Errorf(planner.CodeForbiddenNotOwner, "Only the owner can hand over the collection.")))
	if err != nil {
		return err
	}
	if memberID == me.ID {
		return k.refuse(planner.Errorf(planner.CodeCannotDelegateOwnershipToSelf, "You own the plan already."),
			planner.Errorf(planner.CodeCannotDelegateOwnershipToSelf, "You own the collection already."))
	}
	if err := k.active(ctx, tx, id, memberID); err != nil {
		return err
	}
	// Demote first: at most one owner at any moment (the one-owner index).
	if _, err := tx.ExecContext(ctx, `UPDATE `+k.table+` SET role = 'MEMBER' WHERE id = $1`, me.ID); err != nil {
		return err
	}
	var nickname string
	if err := tx.GetContext(ctx, &nickname, `UPDATE `+k.table+` SET role = 'OWNER' WHERE id = $1 RETURNING nickname`, memberID); err != nil {
		return err
	}
	return db.record(ctx, tx, k.did(id, userID, planner.ActOwnerChanged, memberID, nickname))
}

// leave ends the user's membership; the owner must hand over first. What they added stays.
func (k memberKind) leave(ctx context.Context, db *DB, tx *sqlx.Tx, id, userID string) error {
	me, err := k.member(ctx, tx, id, userID)
	if err != nil {
		return err
	}
	if me.Role == planner.RoleOwner {
		return k.refuse(planner.Errorf(planner.CodeNeedToDelegateOwnership, "Hand the plan over to another member before leaving."),
			planner.Errorf(planner.CodeNeedToDelegateOwnership, "Hand the collection over to another member before leaving."))
	}
	var nickname string
	if err := tx.GetContext(ctx, &nickname, `UPDATE `+k.table+` SET left_at = now() WHERE id = $1 RETURNING nickname`, me.ID); err != nil {
		return err
	}
	return db.record(ctx, tx, k.did(id, userID, planner.ActMemberLeft, me.ID, nickname))
}

// remove ends another member's membership (the owner only; not themself) and bars them from
// rejoining through links until the owner lets them back (migration 00009). What they added
// stays.
func (k memberKind) remove(ctx context.Context, db *DB, tx *sqlx.Tx, id, userID, memberID string) error {
	me, err := k.owner(ctx, tx, id, userID, planner.Errorf(planner.CodeForbiddenNotOwner, "Only the owner can remove members."))
	if err != nil {
		return err
	}
	if memberID == me.ID {
		return k.refuse(planner.Errorf(planner.CodeNeedToDelegateOwnership, "Hand the plan over to another member before leaving."),
			planner.Errorf(planner.CodeNeedToDelegateOwnership, "Hand the collection over to another member before leaving."))
	}
	if err := k.active(ctx, tx, id, memberID); err != nil {
		return err
	}
	var nickname string
	if err := tx.GetContext(ctx, &nickname, `UPDATE `+k.table+` SET left_at = now(), removed_at = now() WHERE id = $1 RETURNING nickname`, memberID); err != nil {
		return err
	}
	return db.record(ctx, tx, k.did(id, userID, planner.ActMemberRemoved, memberID, nickname))
}

// ChangeCollectionOwner hands the collection to another active member (the owner only).
func (db *DB) ChangeCollectionOwner(ctx context.Context, userID, collectionID, memberID string) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		return collectionKind.changeOwner(ctx, db, tx, collectionID, userID, memberID)
	})
}

// LeaveCollection ends the user's membership of a collection (not its owner's).
func (db *DB) LeaveCollection(ctx context.Context, userID, collectionID string) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error { return collectionKind.leave(ctx, db, tx, collectionID, userID) })
}

// RemoveCollectionMember ends another member's membership (the owner only).
func (db *DB) RemoveCollectionMember(ctx context.Context, userID, collectionID, memberID string) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		return collectionKind.remove(ctx, db, tx, collectionID, userID, memberID)
	})
}
