package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeResolver answers from a fixed table and records every host it was asked about.
type fakeResolver struct {
	addrs map[string][]string // host → IP addresses; a host not in it is not found

	mu    sync.Mutex
	calls []string
}

func (r *fakeResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	r.mu.Lock()
	r.calls = append(r.calls, host)
	r.mu.Unlock()
	ss, ok := r.addrs[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var ipas []net.IPAddr
	for _, s := range ss {
		ipas = append(ipas, net.IPAddr{IP: net.ParseIP(s)})
	}
	return ipas, nil
}

func (r *fakeResolver) Calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

// countingServer is an httptest server on 127.0.0.1 that counts the requests it receives.
func countingServer(t *testing.T, h http.Handler) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func hostPort(srv *httptest.Server) string { return srv.Listener.Addr().String() }

func okHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><title>secret</title></html>")
	})
}

// wantKind fails the test unless err is an *Error of the given kind.
func wantKind(t *testing.T, err error, want Kind) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want kind %s", want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want an *Error of kind %s", err, err, want)
	}
	if e.Kind != want {
		t.Fatalf("kind = %s (%v), want %s", e.Kind, err, want)
	}
}

func TestGetHTMLWithCharset(t *testing.T) {
	var gotUA, gotAccept string
	srv, _ := countingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotUA, gotAccept = r.UserAgent(), r.Header.Get("Accept")
		w.Header().Set("Content-Type", `text/html; charset="EUC-KR"`)
		fmt.Fprint(w, "<html><title>Seoul</title></html>")
	}))
	f := &Fetcher{AllowHosts: []string{hostPort(srv)}}

	page, err := f.Get(context.Background(), srv.URL+"/post?id=1")
	if err != nil {
		t.Fatal(err)
	}
	want := Page{URL: srv.URL + "/post?id=1", ContentType: "text/html", Charset: "euc-kr", Body: []byte("<html><title>Seoul</title></html>")}
	if page.URL != want.URL || page.ContentType != want.ContentType || page.Charset != want.Charset || string(page.Body) != string(want.Body) {
		t.Errorf("page = %+v, want %+v", *page, want)
	}
	if gotUA != DefaultUserAgent {
		t.Errorf("User-Agent = %q, want %q", gotUA, DefaultUserAgent)
	}
	if !strings.Contains(gotAccept, "text/html") {
		t.Errorf("Accept = %q, want text/html in it", gotAccept)
	}
}

