package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// Category names, opinion tag labels and place names in the reader's language (docs/API.md
// §Languages, issue 19): the same answers in Korean and in English, chosen by Accept-Language or by a
// signed-in user's setting; ids never change.

// categoriesIn are the category objects (those with a level2) anywhere in a JSON answer.
func categoriesIn(v any) []map[string]any {
	var out []map[string]any
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["level2"].(map[string]any); ok {
			out = append(out, v)
		}
		for _, x := range v {
			out = append(out, categoriesIn(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, categoriesIn(x)...)
		}
	}
	return out
}

func inHangul(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Hangul, r) }) >= 0
}

func TestCategoryNamesAndTagLabelsInTheReadersLanguage(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan, col := "/plans/"+f.plan.PlanID, "/collections/"+f.collection
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	// Mina reads in Korean by her setting, whatever her browser asks for; Ned in English.
	mina, ned := a.member("names-mina", "Mina"), a.member("names-ned", "Ned")
	for token, lang := range map[string]string{mina: "ko", ned: "en"} {
		if res := a.do(req{Method: "PUT", Path: "/users/me", Token: token, Body: map[string]any{"language": lang}}); res.Status != http.StatusOK {
			t.Fatalf("language %s: %d %s", lang, res.Status, res.Body)
		}
	}
	for _, id := range []string{"names-mina", "names-ned"} {
		a.joinPlan(f.plan.PlanID, id)
		a.joinCollection(f.collection, id)
	}

	// The level-2 names of the fixture's places, as the first clients key on them.
	level2 := map[string]map[string]string{
		"ko": {"301000": "관광명소", "101000": "식당", "307000": "관람"},
		"en": {"301000": "Attraction", "101000": "Restaurant", "307000": "Viewing"},
	}
	palace := map[string][3]string{"ko": {"관광", "관광명소", "궁궐"}, "en": {"Sightseeing", "Attraction", "Palace"}}
	paths := []string{
		"/places/search?query=" + url.QueryEscape("경복궁"),
		col + "/places?size=20",
		col + "/places/" + f.places[0].CollectionPlaceID,
		f.blocks + "?day=1",
		f.blocks + "/" + tb.TimeBlockID + "/candidates",
		plan + "/expenses?day=1",
		plan + "/export.json",
	}
	readers := []struct {
		name, token, header, want string
	}{
		{"Ben, Korean browser", f.ben, koreanBrowser, "ko"},
		{"Ben, no Accept-Language", f.ben, "", "en"},
		{"Ben, English browser", f.ben, "en-US,en;q=0.9", "en"},
		{"Mina (ko setting), English browser", mina, "en-US,en;q=0.9", "ko"},
		{"Ned (en setting), Korean browser", ned, koreanBrowser, "en"},
	}
	for _, r := range readers {
		header := map[string]string{"Accept": "application/json"}
		if r.header != "" {
			header["Accept-Language"] = r.header
		}
		for _, path := range paths {
			res := a.do(req{Method: "GET", Path: path, Token: r.token, Header: header})
			var body any
			if res.Status != http.StatusOK || json.Unmarshal(res.Body, &body) != nil {
				t.Fatalf("%s: GET %s: %d %s", r.name, path, res.Status, res.Body)
			}
			if got := res.Header.Get("Content-Language"); got != r.want {
				t.Errorf("%s: GET %s: Content-Language %q, want %q", r.name, path, got, r.want)
			}
			cats, sawPalace := categoriesIn(body), false
			if len(cats) == 0 {
				t.Errorf("%s: GET %s has no categories: %s", r.name, path, res.Body)
			}
			for _, c := range cats {
				l1, l2, l3 := c["level1"].(map[string]any), c["level2"].(map[string]any), c["level3"].(map[string]any)
				id, name := l2["category_id"].(string), l2["name"].(string)
				if want, fixed := level2[r.want][id]; fixed && name != want || inHangul(name) != (r.want == "ko") {
					t.Errorf("%s: GET %s: level 2 %s is %q, want it in %s", r.name, path, id, name, r.want)
				}
				if l3["category_id"] == "301003" {
					sawPalace = true
					if got := [3]string{l1["name"].(string), name, l3["name"].(string)}; got != palace[r.want] || l1["category_id"] != "300000" || id != "301000" {
						t.Errorf("%s: GET %s: the palace is %v (%s, %s), want %v", r.name, path, got, l1["category_id"], id, palace[r.want])
					}
				}
			}
			if !sawPalace {
				t.Errorf("%s: GET %s does not show the palace", r.name, path)
			}
		}

		// Opinion tags: labels in the reader's language, ids as they are.
		res := a.do(req{Method: "GET", Path: "/opinion-tags?category_id=301000", Token: r.token, Header: header})
		labels := map[string]string{}
		for _, tag := range decodeTags(t, res) {
			labels[tag.TagID] = tag.Label
			if inHangul(tag.Label) != (r.want == "ko") {
				t.Errorf("%s: tag %s is labelled %q, want %s", r.name, tag.TagID, tag.Label, r.want)
			}
		}
		want := map[string]string{"ko": "꼭 가 봐야 해요", "en": "Must-see"}[r.want]
		if labels["must_see"] != want || res.Header.Get("Content-Language") != r.want {
			t.Errorf("%s: must_see is %q (Content-Language %q), want %q", r.name, labels["must_see"], res.Header.Get("Content-Language"), want)
		}
	}
}

