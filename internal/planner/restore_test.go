package planner

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Made one member's, terms pay and share the same: payers' and EXACT amounts summed, SHARES
// one share, an EQUAL split among some members among that member, "everyone" left as it is.
func TestPaidAndSharedBy(t *testing.T) {
	for name, tc := range map[string]struct{ in, want Terms }{
		"one payer, everyone": {Terms{PaidBy: "ben"}, Terms{PaidBy: "me"}},
		"payers, exact": {
			Terms{Payers: []Part{{MemberID: "a", Amount: 300}, {MemberID: "b", Amount: 700}}, Split: Split{Mode: SplitExact, Parts: []Part{{MemberID: "a", Amount: 100}, {MemberID: "b", Amount: 900}}}},
			Terms{Payers: []Part{{MemberID: "me", Amount: 1000}}, Split: Split{Mode: SplitExact, Parts: []Part{{MemberID: "me", Amount: 1000}}}}},
		"shares":           {Terms{PaidBy: "a", Split: Split{Mode: SplitShares, Parts: []Part{{MemberID: "a", Shares: 2}, {MemberID: "b", Shares: 3}}}}, Terms{PaidBy: "me", Split: Split{Mode: SplitShares, Parts: []Part{{MemberID: "me", Shares: 1}}}}},
		"equal among some": {Terms{PaidBy: "a", Split: Split{Mode: SplitEqual, Members: []string{"a", "b"}}}, Terms{PaidBy: "me", Split: Split{Mode: SplitEqual, Members: []string{"me"}}}},
	} {
		got := tc.in.PaidAndSharedBy("me")
		if got.PaidBy != tc.want.PaidBy || !equalParts(got.Payers, tc.want.Payers) || !equalParts(got.Split.Parts, tc.want.Split.Parts) ||
			strings.Join(got.Split.Members, ",") != strings.Join(tc.want.Split.Members, ",") || got.Split.Mode != tc.want.Split.Mode {
			t.Errorf("%s: %+v, want %+v", name, got, tc.want)
		}
	}
}

func equalParts(a, b []Part) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Opinions of members who do not come along are lines after the memo, cut to a memo's length.
func TestOpinionNotes(t *testing.T) {
	if got := WithNotes("Book ahead", []string{OpinionNote("Ben", "like", "  great\nview "), OpinionNote("Eve", "dislike", "")}); got != "Book ahead\nBen: like — “great view”\nEve: dislike" {
		t.Errorf("notes: %q", got)
	}
	if got := WithNotes("", []string{"Ben: like"}); got != "Ben: like" {
		t.Errorf("no memo: %q", got)
	}
	long := WithNotes(strings.Repeat("가", 290), []string{OpinionNote("Ben", "like", strings.Repeat("x", 50))})
	if n := utf8.RuneCountInString(long); n != MemoMaxLength || !strings.HasSuffix(long, "…") || !ValidText(long, 0, MemoMaxLength) {
		t.Errorf("cut: %d characters, %q", n, long[len(long)-10:])
	}
}
