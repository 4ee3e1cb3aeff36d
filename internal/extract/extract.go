// Package extract finds the places a web page talks about: Analyze reads a fetched page
// (HTML or plain text) into its kind, metadata and candidate place names, offline and with
// no API key; Resolve turns the candidates into real places through a place search; LLM
// optionally proposes more names through an OpenAI-compatible chat completions API.
package extract

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
)

// Page is a fetched page to analyse.
type Page struct {
	URL         string
	ContentType string // "text/html", "text/plain", ... (a charset parameter is honoured)
	Body        []byte
	// Frames are the pages of frames the page's analysis asked for (Analysis.Frames), fetched
	// by the caller: their content is read as the page's.
	Frames []Page
}

// Analysis is what a page says: its kind and metadata, and the places it mentions.
type Analysis struct {
	MediaType string // BLOG, VIDEO, MAP or WEB (upper-case, as stored in social_media.media_type)
	Title     string
	Author    string
	Summary   string // a short description (og:description / meta description / first paragraph), at most 300 characters
	City      string // the city the page is about, when it can tell (from addresses, title, text), for search context
	// Cities are all the cities the page names, the most mentioned first (City is the first).
	Cities     []string
	Candidates []Candidate
	// Frames are the addresses of same-site frames that seem to carry the content of a page
	// that has little text of its own (a Naver blog post's mainFrame): the caller may fetch
	// them, with the same care as the page, and analyse the page again with them in
	// Page.Frames. Main frames (by their id) come first; frames already given are not asked
	// for again; at most maxFrames.
	Frames []string
}

// Candidate is one place the page mentions.
type Candidate struct {
	Name      string
	Address   string
	Latitude  string // decimal degrees as text, "" when unknown
	Longitude string
	// Guess marks a name-like phrase picked out of running text rather than read from the
	// page's structure (structured data, a map link, the title, a heading, a list item, a
	// numbered line, bold text, a video's description). Resolve keeps a guess only when it
	// names a place exactly, in one of the page's cities.
	Guess bool
	// Mention is why the page names the place (MentionVisited, MentionSkipped…, see
	// mentionOf), Quote the sentence it is named in, at most 160 characters ("" for a name
	// read from structured data). A name found several times keeps its strongest mention.
	Mention string
	Quote   string
}

// Media types of an Analysis.
const (
	MediaBlog  = "BLOG"
	MediaVideo = "VIDEO"
	MediaMap   = "MAP"
	MediaWeb   = "WEB"
)

// ErrUnsupported is Analyze's error for content that is neither HTML nor text (a PDF, an
// image, JSON…): the caller reports the link as unsupported.
var ErrUnsupported = errors.New("extract: the page is neither HTML nor text")

// summaryRunes is the longest Summary.
const summaryRunes = 300

// Analyze reads schema.org JSON-LD and microdata (Place, LocalBusiness, Restaurant,
// CafeOrCoffeeShop, TouristAttraction, LodgingBusiness, Museum, Park, ... with name,
// address, geo; also inside @graph and ItemList), map links (Google Maps place and search
// URLs, Apple, Kakao and OpenStreetMap links), Open Graph and meta tags, the title, headings,
// list items, bold text and numbered lines ("1. Gwangjang Market", "2) ..."), and for video
// pages (og:type video.*, YouTube/Vimeo/TikTok hosts, or schema.org VideoObject) the title and
// description lines. Script data is read too (see readEmbedded): a YouTube video's description
// and chapters, a Next.js or Nuxt page's content, a Google Maps list's places; so are the
// places of a Naver post's place cards (a link's data-linkdata: name, address, position).
// Capitalised phrases, Korean words and Japanese kanji/katakana runs of running text become
// guesses (Candidate.Guess). Candidates come in page order, deduplicated case-insensitively, without
// obvious non-place headings ("Introduction", "Tips", "How to get there", "Related posts" and
// its section) and without the side matter outside the main content, which is found by
// scoring (see measure): navigation, lists of links, comments under an article.
//
// A page with little text of its own asks for its same-site frames (Analysis.Frames); given
// them in Page.Frames, Analyze reads them as part of the page.
//
// HTML (text/html, application/xhtml+xml) and text (text/*: lines, numbered and bulleted
// lines, map URLs) are read; an empty content type is sniffed. Any other content type is
// ErrUnsupported, the only error Analyze returns. The media type is MAP for a map service's
// address or a page that is mostly a list of (at least three) map links, VIDEO for a video
// page, BLOG for an article (og:type article, schema.org Article/BlogPosting, or a blog host),
// WEB otherwise (and for text).
func Analyze(p Page) (*Analysis, error) {
	switch kindOf(p) {
	case "html":
		return analyzeHTML(p), nil
	case "text":
		return analyzeText(p), nil
	}
	return nil, ErrUnsupported
}

