package extract

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// blockKind is the role of a piece of a page's text.
type blockKind int

const (
	kindPara    blockKind = iota // running text: p, div and other containers
	kindHeading                  // h1–h6
	kindItem                     // li, dt, dd, figcaption, table cells
	kindEmph                     // strong or b text
	kindLink                     // a link: its text and address
)

// block is a piece of a page's text, in document order.
type block struct {
	kind  blockKind
	level int    // a heading's level
	text  string // spaces collapsed but in <pre>, <br> as a line break
	href  string // a link's address
	weak  bool   // running text of little weight outside the main content, left out
	main  bool   // in the main content
}

// doc is what the HTML of a page holds.
type doc struct {
	title  string            // <title>
	meta   map[string]string // <meta name|property> (lower case) → content, first one wins
	jsonLD []string          // <script type="application/ld+json"> contents
	data   []script          // scripts whose data may hold the content (see readEmbedded)
	frames []frame           // <iframe> elements with an address
	// linkData are the JSON objects of links' data-linkdata attributes in the content (a Naver
	// post's place cards: name, address, latitude, longitude), at most maxLinkData bytes.
	linkData []string
	// microdata are the page's schema.org microdata items.
	microdata []thing
	blocks    []block
}

// frame is an <iframe> of a page.
type frame struct {
	id, src string
}

// containers are the elements whose text is one block.
var containers = map[atom.Atom]blockKind{
	atom.P: kindPara, atom.Div: kindPara, atom.Section: kindPara, atom.Article: kindPara, atom.Main: kindPara,
	atom.Body: kindPara, atom.Blockquote: kindPara, atom.Pre: kindPara, atom.Table: kindPara, atom.Tr: kindPara,
	atom.Ul: kindPara, atom.Ol: kindPara, atom.Dl: kindPara, atom.Figure: kindPara, atom.Header: kindPara,
	atom.Address: kindPara, atom.Details: kindPara, atom.Summary: kindItem,
	atom.Li: kindItem, atom.Dt: kindItem, atom.Dd: kindItem, atom.Figcaption: kindItem, atom.Td: kindItem,
	atom.Th: kindItem, atom.Caption: kindItem,
	atom.H1: kindHeading, atom.H2: kindHeading, atom.H3: kindHeading, atom.H4: kindHeading,
	atom.H5: kindHeading, atom.H6: kindHeading,
}

// skipped are elements whose text is never content: code, form controls, embedded documents
// and the page's navigation and side matter. A form itself may hold content (old Reddit puts
// each post and reply in one): its text is weighed like any other.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Svg: true,
	atom.Iframe: true, atom.Button: true, atom.Select: true, atom.Textarea: true,
	atom.Nav: true, atom.Footer: true, atom.Aside: true, atom.Object: true, atom.Canvas: true,
}

// boilerplateRoles are ARIA roles of the same.
var boilerplateRoles = setOf("navigation", "contentinfo", "complementary", "banner", "search", "dialog", "menu")

// scanner walks a parsed page into a doc.
type scanner struct {
	d       doc
	buf     strings.Builder
	stack   []block // the open containers
	article int     // depth of article and main elements
	pre     int     // depth of pre elements, whose line breaks are kept
	emph    int     // depth of strong and b elements
	layout  layout  // where the page's main content is
	inMain  int     // depth of main content elements
	// nearMain is the depth of elements under the main content's parent.
	nearMain int
	// inLandmark is the depth of elements in the page's main landmark.
	inLandmark int
	linkData   int // bytes in d.linkData
}

// maxLinkData is the most bytes of links' data read from a page.
const maxLinkData = 1 << 20

// scan reads a parsed page, whose address is base (nil when unknown).
func scan(root *html.Node, base *url.URL) doc {
	s := &scanner{d: doc{meta: map[string]string{}}, layout: measure(root, base)}
	s.node(root)
	s.flush()
	s.d.blocks = dropBoilerplateSections(s.d.blocks)
	return s.d
}

// scanFragment reads HTML that is all content (an article's body kept in script data): no
// part of it is left out as side matter but for its hidden parts, navigation and sections
// headed "Related posts" and the like.
func scanFragment(h string) doc {
	s := &scanner{d: doc{meta: map[string]string{}}}
	s.node(parseHTML(Page{ContentType: "text/html", Body: []byte(h)}))
	s.flush()
	s.d.blocks = dropBoilerplateSections(s.d.blocks)
	return s.d
}

func (s *scanner) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		s.node(c)
	}
}

