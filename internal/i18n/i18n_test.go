package i18n

import (
	"context"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// catalogue is the message ids of a catalogue file, nested tables joined by dots as go-i18n
// reads them.
func catalogue(t *testing.T, name string) map[string]bool {
	t.Helper()
	data, err := fs.ReadFile(files, "locales/"+name)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			sub, ok := v.(map[string]any)
			if !ok {
				ids[prefix[:len(prefix)-1]] = true
				continue
			}
			walk(prefix+k+".", sub)
		}
	}
	walk("", raw)
	return ids
}

// TestCataloguesHaveTheSameMessages checks that each area's Korean and English files hold the
// same ids, that no id is in two areas, and that every id reads as a message of its own.
func TestCataloguesHaveTheSameMessages(t *testing.T) {
	names, err := fs.Glob(files, "locales/*.toml")
	if err != nil {
		t.Fatal(err)
	}
	areaOf := map[string]string{} // id → area
	for _, name := range names {
		area, ok := strings.CutSuffix(path.Base(name), ".en.toml")
		if !ok {
			// The problems' Korean has no English twin: their English lives in the code
			// (TestProblemsAreTranslated keeps the two in step).
			if ko, isKo := strings.CutSuffix(name, ".ko.toml"); !isKo {
				t.Errorf("%s: a catalogue is named <area>.en.toml or <area>.ko.toml", name)
			} else if name != problemsFile && !slices.Contains(names, ko+".en.toml") {
				t.Errorf("%s has no %s.en.toml", name, path.Base(ko))
			}
			continue
		}
		en, ko := catalogue(t, area+".en.toml"), catalogue(t, area+".ko.toml")
		if len(en) == 0 {
			t.Errorf("%s.en.toml is empty", area)
		}
		for id := range en {
			if !ko[id] {
				t.Errorf("%s is in %s.en.toml but not in %s.ko.toml", id, area, area)
			}
			if other, dup := areaOf[id]; dup {
				t.Errorf("%s is in both %s and %s", id, other, area)
			}
			areaOf[id] = area
		}
		for id := range ko {
			if !en[id] {
				t.Errorf("%s is in %s.ko.toml but not in %s.en.toml", id, area, area)
			}
		}
	}
	if len(areaOf) == 0 {
		t.Fatal("no English catalogue")
	}
	// Every id answers a message of its own, not the id (which T answers when it is unknown).
	for _, id := range slices.Sorted(maps.Keys(areaOf)) {
		for _, l := range Langs {
			if got := For(l).T(id, "Count", 2); got == id {
				t.Errorf("%s: %s is not read from the catalogue", l, id)
			}
		}
	}
}

func TestChoose(t *testing.T) {
	for _, c := range []struct {
		setting, cookie, accept string
		want                    Lang
	}{
		{"", "", "", English},
		{"", "", "ko-KR,ko;q=0.9,en;q=0.8", Korean},
		{"", "", "en-US,ko;q=0.5", English},
		{"", "", "fr-FR,ko;q=0.5", Korean},
		{"", "", "fr-FR", English},
		{"", "", ";;;garbage", English},
		{"", "ko", "en", Korean},
		{"en", "ko", "ko", English},
		{"KO", "", "en", Korean},
		{"de", "xx", "ko", Korean},
	} {
		if got := Choose(c.setting, c.cookie, c.accept); got != c.want {
			t.Errorf("Choose(%q, %q, %q) = %s, want %s", c.setting, c.cookie, c.accept, got, c.want)
		}
	}
}

