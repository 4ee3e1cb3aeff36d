package fetch

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzNormalizeURL checks that NormalizeURL refuses only as Unsupported, and that what it
// returns is a clean http(s) URL — lower-case scheme and host, no default port, no fragment,
// no tracking parameter — that normalises to itself.
func FuzzNormalizeURL(f *testing.F) {
	for _, s := range []string{
		"https://Example.com:443/a/?utm_source=x&b=2&a=1#top",
		"http://[::1]:80/",
		"http://[FE80::1%25EN0]:8080/a",
		"http://example.com/a?x=1;y=2",
		"https://example.com/%2F?q=%zz",
		"https://example.com/?UTM_Medium=a&Si=b&fbclid=c&GCLID=d&igshid=e&q=%E2%9C%94",
		"https://example.com?",
		"https://example.com/a b?c d#e f",
		"HTTP://EXAMPLE.COM.:80",
		"https://user:pass@example.com/",
		"javascript:alert(1)",
		"https://例え.jp/パス?キー=値",
		"http://EX%C3%89.com/",
		"  https://example.com/\t",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := NormalizeURL(in)
		if err != nil {
			if KindOf(err) != Unsupported {
				t.Fatalf("NormalizeURL(%q) err = %v, want kind %s", in, err, Unsupported)
			}
			return
		}
		u, err := url.Parse(out)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" || u.User != nil {
			t.Fatalf("NormalizeURL(%q) = %q, not a clean http(s) URL (%v)", in, out, err)
		}
		if u.Host != strings.ToLower(u.Host) || u.Port() == map[string]string{"http": "80", "https": "443"}[u.Scheme] && u.Port() != "" {
			t.Fatalf("NormalizeURL(%q) = %q: host not lower-case, or the default port kept", in, out)
		}
		if q, err := url.ParseQuery(u.RawQuery); err == nil {
			for name := range q {
				if lower := strings.ToLower(name); trackingParams[lower] || strings.HasPrefix(lower, "utm_") {
					t.Fatalf("NormalizeURL(%q) = %q keeps the tracking parameter %q", in, out, name)
				}
			}
		}
		again, err := NormalizeURL(out)
		if err != nil || again != out {
			t.Fatalf("NormalizeURL(%q) = %q, but NormalizeURL(%q) = %q, %v", in, out, out, again, err)
		}
	})
}