func TestGetHTTPS(t *testing.T) {
	srv := httptest.NewTLSServer(okHandler())
	t.Cleanup(srv.Close)
	f := &Fetcher{
		AllowHosts: []string{hostPort(srv)},
		UserAgent:  "test-agent",
		tlsConfig:  srv.Client().Transport.(*http.Transport).TLSClientConfig,
	}
	page, err := f.Get(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if page.ContentType != "text/html" || page.Charset != "utf-8" {
		t.Errorf("page = %+v", page)
	}
}

func TestGetLoopbackBlockedWithoutAllowHosts(t *testing.T) {
	srv, hits := countingServer(t, okHandler())
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	urls := []string{
		srv.URL,
		fmt.Sprintf("http://localhost:%d/", port), // through the system resolver (/etc/hosts)
		fmt.Sprintf("http://LOCALHOST:%d/", port),
		fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/", port),
		fmt.Sprintf("http://[::ffff:7f00:1]:%d/", port),
		fmt.Sprintf("http://[::1]:%d/", port),
		"http://[::1]/",
		fmt.Sprintf("http://0.0.0.0:%d/", port),
	}
	for _, u := range urls {
		t.Run(u, func(t *testing.T) {
			// Another port on the same host is allowed, which must not allow this one.
			f := &Fetcher{AllowHosts: []string{fmt.Sprintf("127.0.0.1:%d", port+1), "localhost:80"}}
			_, err := f.Get(context.Background(), u)
			wantKind(t, err, Blocked)
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the server received %d requests, want 0", n)
	}
}

func TestGetBlockedAddresses(t *testing.T) {
	r := &fakeResolver{addrs: map[string][]string{
		"evil.example":      {"10.0.0.1"},
		"mixed.example":     {"93.184.215.14", "192.168.1.10"},
		"meta.example":      {"169.254.169.254"},
		"ec2v6.example":     {"fd00:ec2::254"},
		"alibaba.example":   {"100.100.100.200"},
		"mapped.example":    {"::ffff:10.1.2.3"},
		"cgnat.example":     {"100.64.0.1"},
		"linklocal.example": {"fe80::1"},
		"multicast.example": {"224.0.0.1"},
		"broadcast.example": {"255.255.255.255"},
		"6to4.example":      {"2002:7f00:1::1"},
		"nat64.example":     {"64:ff9b::a9fe:a9fe"},
	}}
	urls := []string{
		"http://evil.example/",
		"https://mixed.example/",
		"http://meta.example/latest/meta-data/",
		"http://ec2v6.example/",
		"http://alibaba.example/",
		"http://mapped.example/",
		"http://cgnat.example:8080/",
		"http://linklocal.example/",
		"http://multicast.example/",
		"http://broadcast.example/",
		"http://6to4.example/",
		"http://nat64.example/",
		"http://169.254.169.254/latest/meta-data/",
		"http://[fd00:ec2::254]/",
		"http://100.100.100.200/",
		"http://10.0.0.1/",
		"http://172.16.5.4/",
		"http://192.168.0.1/",
		"http://[fe80::1%25eth0]/",
		"http://[fc00::1]/",
		"http://[::]/",
	}
	f := &Fetcher{Resolver: r}
	for _, u := range urls {
		t.Run(u, func(t *testing.T) {
			_, err := f.Get(context.Background(), u)
			wantKind(t, err, Blocked)
		})
	}
}

func TestGetNumericHostTricks(t *testing.T) {
	// A resolver that, like some system resolvers, reads numeric names as addresses.
	r := &fakeResolver{addrs: map[string][]string{
		"2130706433": {"127.0.0.1"}, "0x7f.1": {"127.0.0.1"}, "0x7f000001": {"127.0.0.1"},
		"0177.0.0.1": {"127.0.0.1"}, "127.1": {"127.0.0.1"}, "017700000001": {"127.0.0.1"},
		"127.0.0.1.": {"127.0.0.1"}, "3232235521": {"192.168.0.1"},
	}}
	f := &Fetcher{Resolver: r}
	for host := range r.addrs {
		t.Run(host, func(t *testing.T) {
			_, err := f.Get(context.Background(), "http://"+host+"/")
			wantKind(t, err, Unsupported)
		})
	}
	if calls := r.Calls(); len(calls) != 0 {
		t.Errorf("resolver was asked about %v, want no lookups", calls)
	}
}

func TestGetUnsupportedURLs(t *testing.T) {
	srv, hits := countingServer(t, okHandler())
	f := &Fetcher{AllowHosts: []string{hostPort(srv)}}
	urls := []string{
		"ftp://" + hostPort(srv) + "/file.txt",
		"file:///etc/passwd",
		"gopher://" + hostPort(srv) + "/",
		"javascript:alert(1)",
		"http://user:pass@" + hostPort(srv) + "/",
		"http://user@" + hostPort(srv) + "/",
		"http:///path",
		"http:opaque",
		"//" + hostPort(srv) + "/",
		"",
		"http://%zz/",
	}
	for _, u := range urls {
		t.Run(u, func(t *testing.T) {
			_, err := f.Get(context.Background(), u)
			wantKind(t, err, Unsupported)
		})
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the server received %d requests, want 0", n)
	}
}

func TestGetRedirectChecks(t *testing.T) {
	other, otherHits := countingServer(t, okHandler())
	r := &fakeResolver{addrs: map[string][]string{"evil.example": {"192.168.1.1"}, "localhost": {"127.0.0.1", "::1"}}}
	var target atomic.Value // the Location of the next redirect
	srv, _ := countingServer(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, target.Load().(string), http.StatusFound)
	}))
	otherPort := other.Listener.Addr().(*net.TCPAddr).Port
	f := &Fetcher{AllowHosts: []string{hostPort(srv)}, Resolver: r}

	tests := []struct {
		location string
		want     Kind
	}{
		{other.URL + "/", Blocked}, // loopback, another port than the allowed one
		{fmt.Sprintf("http://localhost:%d/", otherPort), Blocked},
		{fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/", otherPort), Blocked},
		{"http://169.254.169.254/latest/meta-data/iam/", Blocked},
		{"http://[fd00:ec2::254]/", Blocked},
		{"http://evil.example/", Blocked},
		{"ftp://" + hostPort(other) + "/", Unsupported},
		{"file:///etc/passwd", Unsupported},
		{"http://user:pass@" + hostPort(srv) + "/", Unsupported},
		{"http://2130706433/", Unsupported},
	}
	for _, tt := range tests {
		t.Run(tt.location, func(t *testing.T) {
			target.Store(tt.location)
			_, err := f.Get(context.Background(), srv.URL+"/start")
			wantKind(t, err, tt.want)
		})
	}
	if n := otherHits.Load(); n != 0 {
		t.Errorf("the blocked server received %d requests, want 0", n)
	}
}

func TestGetRedirectLimit(t *testing.T) {
	// /r/N redirects to /r/N-1; /r/0 is the page.
	srv, _ := countingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/r/"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if n > 0 {
			http.Redirect(w, r, fmt.Sprintf("/r/%d", n-1), http.StatusMovedPermanently)
			return
		}
		okHandler().ServeHTTP(w, r)
	}))
	f := &Fetcher{AllowHosts: []string{hostPort(srv)}}

	page, err := f.Get(context.Background(), srv.URL+"/r/5")
	if err != nil {
		t.Fatalf("5 redirects: %v", err)
	}
	if want := srv.URL + "/r/0"; page.URL != want {
		t.Errorf("URL = %q, want the final URL %q", page.URL, want)
	}
	_, err = f.Get(context.Background(), srv.URL+"/r/6")
	wantKind(t, err, NotFound)
}

