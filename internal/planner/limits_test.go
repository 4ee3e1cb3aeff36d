package planner

import "testing"

func TestSharers(t *testing.T) {
	for _, c := range []struct {
		ids     []string
		members int
		bad     bool
	}{
		{nil, 0, false},
		{[]string{"a"}, 1, false},
		{[]string{"a", "b"}, 2, false},
		{[]string{"a", "b"}, 5, false},
		{[]string{"a", "a"}, 2, true},
		{[]string{"a", "b", "a"}, 5, true},
		{[]string{"a", ""}, 5, true},
		{[]string{"a", " "}, 5, true},
		{[]string{"a", "b", "c"}, 2, true},
		{[]string{"a"}, 0, true},
	} {
		var v Validation
		if CheckSharers(&v, "split_among", c.ids); v.Err() == nil {
			SharersFit(&v, "split_among", len(c.ids), c.members)
		}
		err := v.Err()
		if (err != nil) != c.bad {
			t.Errorf("%q among %d members: %v", c.ids, c.members, err)
		}
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Code != CodeInvalidRequest || len(e.Fields) != 1 || e.Fields[0].Field != "split_among" {
				t.Errorf("%q among %d members: %#v, want INVALID_REQUEST on split_among", c.ids, c.members, err)
			}
		}
	}
}
