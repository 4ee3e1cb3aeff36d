package rates

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"
	_ "time/tzdata" // Frankfurt's zone, whatever the machine has installed

	"github.com/shopspring/decimal"
	"golang.org/x/sync/singleflight"
)

const (
	ecbTimeout = 5 * time.Second // the longest one request may take
	ecbMaxBody = 64 << 10        // bytes of an answer read at most (the daily document is about 1.6 KB)
	// publishHour is when, Frankfurt time, the ECB publishes a working day's rates ("around
	// 16:00 CET"); recheckEvery is how long to wait before asking again when the source answered
	// with older rates than that (late publication, a holiday), retryEvery after a failure.
	publishHour  = 16
	recheckEvery = time.Hour
	retryEvery   = time.Minute
	// maxLagDays is how many days the rates served may be older than the newest working day's:
	// the longest gap the ECB's holidays make (Easter: Thursday's rates until Tuesday's).
	maxLagDays = 4
)

// frankfurt is the ECB's time zone, which its publication timetable follows.
var frankfurt = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err) // time/tzdata is embedded
	}
	return loc
}()

// ECB is a rate source reading the European Central Bank's daily euro foreign exchange
// reference rates (https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml): a
// gesmes:Envelope holding one Cube with the day's date (time='2026-11-25'), holding one Cube
// per currency with its units per euro (currency='KRW' rate='1698.12').
//
// # When it asks
//
// The ECB publishes on working days at around 16:00 Frankfurt time. The document read is kept
// in memory and is current until the next working day's 16:00: one request a day (none on
// weekends). From then on the next call asks for the new one, and when the source still answers
// with older rates (the ECB is late, or it is a holiday) asks again no sooner than an hour
// later. Calls that arrive while a request is under way wait for it instead of asking again.
// A request takes at most 5 s, whatever the caller's context (which may give up waiting
// sooner), and reads at most 64 KB.
//
// # When it fails
//
// A failed request (network, a status other than 200, an answer over 64 KB, a document that is
// not the format above: no date, a currency that is not three capitals or is listed twice, a
// rate that is not a positive decimal) changes nothing kept: the last good rates are served for
// as long as they are at most 4 days older than the newest working day's, and the source is
// asked again no sooner than a minute later. Past that, or before any good answer, Rate fails
// with ErrUnavailable. Every failed request is logged as a warning.
//
// # Why not internal/fetch
//
// RATES_URL is the operator's configuration, trusted like OSRM_URL and NOMINATIM_URL, so an
// internal mirror on a private address is allowed; internal/fetch exists for links users
// paste, refuses private addresses and reads only HTML and text (the ECB serves text/xml).
// What is not trusted is the answer, hence the bounds on time and size and the strict parsing.
//
// Safe for concurrent use.
type ECB struct {
	url    string
	client *http.Client
	log    *slog.Logger
	now    func() time.Time // the clock; tests move it

	flight singleflight.Group

	mu      sync.Mutex
	latest  *table    // the newest good rates read; nil before the first
	failure error     // why the last request failed; nil after a good one
	askAt   time.Time // no request before then
}

// table is one day's rates.
type table struct {
	date   time.Time                  // the rates' date, at midnight UTC
	perEUR map[string]decimal.Decimal // units of each currency to one euro; EUR itself is absent
}

// NewECB returns a source reading the ECB's daily reference rates document at url. A nil
// client means a plain http.Client, a nil log slog.Default().
func NewECB(url string, client *http.Client, log *slog.Logger) *ECB {
	if client == nil {
		client = &http.Client{}
	}
	if log == nil {
		log = slog.Default()
	}
	return &ECB{url: url, client: client, log: log, now: time.Now}
}

// Rate answers how many units of to one unit of from is worth, from the ECB's latest rates
// (see the package documentation for the arithmetic and the errors).
func (e *ECB) Rate(ctx context.Context, from, to string) (decimal.Decimal, error) {
	if from == to {
		return decimal.NewFromInt(1), nil
	}
	t, err := e.rates(ctx)
	if err != nil {
		return decimal.Decimal{}, err
	}
	fromPerEUR, ok := t.perEUR[from]
	if !ok && from != "EUR" {
		return decimal.Decimal{}, fmt.Errorf("%w: %q", ErrUnknown, from)
	}
	toPerEUR, ok := t.perEUR[to]
	if !ok && to != "EUR" {
		return decimal.Decimal{}, fmt.Errorf("%w: %q", ErrUnknown, to)
	}
	switch {
	case from == "EUR":
		return toPerEUR, nil
	case to == "EUR":
		return quotient(decimal.NewFromInt(1), fromPerEUR), nil
	}
	return quotient(toPerEUR, fromPerEUR), nil
}