func TestGetResponses(t *testing.T) {
	const maxBytes = 100
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

	mux := http.NewServeMux()
	status := func(code int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", code) }
	}
	typed := func(contentType, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if contentType == "" {
				w.Header()["Content-Type"] = nil // no header, and no sniffing by the server
			} else {
				w.Header().Set("Content-Type", contentType)
			}
			fmt.Fprint(w, body)
		}
	}
	mux.Handle("/html", typed("text/html", "<p>hi</p>"))
	mux.Handle("/xhtml", typed("application/xhtml+xml; charset=UTF-8", "<html/>"))
	mux.Handle("/text", typed("text/plain; charset=iso-8859-1", "hi"))
	mux.Handle("/bad-param", typed("text/html; charset", "<p>hi</p>"))
	mux.Handle("/sniff-html", typed("", "<!DOCTYPE html><html><body>hi</body></html>"))
	mux.Handle("/sniff-png", typed("", string(png)))
	mux.Handle("/png", typed("image/png", string(png)))
	mux.Handle("/json", typed("application/json", `{"a":1}`))
	mux.Handle("/pdf", typed("application/pdf", "%PDF-1.4"))
	mux.Handle("/garbage-type", typed("/;;", "hi"))
	mux.Handle("/exact", typed("text/plain", strings.Repeat("a", maxBytes)))
	mux.HandleFunc("/chunked-big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		for range 3 {
			fmt.Fprint(w, strings.Repeat("a", maxBytes/2+1))
			w.(http.Flusher).Flush() // chunked: no Content-Length to go by
		}
	})
	mux.HandleFunc("/declared-big", func(w http.ResponseWriter, r *http.Request) {
		// Declares a large body, sends a little and stalls: only a check made before
		// reading the body gives TooLarge rather than a timeout.
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", strconv.Itoa(10*maxBytes))
		fmt.Fprint(w, "<p>")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	for _, code := range []int{400, 401, 403, 404, 408, 410, 429, 500, 502, 503, 304} {
		mux.Handle(fmt.Sprintf("/status/%d", code), status(code))
	}
	srv, _ := countingServer(t, mux)
	f := &Fetcher{AllowHosts: []string{hostPort(srv)}, MaxBytes: maxBytes, Timeout: 3 * time.Second}

	tests := []struct {
		path        string
		want        Kind // "" for success
		contentType string
		charset     string
	}{
		{"/html", "", "text/html", ""},
		{"/xhtml", "", "application/xhtml+xml", "utf-8"},
		{"/text", "", "text/plain", "iso-8859-1"},
		{"/bad-param", "", "text/html", ""},
		{"/sniff-html", "", "text/html", ""},
		{"/exact", "", "text/plain", ""},
		{"/sniff-png", Unsupported, "", ""},
		{"/png", Unsupported, "", ""},
		{"/json", Unsupported, "", ""},
		{"/pdf", Unsupported, "", ""},
		{"/garbage-type", Unsupported, "", ""},
		{"/chunked-big", TooLarge, "", ""},
		{"/declared-big", TooLarge, "", ""},
		{"/status/400", NotFound, "", ""},
		{"/status/401", NotFound, "", ""},
		{"/status/403", NotFound, "", ""},
		{"/status/404", NotFound, "", ""},
		{"/status/410", NotFound, "", ""},
		{"/status/304", NotFound, "", ""},
		{"/status/408", Transient, "", ""},
		{"/status/429", Transient, "", ""},
		{"/status/500", Transient, "", ""},
		{"/status/502", Transient, "", ""},
		{"/status/503", Transient, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			page, err := f.Get(context.Background(), srv.URL+tt.path)
			if tt.want != "" {
				wantKind(t, err, tt.want)
				if page != nil {
					t.Errorf("page = %+v, want nil with an error", page)
				}
				if got, want := err.(*Error).Retryable(), tt.want == Transient; got != want {
					t.Errorf("Retryable() = %v, want %v", got, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if page.ContentType != tt.contentType || page.Charset != tt.charset {
				t.Errorf("type, charset = %q, %q; want %q, %q", page.ContentType, page.Charset, tt.contentType, tt.charset)
			}
			if len(page.Body) == 0 || len(page.Body) > maxBytes {
				t.Errorf("body has %d bytes", len(page.Body))
			}
		})
	}
}

func TestGetTimeout(t *testing.T) {
	release := make(chan struct{})
	srv, _ := countingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer close(release) // runs before the server's Close in Cleanup
	f := &Fetcher{AllowHosts: []string{hostPort(srv)}, Timeout: 100 * time.Millisecond}

	// The server holds the request until the test ends: only the fetcher's timeout ends it.
	_, err := f.Get(context.Background(), srv.URL)
	wantKind(t, err, Transient)
	if !err.(*Error).Retryable() {
		t.Error("a timeout is not retryable")
	}
}

func TestGetSlowBodyTimeout(t *testing.T) {
	release := make(chan struct{})
	srv, _ := countingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<p>")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer close(release)
	f := &Fetcher{AllowHosts: []string{hostPort(srv)}, Timeout: 100 * time.Millisecond}
	_, err := f.Get(context.Background(), srv.URL)
	wantKind(t, err, Transient)
}

func TestGetCanceledContext(t *testing.T) {
	srv, _ := countingServer(t, okHandler())
	f := &Fetcher{AllowHosts: []string{hostPort(srv)}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := f.Get(ctx, srv.URL)
	wantKind(t, err, Transient)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want it to wrap context.Canceled", err)
	}
}

func TestGetUnknownHost(t *testing.T) {
	f := &Fetcher{Resolver: &fakeResolver{}}
	_, err := f.Get(context.Background(), "https://nowhere.example/")
	wantKind(t, err, NotFound)
}

// TestGetDialsTheCheckedAddress shows that the host is resolved once, through the Fetcher's
// resolver, and the address it gave is the one dialed: "app.test" exists nowhere else.
func TestGetDialsTheCheckedAddress(t *testing.T) {
	var gotHost string
	srv, _ := countingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotHost = r.Host
		okHandler().ServeHTTP(w, r)
	}))
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	r := &fakeResolver{addrs: map[string][]string{"app.test": {"127.0.0.1"}}}
	f := &Fetcher{AllowHosts: []string{" APP.test:" + port}, Resolver: r}

	if _, err := f.Get(context.Background(), "http://app.test:"+port+"/"); err != nil {
		t.Fatal(err)
	}
	if calls := r.Calls(); len(calls) != 1 || calls[0] != "app.test" {
		t.Errorf("lookups = %v, want exactly one of app.test", calls)
	}
	if want := "app.test:" + port; gotHost != want {
		t.Errorf("Host = %q, want %q", gotHost, want)
	}
}

