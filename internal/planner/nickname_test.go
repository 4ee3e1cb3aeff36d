package planner

import "testing"

func TestNicknameFrom(t *testing.T) {
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"Mina Kim"}, "MinaKim"},
		{[]string{"김지민"}, "김지민"},
		{[]string{"Alexandra-Christina"}, "AlexandraC"},
		{[]string{"😀 x", "j.doe"}, "jdoe"},
		{[]string{"", "  ", "!!"}, DefaultNickname},
		{nil, DefaultNickname},
		{[]string{"たろう123456789"}, "たろう1234567"},
	}
	for _, tc := range cases {
		got := NicknameFrom(tc.in...)
		if got != tc.want || !ValidNickname(got) {
			t.Errorf("NicknameFrom(%q) = %q, want %q (valid)", tc.in, got, tc.want)
		}
	}
}

func TestNumberedNickname(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		want string
	}{
		{"Mina", 2, "Mina2"},
		{"Traveler", 10, "Traveler10"},
		{"Traveler", 100, "Travele100"},
		{"Wanderlust", 12, "Wanderlu12"},
		{"지민", 3, "지민3"},
	}
	for _, tc := range cases {
		got := NumberedNickname(tc.in, tc.n)
		if got != tc.want || !ValidNickname(got) {
			t.Errorf("NumberedNickname(%q, %d) = %q, want %q (valid)", tc.in, tc.n, got, tc.want)
		}
	}
}