func (s *scanner) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		if s.pre > 0 {
			s.buf.WriteString(n.Data)
		} else {
			s.buf.WriteString(collapseSpace(n.Data))
		}
		return
	case html.ElementNode:
	default:
		s.children(n)
		return
	}
	switch n.DataAtom {
	case atom.Title:
		if s.d.title == "" {
			s.d.title = textOf(n)
		}
		return
	case atom.Meta:
		s.meta(n)
		return
	case atom.Script:
		switch text := rawText(n); {
		case strings.Contains(strings.ToLower(attr(n, "type")), "ld+json"):
			s.d.jsonLD = append(s.d.jsonLD, text)
		case holdsContent(attr(n, "id"), text):
			s.d.data = append(s.d.data, script{id: attr(n, "id"), text: text})
		}
		return
	case atom.Iframe:
		if src := strings.TrimSpace(attr(n, "src")); src != "" {
			s.d.frames = append(s.d.frames, frame{id: attr(n, "id"), src: src})
		}
		return
	case atom.Br:
		s.buf.WriteByte('\n')
		return
	}
	if n.Parent != nil && n.Parent == s.layout.near {
		s.nearMain++
		defer func() { s.nearMain-- }()
	}
	if skipped[n.DataAtom] || s.isBoilerplate(n) {
		return
	}
	if n == s.layout.landmark {
		s.inLandmark++
		defer func() { s.inLandmark-- }()
	}
	kind, isContainer := containers[n.DataAtom]
	if isContainer {
		s.flush()
		s.stack = append(s.stack, block{kind: kind, level: headingLevel(n), weak: kind == kindPara && s.inMain == 0 && s.layout.weakText(n)})
	}
	if s.layout.main[n] {
		s.inMain++
		defer func() { s.inMain-- }()
	}
	inArticle, inPre := n.DataAtom == atom.Article || n.DataAtom == atom.Main, n.DataAtom == atom.Pre
	inEmph := n.DataAtom == atom.Strong || n.DataAtom == atom.B
	if inArticle {
		s.article++
	}
	if inPre {
		s.pre++
	}
	if inEmph {
		s.emph++
	}
	s.children(n)
	if inArticle {
		s.article--
	}
	if inPre {
		s.pre--
	}
	if inEmph {
		s.emph--
	}
	switch n.DataAtom {
	case atom.A:
		if data := strings.TrimSpace(attr(n, "data-linkdata")); strings.HasPrefix(data, "{") && s.linkData+len(data) <= maxLinkData {
			s.linkData += len(data)
			s.d.linkData = append(s.d.linkData, data)
		}
		if href := attr(n, "href"); href != "" {
			s.d.blocks = append(s.d.blocks, block{kind: kindLink, text: textOf(n), href: href, main: s.inMain > 0})
		}
	case atom.Strong, atom.B:
		// Bold inside bold is in the outer block's text already; a block for each of n nested
		// ones would hold the text n times over (unclosed <b> tags nest hundreds deep).
		// Bold in text that is left out is left out too.
		if s.emph == 0 && (len(s.stack) == 0 || !s.stack[len(s.stack)-1].weak) {
			s.d.blocks = append(s.d.blocks, block{kind: kindEmph, text: textOf(n), main: s.inMain > 0})
		}
	}
	if isContainer {
		s.flush()
		s.stack = s.stack[:len(s.stack)-1]
	}
}

// flush ends the text of the innermost open container.
func (s *scanner) flush() {
	text := s.buf.String()
	s.buf.Reset()
	if strings.TrimSpace(text) == "" {
		return
	}
	b := block{kind: kindPara}
	if len(s.stack) > 0 {
		b = s.stack[len(s.stack)-1]
	}
	if b.weak {
		return
	}
	b.text, b.main = text, s.inMain > 0
	s.d.blocks = append(s.d.blocks, b)
}

func (s *scanner) meta(n *html.Node) {
	content := strings.TrimSpace(attr(n, "content"))
	for _, key := range []string{attr(n, "property"), attr(n, "name")} {
		key = strings.ToLower(strings.TrimSpace(key))
		if key != "" && content != "" {
			if _, ok := s.d.meta[key]; !ok {
				s.d.meta[key] = content
			}
		}
	}
}

// isBoilerplate says whether an element holds navigation or side matter: by its role, by
// being a list of links outside the main content (see measure), by being beside the main
// landmark that holds the main content, or (for a header outside the article and the main
// content) by its place.
func (s *scanner) isBoilerplate(n *html.Node) bool {
	switch {
	case n.DataAtom == atom.Html || n.DataAtom == atom.Head || n.DataAtom == atom.Body:
		return false
	case s.layout.aside(n, s.inLandmark > 0):
		return true
	}
	switch n.DataAtom {
	case atom.Main, atom.Article:
		return false
	case atom.Header:
		if s.article == 0 && s.inMain == 0 && !s.layout.above[n] {
			return true
		}
	}
	return hiddenOrSide(n) || s.layout.linkList(n, s.inMain > 0, s.nearMain > 0)
}

// dropBoilerplateSections drops sections headed "Related posts", "Comments" and the like:
// the heading and what follows it up to the next heading of the same or a higher level.
func dropBoilerplateSections(blocks []block) []block {
	out := blocks[:0:0]
	skipLevel := 0
	for _, b := range blocks {
		if b.kind == kindHeading {
			switch {
			case sectionStops[strings.Join(normWords(b.text), " ")]:
				skipLevel = b.level
				continue
			case skipLevel > 0 && b.level <= skipLevel:
				skipLevel = 0
			}
		}
		if skipLevel == 0 {
			out = append(out, b)
		}
	}
	return out
}

// sectionStops head sections that name other pages, not this page's places.
var sectionStops = setOf("related posts", "related articles", "related", "you may also like",
	"you might also like", "recent posts", "popular posts", "more stories", "more posts", "read next",
	"read more", "comments", "leave a reply", "leave a comment", "share this", "share this post",
	"tags", "categories", "archives", "about the author", "about me", "subscribe", "newsletter",
	"관련 글", "관련글", "댓글", "関連記事", "コメント", "おすすめ記事")

func headingLevel(n *html.Node) int {
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		level, _ := strconv.Atoi(n.Data[1:])
		return level
	}
	return 0
}

// textOf is the text of n and its descendants (but not of scripts and styles), spaces
// collapsed, <br> as a line break.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(collapseSpace(n.Data))
		case n.DataAtom == atom.Br:
			b.WriteByte('\n')
		case n.DataAtom == atom.Script || n.DataAtom == atom.Style:
		default:
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

// collapseSpace replaces each run of white space (line breaks included, as HTML reads them)
// with one space.
func collapseSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

// rawText is the text of a script: its child text nodes.
func rawText(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}
