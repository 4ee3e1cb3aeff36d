package extract

import (
	"cmp"
	"net"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/publicsuffix"
)

// The page's main content is found by scoring, in the manner of Mozilla's Readability: each
// paragraph of some length scores its parent (and half as much its grandparent) by its length
// and commas; a container's score is discounted by the share of its text that is link text; the
// best-scoring container is the main content (or, when the next best ones lie in one of its
// ancestors, that ancestor: see common), with its siblings that score at least a fifth as much.
// A page that marks its main landmark (<main>, role="main") and has running text in it has its
// main content there, and what is beside the landmark is side matter. Outside the main content,
// link lists (navigation, related posts, tag clouds, a sidebar's popular posts) and running
// text of little weight (a blog's comments, an "about me" box, a cookie notice) are left out,
// while a forum's replies, whatever their class, score like its question and are kept; inside
// it, everything is kept, whatever its class (Blogger's "widget Blog"). When no paragraph is
// long enough to score, only lists of links within the site are left out.

// Scoring constants.
const (
	paragraphRunes = 25  // a paragraph scores when it has at least this many letters
	siblingShare   = 0.2 // a sibling of the main content joins it at this share of its score
	linkDense      = 0.5 // an element whose link text is at least this share of its text is a link list
)

// stats are the counts of an element's visible text (letters, spaces not counted).
type stats struct {
	text   int // all of it
	own    int // not inside a child container (the element's own paragraph)
	commas int // commas in own
	link   int // inside links (but for links to map services, which are content)
	inner  int // inside links within the site or the page
	links  int // links counted in link
	frames int // iframes with an address
	score  float64
	// first and last number the element and its last descendant element in document order.
	first, last int
}

// layout is where a page's main content is.
type layout struct {
	stats map[*html.Node]*stats
	main  map[*html.Node]bool // the main content's roots
	above map[*html.Node]bool // their ancestors
	near  *html.Node          // their parent: lists of links to other sites beside them are content
	top   float64             // the main content's score; 0 when no paragraph scored
	// landmark is the page's main landmark (<main> or role="main") when it holds running text:
	// the main content is found in it, and what is outside it (a sidebar, the site's header)
	// is side matter.
	landmark *html.Node
	// outside are the landmark's ancestors (not side matter: they hold it).
	outside map[*html.Node]bool
}