// kindOf says whether a page is "html", "text" or neither ("").
func kindOf(p Page) string {
	ct := p.ContentType
	if strings.TrimSpace(ct) == "" {
		ct = http.DetectContentType(p.Body)
	}
	mt, _, err := mime.ParseMediaType(ct)
	switch {
	case err != nil:
		return ""
	case mt == "text/html" || mt == "application/xhtml+xml":
		return "html"
	case strings.HasPrefix(mt, "text/"):
		return "text"
	}
	return ""
}

// Text returns a page's readable text, for a language model: the title, the description, the
// text of its script data (a video's description and chapters, an app's article) and the
// content's headings, list items and paragraphs (its frames' too), one per line, navigation
// and side matter left out. It is empty for content Analyze does not read.
func Text(p Page) string {
	switch kindOf(p) {
	case "html":
		d, _ := pageDoc(p)
		lines := []string{firstNonEmpty(d.meta["og:title"], d.title), firstNonEmpty(d.meta["og:description"], d.meta["description"])}
		e := readEmbedded(d.data)
		blocks := d.blocks
		for _, h := range e.html {
			blocks = append(blocks, scanFragment(h).blocks...)
		}
		lines = append(append(append(lines, e.description), e.outline...), e.prose...)
		for _, b := range blocks {
			if b.kind != kindEmph && b.kind != kindLink {
				lines = append(lines, strings.Join(strings.Fields(b.text), " "))
			}
		}
		return joinNonEmpty(lines, "\n")
	case "text":
		return string(decode(p))
	}
	return ""
}

// pageURL parses a page's address, nil when it is not one.
func pageURL(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil
	}
	return u
}

// parseHTML parses a page as UTF-8 (see decode). The HTML parser accepts any input.
func parseHTML(p Page) *html.Node {
	root, err := html.Parse(bytes.NewReader(decode(p)))
	if err != nil {
		root = &html.Node{Type: html.DocumentNode}
	}
	return root
}

// decode returns a page's body in UTF-8, converted from the charset its content type names,
// or else, unless the body is valid UTF-8, the one its byte order mark or an HTML <meta>
// names (windows-1252 when none does), made storable.
func decode(p Page) []byte {
	if _, params, err := mime.ParseMediaType(p.ContentType); (err != nil || params["charset"] == "") && utf8.Valid(p.Body) {
		return storable(p.Body)
	}
	r, err := charset.NewReader(bytes.NewReader(p.Body), p.ContentType)
	if err != nil {
		return storable(p.Body)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return storable(p.Body)
	}
	return storable(b)
}

// storable makes b text that PostgreSQL, where what is read from a page is stored and
// searched, can hold: invalid UTF-8 (which a page sniffed or declared as UTF-8 may still
// have) becomes U+FFFD, and NUL a space.
func storable(b []byte) []byte {
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	if bytes.IndexByte(b, 0) >= 0 {
		b = bytes.ReplaceAll(b, []byte{0}, []byte{' '})
	}
	return b
}

// pageFacts are what the metadata of an HTML page says about it.
type pageFacts struct {
	article, video bool
	title, author  string
	description    string // a video's or article's own description
}

