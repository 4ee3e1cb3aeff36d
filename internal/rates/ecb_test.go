package rates

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/shopspring/decimal"
)

// daily is the reference rates document of Wednesday 25 November 2026, written by hand in the
// format of the ECB's eurofxref-daily.xml (namespaces, quoting and layout as the ECB writes
// them; its thirty currencies without BGN, which the euro replaced in 2026): USD 1.1603,
// JPY 181.32, KRW 1698.12.
func daily(t *testing.T) []byte {
	t.Helper()
	doc, err := os.ReadFile("testdata/eurofxref-daily.xml")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// nextDay is the document of Thursday 26 November: USD 1.1562 and KRW 1702.56, the rest as on
// the 25th.
func nextDay(t *testing.T) []byte {
	return []byte(strings.NewReplacer("time='2026-11-25'", "time='2026-11-26'",
		"rate='1.1603'", "rate='1.1562'", "rate='1698.12'", "rate='1702.56'").Replace(string(daily(t))))
}

// source is a local server standing for the ECB: it counts requests and answers with the
// handler last set.
type source struct {
	*httptest.Server
	requests atomic.Int32
	mu       sync.Mutex
	respond  http.HandlerFunc
}

func newSource(t *testing.T, respond http.HandlerFunc) *source {
	t.Helper()
	s := &source{respond: respond}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.mu.Lock()
		respond := s.respond
		s.mu.Unlock()
		respond(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *source) set(respond http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.respond = respond
}

// serve answers doc as the ECB does (text/xml).
func serve(doc []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml")
		w.Write(doc)
	}
}

// status answers an error status.
func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { http.Error(w, http.StatusText(code), code) }
}

// clock is a settable time for ECB.now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) set(frankfurtTime string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = at(frankfurtTime)
}

// at is a time in Frankfurt, "2026-11-25 17:00".
func at(frankfurtTime string) time.Time {
	t, err := time.ParseInLocation("2006-01-02 15:04", frankfurtTime, frankfurt)
	if err != nil {
		panic(err)
	}
	return t
}

// newECB is an ECB reading url at the clock's time, logging nowhere.
func newECB(url string, c *clock) *ECB {
	e := NewECB(url, nil, slog.New(slog.DiscardHandler))
	e.now = c.now
	return e
}

// wantRate checks that Rate(from, to) is want, exactly.
func wantRate(t *testing.T, e *ECB, from, to, want string) {
	t.Helper()
	got, err := e.Rate(context.Background(), from, to)
	if err != nil || !got.Equal(decimal.RequireFromString(want)) {
		t.Errorf("Rate(%s, %s) = %s, %v; want %s", from, to, got, err, want)
	}
}

func TestRatesCrossThroughTheEuro(t *testing.T) {
	src := newSource(t, serve(daily(t)))
	e := newECB(src.URL, &clock{t: at("2026-11-25 17:00")})
	// Hand-computed: the quotient's first 13 significant digits, the 13th rounded half up.
	for _, c := range []struct{ from, to, want string }{
		{"USD", "KRW", "1463.51805568"},     // 1698.12 / 1.1603 = 1463.518055675…
		{"KRW", "USD", "0.000683285044638"}, // 1.1603 / 1698.12 = 0.0006832850446375…
		{"KRW", "JPY", "0.106776906226"},    // 181.32 / 1698.12 = 0.1067769062257…
		{"EUR", "KRW", "1698.12"},           // the published rate, as it is
		{"EUR", "USD", "1.1603"},
		{"KRW", "EUR", "0.000588886533343"}, // 1 / 1698.12 = 0.0005888865333427…
		{"USD", "EUR", "0.861846074291"},    // 1 / 1.1603 = 0.8618460742911…
		{"EUR", "EUR", "1"},
		{"KRW", "KRW", "1"},
	} {
		wantRate(t, e, c.from, c.to, c.want)
	}
	if n := src.requests.Load(); n != 1 {
		t.Errorf("%d requests for the day's rates, want 1", n)
	}
}