// measure scores a page's elements and finds its main content.
func measure(root *html.Node, base *url.URL) layout {
	l := layout{stats: map[*html.Node]*stats{}, main: map[*html.Node]bool{}, above: map[*html.Node]bool{}}
	var order []*html.Node // elements in the order their subtrees end
	var landmarks []*html.Node
	seq := 0
	var walk func(n *html.Node, link, inner bool) stats
	walk = func(n *html.Node, link, inner bool) stats {
		var st stats
		seq++
		st.first = seq
		switch n.Type {
		case html.TextNode:
			for _, r := range n.Data {
				if !unicode.IsSpace(r) {
					st.text++
				}
				if r == ',' || r == '、' || r == '，' {
					st.commas++
				}
			}
			st.own = st.text
			if link {
				st.link = st.text
				if inner {
					st.inner = st.text
				}
			}
			return st
		case html.ElementNode:
			if n.DataAtom == atom.Iframe && strings.TrimSpace(attr(n, "src")) != "" {
				st.frames++
			}
			if skipped[n.DataAtom] || hiddenOrSide(n) || n.DataAtom == atom.Script || n.DataAtom == atom.Style {
				return st
			}
			if isLandmark(n) {
				landmarks = append(landmarks, n)
			}
			if href := attr(n, "href"); n.DataAtom == atom.A && href != "" && !isMapService(href) && !link {
				link, inner = true, isInternal(href, base)
				st.links++
			}
		case html.DocumentNode:
		default:
			return st
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			cs := walk(c, link, inner)
			st.text, st.link, st.inner, st.links, st.frames = st.text+cs.text, st.link+cs.link, st.inner+cs.inner, st.links+cs.links, st.frames+cs.frames
			if c.Type == html.TextNode || c.Type == html.ElementNode && !isContainer(c) {
				st.own, st.commas = st.own+cs.own, st.commas+cs.commas
			}
		}
		if n.Type == html.ElementNode {
			st.last = seq
			l.stats[n] = &st
			order = append(order, n)
		}
		return st
	}
	walk(root, false, false)
	var landmark *stats // the main landmark, when there is one
	if len(landmarks) == 1 {
		landmark = l.stats[landmarks[0]]
	}
	in := func(st *stats) bool {
		return landmark != nil && landmark.first <= st.first && st.first <= landmark.last
	}
	held := false // whether the landmark holds a paragraph
	for _, n := range order {
		st := l.stats[n]
		if !isContainer(n) || containers[n.DataAtom] == kindHeading || st.own < paragraphRunes {
			continue
		}
		held = held || in(st)
		s := 1 + float64(st.commas) + min(float64(st.own)/100, 3)
		if p := l.stats[n.Parent]; p != nil {
			p.score += s
			if g := l.stats[n.Parent.Parent]; g != nil {
				g.score += s / 2
			}
		}
	}
	var top *html.Node
	for _, n := range order {
		st := l.stats[n]
		st.score *= 1 - st.density()
		if st.score > l.top && (!held || in(st)) {
			top, l.top = n, st.score
		}
	}
	if top == nil {
		return l
	}
	top = l.common(top, order, func(st *stats) bool { return !held || in(st) })
	l.main[top] = true
	if top.Parent != nil {
		for c := top.Parent.FirstChild; c != nil; c = c.NextSibling {
			if st := l.stats[c]; st != nil && st.score >= siblingShare*l.top {
				l.main[c] = true
			}
		}
	}
	// The main content's roots are top and its siblings: their ancestors are top's.
	l.near = top.Parent
	for p := top.Parent; p != nil; p = p.Parent {
		l.above[p] = true
	}
	if held {
		l.landmark, l.outside = landmarks[0], map[*html.Node]bool{}
		for p := l.landmark.Parent; p != nil; p = p.Parent {
			l.outside[p] = true
		}
	}
	return l
}

// Content split into many blocks of like weight (a Naver post's editor components, a
// thread's replies) is one whole: when at least sharedTop of the best-scoring containers
// after the top one, each scoring at least sharedShare of it, lie in one of the top's
// ancestors (below the body), the nearest such ancestor is the main content, as in
// Readability (whose share is 3/4, of scores that reach five ancestors up; these reach two).
const (
	sharedTop   = 3
	sharedShare = 0.5
	sharedPick  = 5 // the best containers looked at, the top one with them
)

// common returns the main content's root for the top-scoring element: top, or the ancestor
// holding it and sharedTop of the next best containers that may be the main content.
func (l layout) common(top *html.Node, order []*html.Node, may func(*stats) bool) *html.Node {
	var alts []*stats
	for _, n := range order {
		if st := l.stats[n]; n != top && st.score >= sharedShare*l.top && may(st) {
			alts = append(alts, st)
		}
	}
	if len(alts) < sharedTop {
		return top
	}
	slices.SortStableFunc(alts, func(a, b *stats) int { return cmp.Compare(b.score, a.score) })
	alts = alts[:min(len(alts), sharedPick-1)]
	for p := top.Parent; p != nil && p.DataAtom != atom.Body; p = p.Parent {
		st := l.stats[p]
		if st == nil {
			break
		}
		n := 0
		for _, a := range alts {
			if st.first <= a.first && a.first <= st.last {
				n++
			}
		}
		if n >= sharedTop {
			return p
		}
	}
	return top
}

// isLandmark says whether an element is a main landmark: <main>, or role="main".
func isLandmark(n *html.Node) bool {
	return n.DataAtom == atom.Main || strings.EqualFold(strings.TrimSpace(attr(n, "role")), "main")
}