// analyzeHTML reads an HTML page.
func analyzeHTML(p Page) *Analysis {
	d, frames := pageDoc(p)
	things := d.microdata
	for _, src := range d.jsonLD {
		things = append(things, thingsIn(decodeJSONLD(src))...)
	}
	c, cc := newCollector(), cityCounter{}
	var facts pageFacts
	if m, ok := mapLink(p.URL); ok && m.Name != "" {
		c.add(m)
	}
	for _, t := range things {
		facts.read(t, c, cc)
	}
	facts.video = facts.video && !facts.article || isVideo(p.URL, d.meta["og:type"])
	e := readEmbedded(d.data)
	e.linkPlaces(d.linkData)
	facts.video = facts.video || e.video
	facts.title = firstNonEmpty(facts.title, e.title)
	a := &Analysis{
		Frames:  frames,
		Title:   pageTitle(d, facts),
		Author:  firstNonEmpty(notURL(d.meta["author"]), notURL(d.meta["article:author"]), facts.author, handle(d.meta["twitter:creator"])),
		Summary: summary(d, facts),
	}
	cc.add(a.Title, 3)
	c.outline(a.Title)
	if facts.video {
		// The player's description is the whole of it; structured data's and meta tags' may
		// be cut short.
		cc.add(e.description, 1)
		c.outline(e.description)
		c.outline(firstNonEmpty(facts.description, d.meta["og:description"], d.meta["description"]))
	}
	blocks := d.blocks
	if facts.video {
		// A watch page's content is the video's title, description and chapters; of its
		// body, only the main content (a description shown in the page), not the site's
		// recommendations and comments.
		blocks = slices.DeleteFunc(slices.Clone(blocks), func(b block) bool { return !b.main })
	}
	// Places with coordinates in script data are how a site draws its own map of them: they
	// do not make the page a map as links to a map service do.
	mapLinks, outline := bodyCandidates(blocks, c, cc)
	e.candidates(c, cc, a.Summary)
	cc.add(a.Summary, 1)
	a.Cities = cc.significant()
	if len(a.Cities) > 0 {
		a.City = a.Cities[0]
	}
	a.Candidates = c.list
	a.MediaType = mediaType(p.URL, d.meta["og:type"], facts, mapLinks, outline)
	return a
}

// pageDoc reads an HTML page and the frames given with it into one doc, and returns the
// frames it asks for.
func pageDoc(p Page) (doc, []string) {
	root, base := parseHTML(p), pageURL(p.URL)
	d := scan(root, base)
	d.microdata = microdata(root)
	main, other := framesWanted(d, base)
	given := map[string]bool{}
	for _, f := range p.Frames {
		given[f.URL] = true
		if kindOf(f) != "html" {
			continue
		}
		froot, fbase := parseHTML(f), pageURL(f.URL)
		fd := scan(froot, fbase)
		d.blocks = append(d.blocks, fd.blocks...)
		d.jsonLD = append(d.jsonLD, fd.jsonLD...)
		d.data = append(d.data, fd.data...)
		d.linkData = append(d.linkData, fd.linkData...)
		d.microdata = append(d.microdata, microdata(froot)...)
		for k, v := range fd.meta {
			if _, ok := d.meta[k]; !ok {
				d.meta[k] = v
			}
		}
		d.title = firstNonEmpty(d.title, fd.title)
		m, o := framesWanted(fd, fbase)
		main, other = append(main, m...), append(other, o...)
	}
	wanted := slices.DeleteFunc(append(main, other...), func(u string) bool { return given[u] })
	return d, wanted[:min(len(wanted), maxFrames)]
}

// Frames followed: at most maxFrames are asked for; a frame whose id says it is the main one
// (Naver's "mainFrame") always, others only from a page (or frame) with fewer than framedText
// letters of its own.
const (
	maxFrames  = 2
	framedText = 200
)

// framesWanted are the addresses of a page's frames on its own site: those whose id says they
// are the main frame, and the others when the page has little text of its own.
func framesWanted(d doc, base *url.URL) (main, other []string) {
	if base == nil || len(d.frames) == 0 {
		return nil, nil
	}
	little := ownText(d.blocks) < framedText
	for _, f := range d.frames {
		u, err := base.Parse(f.src)
		if err != nil || u.Scheme != "http" && u.Scheme != "https" || !sameSite(u, base) {
			continue
		}
		u.Fragment = ""
		if s := u.String(); s != base.String() {
			switch {
			case strings.Contains(strings.ToLower(f.id), "main"):
				main = append(main, s)
			case little:
				other = append(other, s)
			}
		}
	}
	return main, other
}