func TestQuotientRoundsHalfUpToTwelveDigits(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"2.00000000001", "2", "1.00000000001"}, // 1.000000000005 exactly: the 5 goes up
		{"2.00000000001", "-2", "-1.00000000001"},
		{"1", "3", "0.333333333333"},
		{"2", "3", "0.666666666667"},
		{"1", "8", "0.125"},
		{"10", "2", "5"},
		{"1", "0.0001", "10000"},
		{"19341.52", "0.87945", "21992.7454659"}, // IDR per GBP: 21992.745465916…
		{"9999999999999", "1", "10000000000000"}, // 13 nines: rounding carries into a new digit
	} {
		got := quotient(decimal.RequireFromString(c.a), decimal.RequireFromString(c.b))
		if !got.Equal(decimal.RequireFromString(c.want)) {
			t.Errorf("quotient(%s, %s) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

func TestUnknownCurrencies(t *testing.T) {
	src := newSource(t, serve(daily(t)))
	e := newECB(src.URL, &clock{t: at("2026-11-25 17:00")})
	if got, err := e.Rate(context.Background(), "XYZ", "XYZ"); err != nil || !got.Equal(decimal.NewFromInt(1)) {
		t.Errorf("Rate(XYZ, XYZ) = %s, %v; want 1", got, err)
	}
	if n := src.requests.Load(); n != 0 {
		t.Errorf("a currency to itself asked the source %d times", n)
	}
	for _, pair := range [][2]string{{"USD", "XYZ"}, {"BGN", "KRW"}, {"usd", "KRW"}, {"EUR", "RUB"}, {"KRW", ""}} {
		if got, err := e.Rate(context.Background(), pair[0], pair[1]); !errors.Is(err, ErrUnknown) {
			t.Errorf("Rate(%q, %q) = %s, %v; want ErrUnknown", pair[0], pair[1], got, err)
		}
	}
}

func TestAsksOncePerPublication(t *testing.T) {
	src := newSource(t, serve(daily(t)))
	c := &clock{}
	e := newECB(src.URL, c)
	step := func(when string, wantRequests int32, want string) {
		t.Helper()
		c.set(when)
		wantRate(t, e, "USD", "KRW", want)
		if n := src.requests.Load(); n != wantRequests {
			t.Errorf("at %s: %d requests, want %d", when, n, wantRequests)
		}
	}
	step("2026-11-25 17:00", 1, "1463.51805568")
	step("2026-11-25 23:59", 1, "1463.51805568")
	step("2026-11-26 15:59", 1, "1463.51805568") // Thursday's are not out yet
	// Thursday 16:00: asked for them, but the ECB is late and still has Wednesday's.
	step("2026-11-26 16:00", 2, "1463.51805568")
	step("2026-11-26 16:59", 2, "1463.51805568") // not again within the hour
	src.set(serve(nextDay(t)))
	step("2026-11-26 17:00", 3, "1472.54800208") // 1702.56 / 1.1562 = 1472.548002075…
	step("2026-11-27 09:00", 3, "1472.54800208")
}

func TestOlderRatesDoNotReplaceNewerOnes(t *testing.T) {
	src := newSource(t, serve(nextDay(t)))
	c := &clock{}
	e := newECB(src.URL, c)
	c.set("2026-11-26 17:00")
	wantRate(t, e, "USD", "KRW", "1472.54800208")
	src.set(serve(daily(t))) // a mirror lagging behind: Wednesday's again
	c.set("2026-11-27 16:30")
	wantRate(t, e, "USD", "KRW", "1472.54800208")
	if n := src.requests.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestWeekendsKeepFridaysRates(t *testing.T) {
	friday := strings.Replace(string(daily(t)), "time='2026-11-25'", "time='2026-11-20'", 1)
	src := newSource(t, serve([]byte(friday)))
	c := &clock{}
	e := newECB(src.URL, c)
	for _, when := range []string{"2026-11-20 16:30", "2026-11-21 12:00", "2026-11-22 20:00", "2026-11-23 15:59"} {
		c.set(when)
		wantRate(t, e, "EUR", "KRW", "1698.12")
	}
	if n := src.requests.Load(); n != 1 {
		t.Errorf("%d requests from Friday 16:30 to Monday 15:59, want 1", n)
	}
}

func TestFailuresServeTheLastGoodRatesForFourDays(t *testing.T) {
	friday := strings.Replace(string(daily(t)), "time='2026-11-25'", "time='2026-11-20'", 1)
	src := newSource(t, serve([]byte(friday)))
	c := &clock{}
	e := newECB(src.URL, c)
	c.set("2026-11-20 16:30")
	wantRate(t, e, "USD", "KRW", "1463.51805568")

	// Monday's and Tuesday's rates do not come: Friday's are 3, then 4 days behind.
	src.set(status(http.StatusServiceUnavailable))
	c.set("2026-11-23 16:30")
	wantRate(t, e, "USD", "KRW", "1463.51805568")
	c.set("2026-11-23 16:30") // within the minute: not asked again
	wantRate(t, e, "USD", "KRW", "1463.51805568")
	if n := src.requests.Load(); n != 2 {
		t.Errorf("%d requests, want 2: the failure is retried after a minute", n)
	}
	src.set(serve([]byte("<html><body>Maintenance</body></html>")))
	c.set("2026-11-23 16:31")
	wantRate(t, e, "USD", "KRW", "1463.51805568")
	c.set("2026-11-24 23:59")
	wantRate(t, e, "USD", "KRW", "1463.51805568")
	if n := src.requests.Load(); n != 4 {
		t.Errorf("%d requests, want 4", n)
	}

	// Wednesday 16:00: Friday's rates are 5 days behind the newest working day's.
	c.set("2026-11-25 16:00")
	if got, err := e.Rate(context.Background(), "USD", "KRW"); !errors.Is(err, ErrUnavailable) ||
		!strings.Contains(err.Error(), "2026-11-20") {
		t.Errorf("5 days behind: %s, %v; want ErrUnavailable naming the last good rates' date", got, err)
	}
	// The source is back.
	src.set(serve(daily(t)))
	c.set("2026-11-25 16:01")
	wantRate(t, e, "EUR", "USD", "1.1603")
	if n := src.requests.Load(); n != 6 {
		t.Errorf("%d requests, want 6", n)
	}
}

func TestASourceStuckOnOldRatesIsNotBelieved(t *testing.T) {
	src := newSource(t, serve(daily(t))) // Wednesday 25th's rates, forever
	c := &clock{}
	e := newECB(src.URL, c)
	c.set("2026-12-01 16:30") // Tuesday: the 25th is 6 days behind
	if got, err := e.Rate(context.Background(), "USD", "KRW"); !errors.Is(err, ErrUnavailable) ||
		!strings.Contains(err.Error(), "2026-11-25") {
		t.Errorf("rates 6 days old: %s, %v; want ErrUnavailable naming their date", got, err)
	}
	c.set("2026-12-01 17:29") // asked again only after an hour
	if _, err := e.Rate(context.Background(), "USD", "KRW"); !errors.Is(err, ErrUnavailable) {
		t.Errorf("rates 6 days old, again: %v", err)
	}
	if n := src.requests.Load(); n != 1 {
		t.Errorf("%d requests within the hour, want 1", n)
	}
}

func TestBadAnswersAreRefused(t *testing.T) {
	good := string(daily(t))
	bad := func(old, new string) http.HandlerFunc {
		if !strings.Contains(good, old) {
			t.Fatalf("the document has no %q", old)
		}
		return serve([]byte(strings.Replace(good, old, new, 1)))
	}
	const limit = 64 << 10 // the documented limit
	// padded is the good document grown to n bytes with white space, which XML ignores.
	padded := func(n int) string {
		return strings.Replace(good, "</gesmes:Envelope>", strings.Repeat(" ", n-len(good))+"</gesmes:Envelope>", 1)
	}
	tooLong := padded(limit + 1)
	for name, respond := range map[string]http.HandlerFunc{
		"an HTML page":                serve([]byte("<!DOCTYPE html><html><body>Euro foreign exchange reference rates</body></html>")),
		"a truncated answer":          serve([]byte(good[:len(good)/2])),
		"another vocabulary":          bad("http://www.ecb.int/vocabulary/2002-08-01/eurofxref", "http://example.com/rates"),
		"no date":                     bad("time='2026-11-25'", ""),
		"a date of another form":      bad("time='2026-11-25'", "time='25/11/2026'"),
		"two days":                    bad("<Cube time='2026-11-25'>", "<Cube time='2026-11-24'><Cube currency='USD' rate='1.16'/></Cube><Cube time='2026-11-25'>"),
		"no rates":                    serve(regexp.MustCompile(`<Cube currency='[A-Z]{3}' rate='[0-9.]+'/>`).ReplaceAll([]byte(good), nil)),
		"a rate of letters":           bad("rate='1698.12'", "rate='abc'"),
		"a rate of zero":              bad("rate='1698.12'", "rate='0'"),
		"a negative rate":             bad("rate='1698.12'", "rate='-1698.12'"),
		"an empty rate":               bad("rate='1698.12'", "rate=''"),
		"a lower-case currency":       bad("currency='KRW'", "currency='krw'"),
		"the euro listed":             bad("currency='KRW'", "currency='EUR'"),
		"a currency twice":            bad("currency='KRW'", "currency='USD'"),
		"not found":                   status(http.StatusNotFound),
		"a server error":              status(http.StatusInternalServerError),
		"over 64 KB, with its length": serve([]byte(tooLong)),
		"over 64 KB, without its length": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/xml")
			w.(http.Flusher).Flush() // the headers go out first, so the body is chunked
			io.WriteString(w, tooLong)
		},
	} {
		src := newSource(t, respond)
		e := newECB(src.URL, &clock{t: at("2026-11-25 17:00")})
		if got, err := e.Rate(context.Background(), "USD", "KRW"); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s: %s, %v; want ErrUnavailable", name, got, err)
		}
	}
	// The padded document is refused for its size alone: at the limit it is good.
	src := newSource(t, serve([]byte(padded(limit))))
	e := newECB(src.URL, &clock{t: at("2026-11-25 17:00")})
	wantRate(t, e, "USD", "KRW", "1463.51805568")
}

func TestPublishedBy(t *testing.T) {
	for when, want := range map[string]string{
		"2026-11-25 15:59": "2026-11-24", // Wednesday before 16:00: Tuesday's
		"2026-11-25 16:00": "2026-11-25",
		"2026-11-28 12:00": "2026-11-27", // Saturday: Friday's
		"2026-11-29 23:00": "2026-11-27",
		"2026-11-30 09:00": "2026-11-27", // Monday morning: still Friday's
		"2026-11-30 00:30": "2026-11-27",
		"2026-07-15 16:05": "2026-07-15", // summer time: 14:05 UTC
	} {
		if got := publishedBy(at(when)).Format(time.DateOnly); got != want {
			t.Errorf("publishedBy(%s) = %s, want %s", when, got, want)
		}
	}
	// The same instant in another zone: 16:05 in Frankfurt is 00:05 the next day in Seoul.
	if got := publishedBy(at("2026-11-25 16:05").In(time.FixedZone("KST", 9*3600))).Format(time.DateOnly); got != "2026-11-25" {
		t.Errorf("publishedBy from Seoul = %s, want 2026-11-25", got)
	}
}

// handlerTransport answers requests with a handler in memory, for tests in a synctest bubble
// (which cannot wait on real network connections).
type handlerTransport struct{ h http.HandlerFunc }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h(rec, r)
	if err := r.Context().Err(); err != nil {
		return nil, err
	}
	return rec.Result(), nil
}

func TestConcurrentCallsShareOneRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var requests atomic.Int32
		release := make(chan struct{})
		doc := daily(t)
		e := NewECB("https://ecb.test/eurofxref-daily.xml", &http.Client{Transport: handlerTransport{func(w http.ResponseWriter, r *http.Request) {
			requests.Add(1)
			<-release
			serve(doc)(w, r)
		}}}, slog.New(slog.DiscardHandler))
		e.now = func() time.Time { return at("2026-11-25 17:00") }

		const callers = 50
		var wg sync.WaitGroup
		got := make([]decimal.Decimal, callers)
		errs := make([]error, callers)
		for i := range callers {
			wg.Go(func() { got[i], errs[i] = e.Rate(context.Background(), "USD", "KRW") })
		}
		synctest.Wait() // every caller is waiting: one in the request, the others for it
		if n := requests.Load(); n != 1 {
			t.Errorf("%d callers at once made %d requests, want 1", callers, n)
		}
		close(release)
		wg.Wait()
		for i := range callers {
			if errs[i] != nil || !got[i].Equal(decimal.RequireFromString("1463.51805568")) {
				t.Errorf("caller %d: %s, %v", i, got[i], errs[i])
			}
		}
		if n := requests.Load(); n != 1 {
			t.Errorf("%d requests in all, want 1", n)
		}
	})
}

func TestACallerMayStopWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var requests atomic.Int32
		release := make(chan struct{})
		doc := daily(t)
		e := NewECB("https://ecb.test/eurofxref-daily.xml", &http.Client{Transport: handlerTransport{func(w http.ResponseWriter, r *http.Request) {
			requests.Add(1)
			<-release
			serve(doc)(w, r)
		}}}, slog.New(slog.DiscardHandler))
		e.now = func() time.Time { return at("2026-11-25 17:00") }

		ctx, cancel := context.WithCancel(context.Background())
		var err error
		done := make(chan struct{})
		go func() {
			_, err = e.Rate(ctx, "USD", "KRW")
			close(done)
		}()
		synctest.Wait()
		cancel()
		<-done
		if !errors.Is(err, context.Canceled) {
			t.Errorf("a caller that gave up: %v, want context.Canceled", err)
		}
		// The request goes on without it, and its answer is kept for the next caller.
		close(release)
		synctest.Wait()
		wantRate(t, e, "USD", "KRW", "1463.51805568")
		if n := requests.Load(); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
}

func TestASilentSourceIsGivenFiveSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := NewECB("https://ecb.test/eurofxref-daily.xml", &http.Client{Transport: handlerTransport{func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}}}, slog.New(slog.DiscardHandler))
		e.now = func() time.Time { return at("2026-11-25 17:00") }
		start := time.Now() // the bubble's clock, which moves only when everyone waits
		_, err := e.Rate(context.Background(), "USD", "KRW")
		if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("a silent source: %v, want ErrUnavailable for the deadline", err)
		}
		if waited := time.Since(start); waited != ecbTimeout {
			t.Errorf("waited %v, want %v", waited, ecbTimeout)
		}
	})
}