// aside says whether an element is beside the page's main landmark that holds the main
// content: neither in it nor holding it.
func (l layout) aside(n *html.Node, inLandmark bool) bool {
	return l.landmark != nil && !inLandmark && n != l.landmark && !l.outside[n]
}

// density is the share of an element's text that is link text.
func (st *stats) density() float64 {
	if st.text == 0 {
		return 0
	}
	return float64(st.link) / float64(st.text)
}

// linkList says whether an element outside the main content (inMain false) is a list of links
// to leave out: mostly link text, with at least two links or one link and nothing else. Such a
// list of links within the site (navigation, related posts, labels) is left out wherever it is;
// one of links to other sites (places' own pages, say) only when it is not beside the main
// content (nearMain: under the main content's parent), or the page has no main content.
func (l layout) linkList(n *html.Node, inMain, nearMain bool) bool {
	st := l.stats[n]
	if st == nil || inMain || l.above[n] || st.links == 0 || st.frames > 0 || st.density() < linkDense || st.links == 1 && st.link < st.text {
		return false
	}
	return 2*st.inner >= st.link || l.top > 0 && !nearMain
}

// weakText says whether a paragraph container outside the main content holds running text of
// little weight next to the main content (comments under an article, an "about me" box): its
// score as a paragraph and its parent's score are both under a fifth of the main content's.
func (l layout) weakText(n *html.Node) bool {
	if l.top == 0 || l.above[n] {
		return false
	}
	best := 0.0
	if st := l.stats[n]; st != nil {
		best = st.score
		if st.own >= paragraphRunes {
			best = max(best, 1+float64(st.commas)+min(float64(st.own)/100, 3))
		}
	}
	if p := l.stats[n.Parent]; p != nil {
		best = max(best, p.score)
	}
	return best < siblingShare*l.top
}

func isContainer(n *html.Node) bool {
	_, ok := containers[n.DataAtom]
	return ok && n.Type == html.ElementNode
}

// hiddenOrSide says whether an element is hidden, or has the ARIA role of navigation or side
// matter.
func hiddenOrSide(n *html.Node) bool {
	return boilerplateRoles[strings.ToLower(attr(n, "role"))] || attr(n, "aria-hidden") == "true" || hasAttr(n, "hidden")
}

// isInternal says whether a link's address is within the page (an anchor) or its site.
func isInternal(href string, base *url.URL) bool {
	href = strings.TrimSpace(href)
	if strings.HasPrefix(href, "#") {
		return true
	}
	u, err := url.Parse(href)
	if err != nil {
		return false
	}
	if u.Host == "" {
		return u.Scheme == "" || u.Scheme == "http" || u.Scheme == "https"
	}
	return base != nil && sameSite(u, base)
}

// sameSite says whether two addresses are on the same site: the same host, or hosts of the
// same registrable domain ("blog.naver.com" and "m.blog.naver.com"; not "a.github.io" and
// "b.github.io", whose public suffix is github.io).
func sameSite(a, b *url.URL) bool {
	ha, hb := strings.ToLower(a.Hostname()), strings.ToLower(b.Hostname())
	if ha == "" || hb == "" {
		return false
	}
	if ha == hb {
		return true
	}
	if net.ParseIP(ha) != nil || net.ParseIP(hb) != nil {
		return false
	}
	da, err := publicsuffix.EffectiveTLDPlusOne(ha)
	if err != nil {
		return false
	}
	db, err := publicsuffix.EffectiveTLDPlusOne(hb)
	return err == nil && da == db
}

// ownText counts the letters of a page's own running text, headings and list items (its
// text but for links and bold).
func ownText(blocks []block) int {
	n := 0
	for _, b := range blocks {
		if b.kind != kindLink && b.kind != kindEmph {
			for _, r := range b.text {
				if !unicode.IsSpace(r) {
					n++
				}
			}
		}
	}
	return n
}