// rates returns the rates to answer with now, asking the source first when the kept ones are
// not current and it may be asked.
func (e *ECB) rates(ctx context.Context) (*table, error) {
	now := e.now()
	published := publishedBy(now)
	e.mu.Lock()
	current := e.latest != nil && !e.latest.date.Before(published)
	ask := !current && !now.Before(e.askAt)
	e.mu.Unlock()
	if ask {
		done := e.flight.DoChan("", func() (any, error) {
			e.refresh(context.WithoutCancel(ctx))
			return nil, nil
		})
		select {
		case <-done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.latest != nil && !e.latest.date.Before(published.AddDate(0, 0, -maxLagDays)):
		return e.latest, nil
	case e.failure == nil: // the source answers, with old rates
		return nil, fmt.Errorf("%w: the source's rates are of %s", ErrUnavailable, e.latest.date.Format(time.DateOnly))
	case e.latest == nil:
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, e.failure)
	}
	return nil, fmt.Errorf("%w: the last good rates are of %s: %w", ErrUnavailable, e.latest.date.Format(time.DateOnly), e.failure)
}

// refresh asks the source for its rates and keeps them when they are good and not older than
// the kept ones, and when it may ask again.
func (e *ECB) refresh(ctx context.Context) {
	t, err := e.fetch(ctx)
	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	if err != nil {
		e.failure, e.askAt = err, now.Add(retryEvery)
		e.log.Warn("exchange rates: the source failed", "url", e.url, "err", err)
		return
	}
	e.failure = nil
	if e.latest == nil || !t.date.Before(e.latest.date) {
		e.latest = t
	}
	if e.latest.date.Before(publishedBy(now)) {
		e.askAt = now.Add(recheckEvery)
	}
}

// fetch reads and parses the source's document.
func (e *ECB) fetch(ctx context.Context) (*table, error) {
	ctx, cancel := context.WithTimeout(ctx, ecbTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "Tripplan/1.0")
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP status %d", resp.StatusCode)
	}
	if resp.ContentLength > ecbMaxBody {
		return nil, fmt.Errorf("the answer's %d bytes are over the %d-byte limit", resp.ContentLength, ecbMaxBody)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, ecbMaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	if len(body) > ecbMaxBody {
		return nil, fmt.Errorf("the answer is over the %d-byte limit", ecbMaxBody)
	}
	return parse(body)
}

// envelope is the part of the document parse reads, its elements in their namespaces (gesmes
// and eurofxref).
type envelope struct {
	XMLName xml.Name `xml:"http://www.gesmes.org/xml/2002-08-01 Envelope"`
	Days    []struct {
		Time       string `xml:"time,attr"`
		Currencies []struct {
			Currency string `xml:"currency,attr"`
			Rate     string `xml:"rate,attr"`
		} `xml:"http://www.ecb.int/vocabulary/2002-08-01/eurofxref Cube"`
	} `xml:"http://www.ecb.int/vocabulary/2002-08-01/eurofxref Cube>Cube"`
}

// parse reads the daily reference rates document: exactly one day, each currency three
// capital letters other than EUR, listed once, with a positive decimal rate.
func parse(doc []byte) (*table, error) {
	var env envelope
	if err := xml.Unmarshal(doc, &env); err != nil {
		return nil, fmt.Errorf("not the ECB's reference rates: %w", err)
	}
	if len(env.Days) != 1 {
		return nil, fmt.Errorf("not the ECB's daily reference rates: %d days of rates, want 1", len(env.Days))
	}
	day := env.Days[0]
	date, err := time.Parse(time.DateOnly, day.Time)
	if err != nil {
		return nil, fmt.Errorf("the rates' date %q: %w", day.Time, err)
	}
	if len(day.Currencies) == 0 {
		return nil, errors.New("no rates")
	}
	t := &table{date: date, perEUR: make(map[string]decimal.Decimal, len(day.Currencies))}
	for _, c := range day.Currencies {
		if !isCode(c.Currency) || c.Currency == "EUR" {
			return nil, fmt.Errorf("currency %q is not a code of another currency than the euro", c.Currency)
		}
		if _, twice := t.perEUR[c.Currency]; twice {
			return nil, fmt.Errorf("currency %s is listed twice", c.Currency)
		}
		rate, err := decimal.NewFromString(c.Rate)
		if err != nil || !rate.IsPositive() {
			return nil, fmt.Errorf("the rate of %s, %q, is not a positive decimal", c.Currency, c.Rate)
		}
		t.perEUR[c.Currency] = rate
	}
	return t, nil
}

// isCode reports whether s is three capital letters, the form of an ISO 4217 code.
func isCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, r := range []byte(s) {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// publishedBy is the date (at midnight UTC) of the newest rates the ECB's timetable has
// published by now: today's from 16:00 Frankfurt time, else the working day's before, Monday to
// Friday. (Its holidays are not foreseen: on them the source is asked again hourly.)
func publishedBy(now time.Time) time.Time {
	t := now.In(frankfurt)
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if t.Hour() < publishHour {
		day = day.AddDate(0, 0, -1)
	}
	for day.Weekday() == time.Saturday || day.Weekday() == time.Sunday {
		day = day.AddDate(0, 0, -1)
	}
	return day
}