// candidates adds what a page's script data names (in the page's order: names, places, then
// text). A name or text of the data that names a city the page is not about (a board of
// Osaka beside a Kyoto board) is left out: the page's cities are those of what was counted in
// cc so far, of the data and of the summary (when it names none, nothing is left out).
func (e *embedded) candidates(c *collector, cc cityCounter, summary string) {
	var fragments [][]block
	for _, h := range e.html {
		fragments = append(fragments, scanFragment(h).blocks)
	}
	all := maps.Clone(cc)
	for _, s := range slices.Concat(e.outline, e.prose) {
		all.add(s, 1)
	}
	for _, p := range e.places {
		all.add(p.Address, 3)
	}
	for _, blocks := range fragments {
		bodyCandidates(blocks, nil, all)
	}
	all.add(summary, 1)
	cities := all.significant()
	elsewhere := func(s string) bool {
		named := cityCounter{}
		named.add(s, 1)
		for city := range named {
			if len(cities) > 0 && !slices.Contains(cities, city) {
				return true
			}
		}
		return false
	}
	for _, s := range e.outline {
		if !elsewhere(s) {
			cc.add(s, 1)
			c.outline(s)
		}
	}
	for _, p := range e.places {
		cc.add(p.Address, 3)
		c.add(p)
	}
	for _, s := range e.prose {
		if !elsewhere(s) {
			cc.add(s, 1)
			c.prose(s)
		}
	}
	for _, blocks := range fragments {
		bodyCandidates(blocks, c, cc)
	}
}

// thingsIn returns the objects at the top of a JSON-LD value.
func thingsIn(v any) []thing {
	switch v := v.(type) {
	case map[string]any:
		return []thing{v}
	case []any:
		var out []thing
		for _, e := range v {
			out = append(out, thingsIn(e)...)
		}
		return out
	}
	return nil
}

// read takes from a structured-data object and everything inside it the places (as
// candidates, their addresses counting for the city), list names, and the article's or
// video's metadata.
func (f *pageFacts) read(root thing, c *collector, cc cityCounter) {
	walkThings(root, func(t thing) bool {
		switch {
		case hasType(t, setOf("BreadcrumbList", "SiteNavigationElement", "WPHeader", "WPFooter", "WPSideBar")):
			return false
		case isPlace(t):
			cand := placeOf(t)
			c.add(cand)
			cc.add(cand.Address, 3)
		case hasType(t, setOf("ItemList")):
			for _, name := range listNames(t) {
				c.outline(name)
			}
		case hasType(t, articleTypes):
			f.article = true
			f.meta(textValue(t["headline"]), t)
		case hasType(t, videoTypes):
			f.video = true
			f.meta(textValue(t["name"]), t)
		}
		return true
	})
}

// meta keeps the first title, author and description found.
func (f *pageFacts) meta(title string, t thing) {
	f.title = firstNonEmpty(f.title, title)
	f.author = firstNonEmpty(f.author, authorOf(t))
	f.description = firstNonEmpty(f.description, textValue(t["description"]))
}

// bodyCandidates adds the candidates of a page's text in order (to c, unless nil: the cities
// are counted only), counts the cities it names (those of the main content twice over), and
// returns how many candidates came from map links and how many headings and list items the
// page has.
func bodyCandidates(blocks []block, c *collector, cc cityCounter) (mapLinks, outline int) {
	if c == nil {
		c = newCollector()
	}
	defer c.endSection()
	for _, b := range blocks {
		w := 1
		if b.main {
			w = 2
		}
		switch b.kind {
		case kindHeading:
			outline++
			cc.add(b.text, 2*w)
			c.heading(b.text, b.level)
		case kindItem:
			outline++
			cc.add(b.text, w)
			c.outline(b.text)
		case kindEmph:
			cc.add(b.text, w)
			c.outline(b.text)
		case kindPara:
			cc.add(b.text, w)
			c.prose(b.text)
		case kindLink:
			m, ok := mapLink(b.href)
			if !ok {
				continue
			}
			if m.Name == "" || isStopName(m.Name) {
				m.Name = cleanLine(b.text)
			}
			if m.Name != "" {
				mapLinks++
				cc.add(m.Address, 2)
				c.add(m)
			}
		}
	}
	return mapLinks, outline
}

// pageTitle is the page's title: Open Graph's, the structured data's, or <title> without
// the site's name, or the first heading.
func pageTitle(d doc, f pageFacts) string {
	title := strings.Join(strings.Fields(d.title), " ")
	if site := d.meta["og:site_name"]; site != "" {
		for _, sep := range []string{" | ", " - ", " – ", " — ", " :: ", " · "} {
			title = strings.TrimSuffix(title, sep+site)
		}
	}
	var h1 string
	for _, b := range d.blocks {
		if b.kind == kindHeading && b.level == 1 {
			h1 = strings.Join(strings.Fields(b.text), " ")
			break
		}
	}
	return firstNonEmpty(d.meta["og:title"], d.meta["twitter:title"], f.title, title, h1)
}

