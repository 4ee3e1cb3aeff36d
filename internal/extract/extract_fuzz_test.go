package extract

import (
	"flag"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzAnalyze gives Analyze and Text any content type and bytes. Neither panics, and, while
// fuzzing (`make fuzz`), both finish within a budget linear in the input (Analyze reads about a
// megabyte a second; the budget allows ten times as long, plus a second) — in `make test` the
// seeds skip that wall-clock check, which a busy machine could fail; BenchmarkAnalyzeNestedBold
// keeps the case that once took quadratic time measured. Whatever Analyze reads is stored and
// searched in PostgreSQL, so every text it returns is valid UTF-8 without NUL; its summary
// is at most 300 characters; and its candidates are bounded by the limits and by the input:
// at most 600 (400 of them guesses) and one per input byte, each a tidy, unique name of at
// most 80 characters and of no more characters than the input has bytes.
func FuzzAnalyze(f *testing.F) {
	f.Add("text/html", []byte(`<h2>1. Gwangjang Market</h2><script type="application/ld+json">{"@type":"Place","name":"X"}</script>`))
	f.Add("text/plain", []byte("1. Tongin Market\nhttps://www.google.com/maps/place/A/@1,2,3z"))
	f.Add("text/html", []byte(`<div itemscope itemtype="https://schema.org/Place"><span itemprop="name">경복궁</span></div>`))
	f.Add("text/html; charset=euc-kr", []byte{'<', 'h', '2', '>', 0xB1, 0xA4, 0xC0, 0xE5, 0xBD, 0xC3, 0xC0, 0xE5})
	f.Add("", []byte("\xef\xbb\xbf<title>Kyoto</title><ul><li>Kinkaku-ji</li><li>Nishiki Market</li></ul>"))
	f.Add("text/html", []byte(`<meta property="og:type" content="video.other"><meta name="description" content="1. Ichiran Shibuya&#10;2. Fuunji">`))
	f.Add("text/html", []byte(`<a href="https://map.kakao.com/?q=%EA%B2%BD%EB%B3%B5%EA%B6%81">a</a><a href="https://www.openstreetmap.org/?mlat=37.5&mlon=127">b</a><a href="https://maps.apple.com/?q=Tower&ll=1,2">c</a>`))
	f.Add("text/html", []byte(`<script type="application/ld+json">{"@graph":[{"@type":["Restaurant"],"name":{"@value":"A\u0000B"},"geo":{"latitude":"1e999","longitude":-500}}]}</script>`))
	f.Add("text/plain; charset=utf-16le", []byte{'1', 0, '.', 0, ' ', 0, 'A', 0, 'b', 0, '\n', 0})
	f.Add("text/plain", []byte("Gyeongbokgung\x00Palace\n\xff\xfeBukchon Hanok Village\n#서울여행 #경복궁"))
	f.Add("text/html", []byte(strings.Repeat("<b>Aa Bb ", 150)))
	f.Add("application/pdf", []byte("%PDF-1.7"))
	f.Add("text/html", []byte(`<script>var ytInitialPlayerResponse = {"videoDetails":{"title":"A","shortDescription":"1. Tongin Market\n2. \u0000"}};var ytInitialData = {"x":[{"chapterRenderer":{"title":{"runs":[{"text":"B"}]}}}]};</script>`))
	f.Add("text/html", []byte(`<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"body":"<h2>Gwangjang Market</h2><b><b>","spots":[{"name":"X","lat":"1e400","lng":1}]}}}</script>`))
	f.Add("text/html", []byte(`<script id="__NUXT_DATA__">[{"a":1},["Reactive",0],[-1,2.5,99],"Kiyomizu-dera"]</script><script>window.__NUXT__={"s":"'}"}</script>`))
	f.Add("text/html", []byte(`<script>window.APP_INITIALIZATION_STATE=[[null,"Gyeongbokgung Palace",[null,null,37.57,126.97]],")]}'\n[[\"N Seoul Tower\",[37.55,126.98]]]"];</script>`))
	f.Add("text/html", []byte("<script>"+strings.Repeat("ytInitialData=[", 300)+"</script>"))
	f.Add("text/html", []byte(`<iframe id="mainFrame" src="/PostView.naver?blogId=a&logNo=1"></iframe><iframe src="javascript:alert(1)"></iframe>`))
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		p := Page{URL: "https://example.com/", ContentType: contentType, Body: body}
		start := time.Now()
		a, err := Analyze(p)
		Text(p)
		if took, budget := time.Since(start), time.Second+time.Duration(len(body))*10*time.Microsecond; fuzzing() && took > budget {
			t.Fatalf("%d bytes took %v, over the budget of %v", len(body), took, budget)
		}
		if err != nil {
			return
		}
		for _, s := range append([]string{a.MediaType, a.Title, a.Author, a.Summary, a.City}, a.Cities...) {
			checkStorable(t, "analysis", s)
		}
		if utf8.RuneCountInString(a.Summary) > summaryRunes {
			t.Fatalf("summary of %d characters", utf8.RuneCountInString(a.Summary))
		}
		if len(a.Candidates) > maxCandidates || len(a.Candidates) > len(body) {
			t.Fatalf("%d candidates from %d bytes", len(a.Candidates), len(body))
		}
		seen, guesses := map[string]bool{}, 0
		for _, c := range a.Candidates {
			for _, s := range []string{c.Name, c.Address, c.Latitude, c.Longitude} {
				checkStorable(t, "candidate", s)
			}
			n := utf8.RuneCountInString(c.Name)
			key := strings.Join(normWords(c.Name), " ")
			if n == 0 || n > maxNameRunes || n > len(body) || c.Name != strings.TrimSpace(c.Name) || seen[key] {
				t.Fatalf("candidate %q: %d characters from %d bytes (repeat: %v)", c.Name, n, len(body), seen[key])
			}
			seen[key] = true
			if c.Guess {
				guesses++
			}
		}
		if guesses > maxGuesses {
			t.Fatalf("%d guesses", guesses)
		}
	})
}

