// Package fetch fetches web pages for content analysis without letting a pasted link reach
// the server's own network (SSRF): only http and https, only public addresses (checked on
// every connection, including each redirect, and dialed exactly as checked so that DNS
// rebinding cannot slip past), bounded time and size, and only HTML or plain text.
package fetch

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults for the zero values of Fetcher's fields.
const (
	DefaultTimeout   = 10 * time.Second
	DefaultMaxBytes  = 5 << 20
	DefaultUserAgent = "TripplanBot/1.0 (+https://tripplan.example/bot)"
)

// maxRedirects is how many redirects a fetch follows; one more is an error.
const maxRedirects = 5

// accept is the Accept header: the media types Get returns.
const accept = "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8"

// supportedTypes are the media types Get returns.
var supportedTypes = map[string]bool{
	"text/html":             true,
	"application/xhtml+xml": true,
	"text/plain":            true,
}

// Page is what a fetch returns.
type Page struct {
	URL         string // the final URL after redirects
	ContentType string // media type without parameters, e.g. "text/html"
	Charset     string // from the Content-Type parameter, lower-cased; "" if none (or sniffed)
	Body        []byte // at most MaxBytes
}

// Fetcher fetches web pages for content analysis, refusing private addresses.
// The zero value is ready to use; a Fetcher is safe for concurrent use.
type Fetcher struct {
	AllowHosts []string      // "host:port" entries allowed even when their address is private (tests, self-hosters); from EXTRACT_ALLOW_HOSTS
	Timeout    time.Duration // whole request, default 10s
	MaxBytes   int64         // default 5 MB
	UserAgent  string        // default "TripplanBot/1.0 (+https://tripplan.example/bot)"
	// Resolver is how host names become addresses; nil is net.DefaultResolver. (Tests may inject.)
	Resolver interface {
		LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
	}

	tlsConfig *tls.Config // nil: the system's roots; tests trust their own server
}

// Get fetches rawURL and returns the page, or an *Error whose Kind says why not.
//
// AllowHosts entries are compared with the host and port of each connection, the host
// case-insensitively and the port as written in the URL or else the scheme's default
// (80, 443). An entry without a port matches nothing.
func (f *Fetcher) Get(ctx context.Context, rawURL string) (*Page, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, errorf(Unsupported, err)
	}
	if err := checkURL(u); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, errorf(Unsupported, err)
	}
	req.Header.Set("User-Agent", cmp.Or(f.UserAgent, DefaultUserAgent))
	req.Header.Set("Accept", accept)

	resp, err := f.client().Do(req)
	if err != nil {
		return nil, classify(err)
	}
	defer resp.Body.Close()

	if err := statusError(resp.StatusCode); err != nil {
		return nil, err
	}
	mediaType, charset, err := parseContentType(resp.Header.Get("Content-Type"))
	if err != nil {
		return nil, err
	}
	maxBytes := f.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	if resp.ContentLength > maxBytes {
		return nil, errorf(TooLarge, fmt.Errorf("Content-Length %d is over the %d-byte limit", resp.ContentLength, maxBytes))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return nil, classify(err)
	}
	if int64(len(body)) > maxBytes {
		return nil, errorf(TooLarge, fmt.Errorf("body is over the %d-byte limit", maxBytes))
	}
	if mediaType == "" {
		// No Content-Type: sniff it. The sniffer's charset is a guess, so Charset stays "".
		if mediaType, _, err = parseContentType(http.DetectContentType(body)); err != nil {
			return nil, err
		}
	}
	return &Page{URL: resp.Request.URL.String(), ContentType: mediaType, Charset: charset, Body: body}, nil
}

// client returns an HTTP client whose every connection goes through f.dial and whose every
// redirect is checked. Keep-alives are off: each Get uses its own transport, and pages come
// from many different hosts.
func (f *Fetcher) client() *http.Client {
	timeout := f.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:                  nil, // never a proxy from the environment
			DialContext:            f.dial,
			TLSClientConfig:        f.tlsConfig,
			DisableKeepAlives:      true,
			MaxResponseHeaderBytes: 64 << 10,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return errorf(NotFound, fmt.Errorf("stopped after %d redirects", maxRedirects))
			}
			return checkURL(req.URL)
		},
	}
}

// classify turns an error from the client or the body into an *Error: ours as they are
// (from the dialer or CheckRedirect), anything else (network, timeout) as Transient.
func classify(err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	return errorf(Transient, err)
}

// statusError maps a response status to an error, nil for 2xx.
func statusError(code int) error {
	err := fmt.Errorf("HTTP %d %s", code, http.StatusText(code))
	switch {
	case code >= 200 && code < 300:
		return nil
	case code == http.StatusRequestTimeout, code == http.StatusTooManyRequests, code >= 500:
		return errorf(Transient, err)
	default: // other 4xx, and 1xx or 3xx the client did not follow
		return errorf(NotFound, err)
	}
}

// parseContentType returns the media type and charset of a Content-Type header value, or
// an Unsupported error when the type is not one Get returns. An empty value gives "", "".
func parseContentType(v string) (mediaType, charset string, err error) {
	if strings.TrimSpace(v) == "" {
		return "", "", nil
	}
	mediaType, params, perr := mime.ParseMediaType(v)
	if perr != nil && !errors.Is(perr, mime.ErrInvalidMediaParameter) {
		return "", "", errorf(Unsupported, fmt.Errorf("Content-Type %q: %w", v, perr))
	}
	if !supportedTypes[mediaType] {
		return "", "", errorf(Unsupported, fmt.Errorf("content type %s is not HTML or text", mediaType))
	}
	return mediaType, strings.ToLower(params["charset"]), nil
}
