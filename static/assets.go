package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// Asset is one embedded file as it is served: under its content-hashed name
// ("css/app.3f2a9c1e5b.css", cached for a year) and its plain name ("css/app.css", kept for
// pages rendered before a release, cached briefly). A style sheet's url()s of other assets
// are rewritten to their hashed names, so the hash covers what the sheet loads.
type Asset struct {
	Name   string // "css/app.css"
	Hashed string // "css/app.3f2a9c1e5b.css"
	Hash   string // the hex digest in Hashed: the ETag's opaque part
	Type   string // its Content-Type
	Body   []byte

	once     sync.Once
	gz, br   []byte // compressed once (Compressed), nil when not worth it
	compress bool   // a text type big enough to compress
}

// CompressMin is the smallest body worth compressing: below it, the headers cost more than
// compression saves.
const CompressMin = 1024

// Compressed returns the brotli and gzip forms of the asset, made at their best (slowest)
// levels the first time they are asked for (Assets.Precompress makes them all at start-up),
// each nil when the asset is not text, is under CompressMin or does not shrink.
func (a *Asset) Compressed() (br, gz []byte) {
	a.once.Do(func() {
		if !a.compress {
			return
		}
		var b bytes.Buffer
		bw := brotli.NewWriterLevel(&b, brotli.BestCompression)
		bw.Write(a.Body)
		bw.Close()
		if b.Len() < len(a.Body) {
			a.br = bytes.Clone(b.Bytes())
		}
		b.Reset()
		gw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		gw.Write(a.Body)
		gw.Close()
		if b.Len() < len(a.Body) {
			a.gz = bytes.Clone(b.Bytes())
		}
	})
	return a.br, a.gz
}

// Assets is the manifest of a file tree: every file by its plain and its hashed name.
type Assets struct {
	byName, byHashed map[string]*Asset
}

// Files is the manifest of FS, built when the program starts.
var Files = mustBuild(FS)

func mustBuild(fsys fs.FS) *Assets {
	a, err := Build(fsys)
	if err != nil {
		panic(err)
	}
	return a
}

// cssURL finds url(...) references in a style sheet.
var cssURL = regexp.MustCompile(`url\(\s*(['"]?)([^'")\s]+)(['"]?)\s*\)`)

// Build hashes every file of fsys. Style sheets are hashed after their references are
// rewritten, so other files come first.
func Build(fsys fs.FS) (*Assets, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(names, func(i, j int) bool {
		return path.Ext(names[i]) != ".css" && path.Ext(names[j]) == ".css"
	})
	a := &Assets{byName: make(map[string]*Asset, len(names)), byHashed: make(map[string]*Asset, len(names))}
	for _, name := range names {
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		if path.Ext(name) == ".css" {
			body = a.rewriteCSS(name, body)
		}
		sum := sha256.Sum256(body)
		hash := hex.EncodeToString(sum[:5])
		ext := path.Ext(name)
		typ := mime.TypeByExtension(ext)
		if typ == "" {
			typ = "application/octet-stream"
		}
		as := &Asset{Name: name, Hashed: strings.TrimSuffix(name, ext) + "." + hash + ext, Hash: hash, Type: typ, Body: body}
		as.compress = len(body) >= CompressMin && Compressible(typ)
		if _, dup := a.byHashed[as.Hashed]; dup {
			return nil, fmt.Errorf("static: %s and another file hash to one name", name)
		}
		a.byName[name], a.byHashed[as.Hashed] = as, as
	}
	return a, nil
}

// rewriteCSS points the sheet's relative url()s of files already hashed at their hashed
// names; others (data:, fragments, files not there) stay as written.
func (a *Assets) rewriteCSS(name string, body []byte) []byte {
	return cssURL.ReplaceAllFunc(body, func(m []byte) []byte {
		sub := cssURL.FindSubmatch(m)
		ref := string(sub[2])
		if strings.Contains(ref, ":") || strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "#") {
			return m
		}
		target, ok := a.byName[path.Join(path.Dir(name), ref)]
		if !ok {
			return m
		}
		hashed := ref[:len(ref)-len(path.Base(ref))] + path.Base(target.Hashed)
		return []byte("url(" + string(sub[1]) + hashed + string(sub[3]) + ")")
	})
}

// URL is the path pages use for the asset named name ("css/app.css"): its hashed name under
// /static/. A name that is not there keeps its plain path (and is answered 404).
func (a *Assets) URL(name string) string {
	if as, ok := a.byName[name]; ok {
		return "/static/" + as.Hashed
	}
	return "/static/" + name
}

// Lookup finds the asset served at p (a path under /static/): by its hashed name (hashed is
// true) or its plain one.
func (a *Assets) Lookup(p string) (as *Asset, hashed bool) {
	if as, ok := a.byHashed[p]; ok {
		return as, true
	}
	return a.byName[p], false
}

// All is every asset, in the order of their names.
func (a *Assets) All() []*Asset {
	out := make([]*Asset, 0, len(a.byName))
	for _, as := range a.byName {
		out = append(out, as)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Precompress makes every asset's compressed forms now rather than at its first request.
func (a *Assets) Precompress() {
	for _, as := range a.byName {
		as.Compressed()
	}
}

// URL is Files.URL: the path of an embedded asset for pages.
func URL(name string) string { return Files.URL(name) }

// Compressible reports whether a Content-Type is text that compresses well: text/* (but not
// event streams, which must flush as they go), JSON, XML and JavaScript types, and SVG.
func Compressible(contentType string) bool {
	t, _, _ := strings.Cut(contentType, ";")
	t = strings.ToLower(strings.TrimSpace(t))
	switch {
	case t == "text/event-stream":
		return false
	case strings.HasPrefix(t, "text/"), strings.HasSuffix(t, "+json"), strings.HasSuffix(t, "+xml"):
		return true
	}
	switch t {
	case "application/json", "application/javascript", "application/x-javascript", "application/xml", "application/ecmascript":
		return true
	}
	return false
}