func TestAllowed(t *testing.T) {
	f := &Fetcher{AllowHosts: []string{"Localhost:80", "[::1]:8080", "10.0.0.5:443", "nohost-port", "self.example.:8000"}}
	tests := []struct {
		host, port string
		want       bool
	}{
		{"localhost", "80", true},
		{"LOCALHOST", "80", true},
		{"localhost", "8080", false},
		{"::1", "8080", true},
		{"0:0::1", "8080", true},
		{"::1", "80", false},
		{"10.0.0.5", "443", true},
		{"10.0.0.5", "80", false},
		{"nohost-port", "80", false},
		{"self.example", "8000", true},
		{"127.0.0.1", "80", false},
	}
	for _, tt := range tests {
		if got := f.allowed(tt.host, tt.port); got != tt.want {
			t.Errorf("allowed(%q, %q) = %v, want %v", tt.host, tt.port, got, tt.want)
		}
	}
}

func TestError(t *testing.T) {
	inner := errors.New("boom")
	e := &Error{Kind: Blocked, Err: inner}
	if got, want := e.Error(), "fetch blocked: boom"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, inner) {
		t.Error("Unwrap does not reach the inner error")
	}
	if e.Retryable() || !(&Error{Kind: Transient}).Retryable() {
		t.Error("Retryable must be true for Transient only")
	}
	tests := []struct {
		err  error
		want Kind
	}{
		{nil, ""},
		{e, Blocked},
		{fmt.Errorf("job 7: %w", &Error{Kind: TooLarge}), TooLarge},
		{errors.New("something else"), Transient},
	}
	for _, tt := range tests {
		if got := KindOf(tt.err); got != tt.want {
			t.Errorf("KindOf(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
