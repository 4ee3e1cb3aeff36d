package fetch

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode"
)

// trackingParams are query parameters that only say where a click came from.
// Parameters starting with "utm_" are dropped too.
var trackingParams = map[string]bool{
	"fbclid": true, // Facebook
	"gclid":  true, // Google Ads
	"igshid": true, // Instagram
	"si":     true, // YouTube and Spotify share links
}

// NormalizeURL returns the form of an http(s) URL used to recognise the same page pasted
// twice: the scheme and host lower-cased, the default port (80, 443) and the fragment
// dropped, tracking parameters (utm_*, fbclid, gclid, igshid, si; any case) removed and the
// remaining query parameters sorted by name (values of one name keep their order). An empty
// path becomes "/"; otherwise the path is kept as it is, trailing slash included, since
// servers may treat "/a" and "/a/" differently. A query that does not parse is kept as it is,
// but for white space at its end.
//
// It returns an Unsupported *Error for a URL that is not http or https, has no host or has
// user info.
func NormalizeURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", errorf(Unsupported, err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", errorf(Unsupported, fmt.Errorf("scheme %q is not http or https", u.Scheme))
	}
	if u.User != nil {
		return "", errorf(Unsupported, errors.New("URLs with user info are not fetched"))
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if host == "" {
		return "", errorf(Unsupported, errors.New("URL has no host"))
	}
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	switch {
	case port != "":
		u.Host = net.JoinHostPort(host, port)
	case strings.Contains(host, ":"):
		u.Host = "[" + host + "]" // IPv6 literal
	default:
		u.Host = host
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path, u.RawPath = "/", ""
	}
	u.ForceQuery = false
	if q, err := url.ParseQuery(u.RawQuery); err == nil {
		for name := range q {
			lower := strings.ToLower(name)
			if trackingParams[lower] || strings.HasPrefix(lower, "utm_") {
				delete(q, name)
			}
		}
		u.RawQuery = q.Encode()
	} else {
		// Kept, but for white space at its end: with the fragment gone, the URL would end in
		// it, and normalising again would trim it.
		u.RawQuery = strings.TrimRightFunc(u.RawQuery, unicode.IsSpace)
	}
	out := u.String()
	// Lower-casing can turn bytes that are not UTF-8 (say, in an IPv6 zone) into escapes
	// that a host may not hold: a form that does not parse again is no URL to fetch.
	if _, err := url.Parse(out); err != nil {
		return "", errorf(Unsupported, err)
	}
	return out, nil
}