// summary is the page's description, or its first paragraph of some length.
func summary(d doc, f pageFacts) string {
	s := firstNonEmpty(d.meta["og:description"], d.meta["description"], d.meta["twitter:description"], f.description)
	if s == "" {
		for _, b := range d.blocks {
			if text := strings.Join(strings.Fields(b.text), " "); b.kind == kindPara && utf8.RuneCountInString(text) >= 40 {
				s = text
				break
			}
		}
	}
	return truncate(strings.Join(strings.Fields(s), " "), summaryRunes)
}

// truncate shortens s to at most n characters, at a word boundary when there is one, ending
// with "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndexAny(cut, " \n"); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,.;:") + "…"
}

// videoHosts serve video pages.
var videoHosts = setOf("youtube.com", "m.youtube.com", "youtu.be", "vimeo.com", "player.vimeo.com", "tiktok.com")

// blogHosts serve blog posts.
var blogHosts = []string{"blog.naver.com", "m.blog.naver.com", "tistory.com", "medium.com", "blogspot.com",
	"wordpress.com", "substack.com", "note.com", "ameblo.jp", "hatenablog.com", "velog.io", "brunch.co.kr"}

func isVideo(pageURL, ogType string) bool {
	return videoHosts[hostOf(pageURL)] || strings.HasPrefix(strings.ToLower(ogType), "video")
}

func isBlog(pageURL, ogType string, f pageFacts) bool {
	if f.article || strings.EqualFold(ogType, "article") || strings.EqualFold(ogType, "blog") {
		return true
	}
	host := hostOf(pageURL)
	for _, h := range blogHosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

// mediaType decides a page's kind: MAP, VIDEO, BLOG or WEB. A page of map links is one
// with at least three, and at least one for every two headings and list items.
func mediaType(pageURL, ogType string, f pageFacts, mapLinks, outline int) string {
	switch {
	case isMapService(pageURL):
		return MediaMap
	case f.video:
		return MediaVideo
	case isBlog(pageURL, ogType, f):
		return MediaBlog
	case mapLinks >= 3 && 2*mapLinks >= outline:
		return MediaMap
	}
	return MediaWeb
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// analyzeText reads a text page: its first line is the title, its first paragraph after it
// the summary; numbered, bulleted and short lines are outline, the rest running text, and map
// URLs are read.
func analyzeText(p Page) *Analysis {
	text := strings.ReplaceAll(string(decode(p)), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	a := &Analysis{MediaType: MediaWeb}
	c, cc := newCollector(), cityCounter{}
	for i, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		weight := 1
		if a.Title == "" {
			a.Title = truncate(line, 200)
			a.Summary = truncate(firstParagraph(lines[i+1:]), summaryRunes)
			weight = 3
		}
		cc.add(line, weight)
		textLine(line, c)
	}
	a.Cities = cc.significant()
	if len(a.Cities) > 0 {
		a.City = a.Cities[0]
	}
	a.Candidates = c.list
	return a
}

// textLine adds the candidates of one line of a text page.
func textLine(line string, c *collector) {
	for _, raw := range urlPattern.FindAllString(line, -1) {
		if m, ok := mapLink(raw); ok && m.Name != "" {
			c.add(m)
		}
	}
	line = urlPattern.ReplaceAllString(line, " ")
	switch {
	case listLine.MatchString(line) || isShort(line) && !endsSentence(line):
		c.outline(line)
	default:
		c.prose(line)
	}
}

var urlPattern = regexp.MustCompile(`https?://[^\s<>"']+`)

// endsSentence says whether a line ends like a sentence.
func endsSentence(line string) bool {
	line = strings.TrimSpace(line)
	return strings.HasSuffix(line, ".") || strings.HasSuffix(line, "!") || strings.HasSuffix(line, "?") ||
		strings.HasSuffix(line, "。") || strings.HasSuffix(line, "다")
}

// firstParagraph joins the lines up to the first empty one, skipping leading empty lines.
func firstParagraph(lines []string) string {
	var para []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			if len(para) > 0 {
				break
			}
			continue
		}
		para = append(para, l)
	}
	return strings.Join(para, " ")
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

func joinNonEmpty(values []string, sep string) string {
	var out []string
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return strings.Join(out, sep)
}

// notURL drops a value that is a link (article:author is often a profile's address).
func notURL(s string) string {
	if strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
		return ""
	}
	return s
}

// handle reads a Twitter handle ("@name") as a name.
func handle(s string) string { return strings.TrimPrefix(strings.TrimSpace(s), "@") }