// FuzzLiteral gives the script data scanner any text: literal never panics, and what it finds
// is a prefix of its input, at most maxLiteral bytes, that starts with a bracket and ends with
// a closing one; readEmbedded, which decodes what literal finds, never panics on it either.
func FuzzLiteral(f *testing.F) {
	f.Add(`{"a":"}"}`)
	f.Add(`[1,'\'',"\"]"]`)
	f.Add(`{{{{`)
	f.Add(`var ytInitialData = {"a":[{"chapterRenderer":{"title":{"simpleText":"x"}}}]};`)
	f.Add(`window.APP_INITIALIZATION_STATE=[[")]}'\n[[\"A b\",[1.5,2.5]]]"]]`)
	f.Fuzz(func(t *testing.T, s string) {
		if lit, ok := literal(s); ok {
			if !strings.HasPrefix(s, lit) || len(lit) > maxLiteral || !strings.ContainsAny(lit[:1], "{[") || !strings.ContainsAny(lit[len(lit)-1:], "}]") {
				t.Fatalf("literal(%q) = %q", s, lit)
			}
		}
		readEmbedded([]script{{text: s}, {id: "__NEXT_DATA__", text: s}, {id: "__NUXT_DATA__", text: s}})
	})
}

// checkStorable fails the test unless s is valid UTF-8 without NUL, which PostgreSQL's text
// and jsonb cannot hold.
func checkStorable(t *testing.T, what, s string) {
	t.Helper()
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		t.Fatalf("%s text %q is not valid UTF-8 without NUL", what, s)
	}
}

// fuzzing tells whether the test binary is fuzzing (go test -fuzz) rather than running seeds.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

// BenchmarkAnalyzeNestedBold analyses the page shape that once took quadratic time (39 KB of
// unclosed bold took 2 s): linear now, about as fast per byte as an ordinary page.
func BenchmarkAnalyzeNestedBold(b *testing.B) {
	for _, ct := range []string{"text/html", "text/plain"} {
		// As text, the page is one sentence of 36 kB naming "Aa Bb" 4,000 times: its mentions
		// once took a minute (each read the whole sentence), now a bounded number of windows.
		b.Run(ct, func(b *testing.B) {
			p := Page{URL: "https://example.com/", ContentType: ct, Body: []byte(strings.Repeat("<b>Aa Bb ", 4000))}
			b.SetBytes(int64(len(p.Body)))
			for b.Loop() {
				if _, err := Analyze(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