func TestKoreanParticles(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Word("경복궁").Eul(), "경복궁을"},
		{Word("카페").Eul(), "카페를"},
		{Word("광장시장").I(), "광장시장이"},
		{Word("민지").I(), "민지가"},
		{Word("서울").Eun(), "서울은"},
		{Word("부산").Gwa(), "부산과"},
		{Word("제주도").Gwa(), "제주도와"},
		{Word("서울").Euro(), "서울로"},
		{Word("부산").Euro(), "부산으로"},
		{Word("제주").Euro(), "제주로"},
		{Word("3일").Eun(), "3일은"},
		{Word("Day 2").Eul(), "Day 2를"},
		{Word("Day 3").Eul(), "Day 3을"},
		{Word("Day 7").Euro(), "Day 7로"},
		{Word("“남산”").I(), "“남산”이"},
		{Word("Café").Eul(), "Café을(를)"},
		{Word("Café").Euro(), "Café(으)로"},
		{Word("").I(), "이(가)"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

func TestFormats(t *testing.T) {
	en, ko := For(English), For(Korean)
	day := time.Date(2026, 11, 27, 14, 0, 0, 0, time.UTC)
	now := day.Add(3 * time.Minute)
	for _, c := range []struct{ got, want string }{
		{ko.Date(day), "11월 27일 (금)"},
		{en.Date(day), "Fri 27 Nov"},
		{ko.DateYear(day), "2026년 11월 27일 (금)"},
		{en.DateYear(day), "Fri 27 Nov 2026"},
		{ko.Clock("14:00"), "오후 2:00"},
		{ko.Clock("09:30"), "오전 9:30"},
		{ko.Clock("00:15"), "오전 12:15"},
		{en.Clock("14:00"), "2:00 PM"},
		{en.Clock("12:00"), "12:00 PM"},
		{en.Clock("24:00"), "24:00"},
		{ko.Ago(day, now), "3분 전"},
		{en.Ago(day, now), "3 minutes ago"},
		{en.Ago(day, day.Add(time.Minute)), "1 minute ago"},
		{ko.Ago(day, day.Add(10*time.Second)), "방금"},
		{en.Ago(day, day.Add(2*time.Hour)), "2 hours ago"},
		{ko.Ago(day, day.Add(30*time.Hour)), "어제"},
		{en.Ago(day, day.Add(80*time.Hour)), "3 days ago"},
		{ko.Ago(day, day.Add(10*24*time.Hour)), "11월 27일 (금)"},
		{en.Number(1234567), "1,234,567"},
		{ko.Number(12500), "12,500"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

func TestMoney(t *testing.T) {
	for _, c := range []struct {
		lang   Lang
		amount int64
		code   string
		want   string
	}{
		{English, 12000, "KRW", "₩12,000"},
		{Korean, 12000, "KRW", "12,000원"},
		{English, 1234567, "KRW", "₩1,234,567"},
		{Korean, 0, "KRW", "0원"},
		{Korean, -3500, "KRW", "−3,500원"},
		{English, -3500, "KRW", "−₩3,500"},
		{English, 1200, "USD", "$12.00"},
		{Korean, 1250, "USD", "US$12.50"},
		{English, 125000, "USD", "$1,250.00"},
		{English, -5, "USD", "−$0.05"},
		{English, 1200, "JPY", "¥1,200"},
		{Korean, 1200, "JPY", "JP¥1,200"},
		{English, 150000, "EUR", "€1,500.00"},
		{Korean, 150001, "EUR", "€1,500.01"},
		{English, 1234567, "KWD", "KWD\u00a01,234.567"},
		{English, 30000, "THB", "THB\u00a0300.00"},
		{Korean, 300, "ZZZ", "300 ZZZ"},
	} {
		if got := For(c.lang).Money(c.amount, c.code); got != c.want {
			t.Errorf("%s Money(%d, %s) = %q, want %q", c.lang, c.amount, c.code, got, c.want)
		}
	}
}

func TestContext(t *testing.T) {
	ctx := context.Background()
	if From(ctx).Lang() != English {
		t.Fatal("a context without a localizer speaks English")
	}
	if got := T(With(ctx, For(Korean)), "time.just_now"); got != "방금" {
		t.Fatalf("T in a Korean context: %q", got)
	}
	asked := 0
	lazy := WithChooser(ctx, func() Lang { asked++; return Korean })
	if asked != 0 || T(lazy, "time.just_now") != "방금" || From(lazy).Lang() != Korean || asked != 1 {
		t.Fatalf("a chooser is asked once, when first needed: asked %d times", asked)
	}
	if got := For(Korean).T("no.such.message"); got != "no.such.message" {
		t.Fatalf("unknown id: %q", got)
	}
}

func TestScriptMessages(t *testing.T) {
	ko := For(Korean).Script()
	if ko["js.copied"] != "복사했어요" || For(English).Script()["js.copied"] != "Copied" {
		t.Fatalf("script messages: %v", ko)
	}
	for id := range ko {
		if !strings.HasPrefix(id, ScriptPrefix) {
			t.Errorf("%s is not a script message", id)
		}
	}
}