// A Korean reader sees a place's Korean name with the English one under it, an English reader
// the other way round: on the collection, the place's page, search results, the day, the
// candidate picker and the place picker. Search finds a place by either name.
func TestPlaceNamesInTheReadersLanguage(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan, col := "/plans/"+f.plan.PlanID, "/collections/"+f.collection
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "12:00")))
	pending := decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "13:00", "14:00")))
	decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + pending.TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[2].CollectionPlaceID}}}))
	ana := a.signedInBrowser(t, "pf-ana", "Ana")

	// Either name finds the palace, and the JSON name stays the catalog's (the Place of docs/API.md §Time blocks).
	for _, q := range []string{"경복궁", "Gyeongbokgung", "gyeongbokgung palace"} {
		if found := a.search(f.ana, q); len(found) == 0 || found[0].Name != "Gyeongbokgung Palace" {
			t.Errorf("search %q: %+v", q, found)
		}
	}

	// subtitled finds a name as an element's text with the subtitle's element right after it
	// (a few tags between at most).
	subtitled := func(name, subtitle string) *regexp.Regexp {
		return regexp.MustCompile(`>\s*` + regexp.QuoteMeta(name) + `\s*(?:<[^>]*>\s*){0,3}<[^>]*data-subtitle>` + regexp.QuoteMeta(subtitle) + "<")
	}
	for _, c := range []struct{ lang, name, subtitle, market, marketSub string }{
		{koreanBrowser, "경복궁", "Gyeongbokgung Palace", "광장시장", "Gwangjang Market"},
		{"", "Gyeongbokgung Palace", "경복궁", "Gwangjang Market", "광장시장"},
	} {
		pages := map[string]string{
			"collection":       a.answerIn(t, ana, false, "GET", col, "", c.lang, http.StatusOK),
			"place page":       a.answerIn(t, ana, false, "GET", col+"/places/"+f.places[0].CollectionPlaceID, "", c.lang, http.StatusOK),
			"search results":   a.answerIn(t, ana, true, "GET", "/places/search?collection_id="+f.collection+"&query="+url.QueryEscape(c.name), "", c.lang, http.StatusOK),
			"day":              a.answerIn(t, ana, true, "GET", f.blocks+"?size=100&day=1", "", c.lang, http.StatusOK),
			"plan page":        a.answerIn(t, ana, false, "GET", plan, "", c.lang, http.StatusOK),
			"candidate picker": a.answerIn(t, ana, true, "GET", f.blocks+"/"+pending.TimeBlockID+"/candidates", "", c.lang, http.StatusOK),
			"place picker":     a.answerIn(t, ana, true, "GET", plan+"/place-choices?query="+url.QueryEscape(c.name), "", c.lang, http.StatusOK),
		}
		for what, page := range pages {
			if what == "candidate picker" {
				if !subtitled(c.market, c.marketSub).MatchString(page) {
					t.Errorf("%s (%q) does not show %s over %s", what, c.lang, c.market, c.marketSub)
				}
				continue
			}
			if !subtitled(c.name, c.subtitle).MatchString(page) {
				t.Errorf("%s (%q) does not show %s over %s", what, c.lang, c.name, c.subtitle)
			}
		}
		// The place picker offers the collection's palace (not a search result) by either name.
		if !strings.Contains(pages["place picker"], `data-collection-place-id="`+f.places[0].CollectionPlaceID+`"`) {
			t.Errorf("the place picker (%q) does not offer the collection's palace for %q", c.lang, c.name)
		}
		// A block of two candidates is named by both, without a subtitle.
		if want := map[string]string{koreanBrowser: "광장시장 또는 N서울타워", "": "Gwangjang Market or N Seoul Tower"}[c.lang]; !strings.Contains(pages["day"], want) {
			t.Errorf("the day (%q) does not name the pending block %q", c.lang, want)
		}
	}
}

