package planner

import "testing"

func TestMaskEmail(t *testing.T) {
	cases := map[string]string{
		"test@gmail.com":      "te***@g****.com",
		"a@b.co":              "a***@b.co",
		"지민@naver.com":        "지민***@n****.com",
		"x@localhost":         "x***@l********",
		"not-an-email":        "",
		"@gmail.com":          "",
		"first.last@mail.org": "fi***@m***.org",
	}
	for in, want := range cases {
		if got := MaskEmail(in); got != want {
			t.Errorf("MaskEmail(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidNickname(t *testing.T) {
	valid := []string{"Ana", "지민", "たろう", "ab", "abcdefghij", "Ben2"}
	invalid := []string{"", "a", "abcdefghijk", "has space", "emoji😀", "<script>", "a_b"}
	for _, s := range valid {
		if !ValidNickname(s) {
			t.Errorf("ValidNickname(%q) = false", s)
		}
	}
	for _, s := range invalid {
		if ValidNickname(s) {
			t.Errorf("ValidNickname(%q) = true", s)
		}
	}
}

func TestIDs(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewID()
		if !ValidID(id) || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
	for _, bad := range []string{"", "short", "123456789012345678901!", "12345678901234567890/", "../../../../etc/passwd"} {
		if ValidID(bad) {
			t.Errorf("ValidID(%q) = true", bad)
		}
	}
}