// Histories and notifications name places as the reader sees them, from the names kept with
// the facts when it happened (경복궁을, 광장시장으로, N서울타워를 in Korean), and the target
// names too; in English as before.
func TestActivityNamesPlacesInTheReadersLanguage(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan, col := "/plans/"+f.plan.PlanID, "/collections/"+f.collection
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 2, "11:00", "12:00")))
	both := decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	a.mustDo(t, req{Method: "PATCH", Path: f.blocks + "/" + tb.TimeBlockID + "/selection", Token: f.ana,
		Body: map[string]any{"block_id": both.Candidates[1].BlockID}}, http.StatusOK)
	a.mustDo(t, req{Method: "POST", Path: plan + "/blocks/" + tb.Candidates[0].BlockID + "/opinions", Token: f.ben,
		Body: map[string]any{"type": "POSITIVE"}}, http.StatusCreated)
	a.mustDo(t, req{Method: "DELETE", Path: col + "/places/" + f.places[2].CollectionPlaceID, Token: f.ben}, http.StatusNoContent)

	// read is a JSON page of entries as a reader of the language sees it, in that language.
	read := func(token, path, accept, lang string, into any) {
		t.Helper()
		res := a.mustDo(t, req{Method: "GET", Path: path, Token: token, Header: map[string]string{"Accept-Language": accept}}, http.StatusOK)
		if res.Header.Get("Content-Language") != lang {
			t.Errorf("GET %s: Content-Language %q, want %q", path, res.Header.Get("Content-Language"), lang)
		}
		if err := json.Unmarshal(res.Body, into); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		accept, lang string
		notices      map[string]string // event type: message, to Ana or Ben
		plan, places map[string]string // kind: summary · target name
	}{
		{koreanBrowser, "ko", map[string]string{
			"BLOCK_ADDED":         "Ana이(가) Seoul trip 2일차 오전 11:00에 경복궁을 추가했어요",
			"CANDIDATE_ADDED":     "Ben이(가) Seoul trip 2일차 오전 11:00 후보로 광장시장을 제안했어요",
			"CANDIDATE_CONFIRMED": "Ana이(가) Seoul trip 2일차 오전 11:00 일정을 회원님이 제안한 광장시장으로 확정했어요",
			"OPINION_ADDED":       "Ben은(는) 회원님이 Seoul trip 2일차 오전 11:00에 제안한 경복궁이 좋대요",
			"PLACE_REMOVED":       "Ben이(가) Seoul에서 N서울타워를 뺐어요",
		}, map[string]string{
			"BLOCK_ADDED":         "Ana이(가) 2일차 오전 11:00에 경복궁을 추가했어요 · 경복궁",
			"CANDIDATE_ADDED":     "Ben이(가) 2일차 오전 11:00 후보로 광장시장을 추가했어요 · 광장시장",
			"CANDIDATE_CONFIRMED": "Ana이(가) 2일차 오전 11:00 일정을 광장시장으로 확정했어요 · 광장시장",
			"OPINION_ADDED":       "Ben은(는) 경복궁이 좋대요 · 경복궁",
		}, map[string]string{
			"PLACE_REMOVED": "Ben이(가) 컬렉션에서 N서울타워를 뺐어요 · N서울타워",
		}},
		{"", "en", map[string]string{
			"BLOCK_ADDED":         "Ana added Gyeongbokgung Palace to Day 2, 11:00 in Seoul trip",
			"CANDIDATE_CONFIRMED": "Ana confirmed Gwangjang Market, which you proposed, for Day 2, 11:00 in Seoul trip",
			"OPINION_ADDED":       "Ben likes Gyeongbokgung Palace, which you proposed for Day 2, 11:00 in Seoul trip",
			"PLACE_REMOVED":       "Ben removed N Seoul Tower from Seoul",
		}, map[string]string{
			"BLOCK_ADDED":   "Ana added Gyeongbokgung Palace to Day 2, 11:00 · Gyeongbokgung Palace",
			"OPINION_ADDED": "Ben likes Gyeongbokgung Palace · Gyeongbokgung Palace",
		}, map[string]string{
			"PLACE_REMOVED": "Ben removed N Seoul Tower from the collection · N Seoul Tower",
		}},
	} {
		got := map[string]string{}
		for _, token := range []string{f.ana, f.ben} {
			var notes pageJSON[notificationJSON]
			read(token, "/notifications?size=100", c.accept, c.lang, &notes)
			for _, n := range notes.Contents {
				got[n.EventType] = n.Message
			}
		}
		for kind, want := range c.notices {
			if got[kind] != want {
				t.Errorf("%s notification %s: %q, want %q", c.lang, kind, got[kind], want)
			}
		}
		for path, wants := range map[string]map[string]string{plan + "/activity?size=100": c.plan, col + "/activity?size=100": c.places} {
			var hist pageJSON[activityJSON[json.RawMessage]]
			read(f.ana, path, c.accept, c.lang, &hist)
			got := map[string]string{}
			for _, e := range hist.Contents {
				got[e.Kind] = e.Summary + " · " + e.Target.Name
			}
			for kind, want := range wants {
				if got[kind] != want {
					t.Errorf("%s %s %s: %q, want %q", c.lang, path, kind, got[kind], want)
				}
			}
		}
	}
}
