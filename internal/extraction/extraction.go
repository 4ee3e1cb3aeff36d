// Package extraction finds the places a web page talks about, as jobs on a River queue:
// fetch the page safely (internal/fetch), analyse it (internal/extract), resolve the names to
// real places (places.Finder), and record the result on the extraction job. Any number of
// server instances may work the queue; jobs survive restarts, and transient failures are
// retried with backoff until they succeed or fail for good.
package extraction

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivertype"

	"tripplan/internal/extract"
	"tripplan/internal/fetch"
	"tripplan/internal/i18n"
	"tripplan/internal/planner"
)

// Args is the queue's job: work one extraction job.
type Args struct {
	JobID string `json:"job_id"`
}

// Kind names the job kind on the queue.
func (Args) Kind() string { return "extract_places" }

// maxAttempts is how many times a job is tried before it fails for good.
const maxAttempts = 4

// Store is what the worker records progress and results in.
type Store interface {
	WorkJob(ctx context.Context, jobID string) (*planner.ExtractionJob, error)
	// SetJobStage records the stage the work is at, with how many names were looked up while
	// matching (nil otherwise); the job's status follows the stage (planner.Stage.Status).
	SetJobStage(ctx context.Context, jobID string, stage planner.Stage, p *planner.Progress) error
	CompleteJob(ctx context.Context, jobID string, result *planner.ExtractionResult) error
	FailJob(ctx context.Context, jobID string, code planner.FailureCode, message string) error
}

// Worker works extraction jobs.
type Worker struct {
	river.WorkerDefaults[Args]
	Store    Store
	Fetcher  *fetch.Fetcher
	Searcher extract.Searcher
	LLM      *extract.LLM // optional: proposes more place names
	Log      *slog.Logger
	// Backoff is the wait before attempt n+1 (n ≥ 1); nil waits 5 s, 20 s, 45 s.
	Backoff func(attempt int) time.Duration
	// ProgressEvery is the least time between two records of how many names were looked up;
	// 0 means progressEvery.
	ProgressEvery time.Duration
}

// progressEvery keeps a page of many names from costing a write per name: the panel asks
// once a second.
const progressEvery = 250 * time.Millisecond

// Timeout bounds one attempt: the fetch's own 10 s, then analysis and searches.
func (w *Worker) Timeout(*river.Job[Args]) time.Duration { return 2 * time.Minute }

// NextRetry waits Backoff between attempts.
func (w *Worker) NextRetry(job *river.Job[Args]) time.Time {
	if w.Backoff != nil {
		return time.Now().Add(w.Backoff(job.Attempt))
	}
	return time.Now().Add(time.Duration(job.Attempt*job.Attempt) * 5 * time.Second)
}

// watchEvery is how often a running job checks that it is still wanted.
const watchEvery = 500 * time.Millisecond

// Work runs one attempt of a job. A job dismissed or deleted with its collection (JOB_NOT_FOUND
// from the store) is cancelled for good, whenever that is noticed.
func (w *Worker) Work(ctx context.Context, job *river.Job[Args]) error {
	err := w.work(ctx, job)
	if planner.ErrorCode(err) == planner.CodeJobNotFound {
		return river.JobCancel(err)
	}
	return err
}

func (w *Worker) work(ctx context.Context, job *river.Job[Args]) error {
	j, err := w.Store.WorkJob(ctx, job.Args.JobID)
	if err != nil {
		return err
	}
	if j.Done() {
		return nil
	}
	// Stop working on a job once it is no longer wanted, whichever instance dismissed it: the
	// database/sql driver cannot hear River's cancellations, so the job looks for itself.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	go w.watch(ctx, stop, j.ID)
	err = w.attempt(ctx, job, j)
	if gone := context.Cause(ctx); planner.ErrorCode(gone) == planner.CodeJobNotFound {
		return gone
	}
	return err
}

// attempt does the work and records its outcome.
func (w *Worker) attempt(ctx context.Context, job *river.Job[Args], j *planner.ExtractionJob) error {
	result, code, err := w.run(ctx, j)
	switch {
	case err == nil:
		return w.Store.CompleteJob(ctx, j.ID, result)
	case planner.ErrorCode(err) == planner.CodeJobNotFound: // the store noticed the job is gone
		return err
	case code == "" && job.Attempt < maxAttempts: // transient: try again later
		if serr := w.Store.SetJobStage(ctx, j.ID, planner.StageRetryWaiting, nil); serr != nil {
			return serr
		}
		return err
	}
	if code == "" {
		code = planner.FailureFetch
	}
	w.log(ctx, "extraction failed", j, err)
	if ferr := w.Store.FailJob(ctx, j.ID, code, message(code)); ferr != nil {
		return ferr
	}
	return river.JobCancel(err)
}

// watch cancels ctx with the store's JOB_NOT_FOUND once the job is dismissed or deleted.
func (w *Worker) watch(ctx context.Context, stop context.CancelCauseFunc, jobID string) {
	tick := time.NewTicker(watchEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if _, err := w.Store.WorkJob(ctx, jobID); planner.ErrorCode(err) == planner.CodeJobNotFound {
			stop(err)
			return
		}
	}
}

// run does the work; a failure comes with its code, or "" when trying again may help.
func (w *Worker) run(ctx context.Context, j *planner.ExtractionJob) (*planner.ExtractionResult, planner.FailureCode, error) {
	if err := w.Store.SetJobStage(ctx, j.ID, planner.StageFetching, nil); err != nil {
		return nil, "", err
	}
	page, err := w.Fetcher.Get(ctx, j.URL)
	if err != nil {
		switch fetch.KindOf(err) {
		case fetch.NotFound:
			return nil, planner.FailureContentNotFound, err
		case fetch.TooLarge:
			return nil, planner.FailureTooLarge, err
		case fetch.Unsupported, fetch.Blocked:
			return nil, planner.FailureFetch, err
		}
		return nil, "", err
	}
	if err := w.Store.SetJobStage(ctx, j.ID, planner.StageReading, nil); err != nil {
		return nil, "", err
	}
	p := extract.Page{URL: page.URL, ContentType: page.ContentType, Body: page.Body}
	a, err := extract.Analyze(p)
	if err != nil { // only extract.ErrUnsupported: not a web page to read
		return nil, planner.FailureFetch, err
	}
	if p, a, err = w.frames(ctx, j, p, a); err != nil {
		return nil, "", err
	}
	if w.LLM != nil {
		if more, err := w.LLM.Suggest(ctx, a, extract.Text(p)); err == nil {
			a.Candidates = append(a.Candidates, more...)
		} else {
			w.log(ctx, "LLM suggestions failed; going on without them", j, err)
		}
	}
	res, err := w.match(ctx, j, a)
	if err != nil {
		return nil, "", err
	}
	if len(res.Places) == 0 && len(res.Unmatched) == 0 {
		return nil, planner.FailureNoPlace, errors.New("no place found on the page")
	}
	r := &planner.ExtractionResult{DetectedCount: res.Detected, MatchedCount: len(res.Places), MediaType: a.MediaType, URL: page.URL,
		AuthorName: a.Author, Title: a.Title, Summary: a.Summary, City: a.City,
		Places: make([]planner.ResultPlace, len(res.Places)), Unmatched: make([]planner.UnmatchedName, len(res.Unmatched))}
	for i, p := range res.Places {
		r.Places[i] = planner.ResultPlace{PlaceID: p.ID, Name: p.Name, Address: p.Address, Mention: p.Mention, Quote: p.Quote}
	}
	for i, u := range res.Unmatched {
		r.Unmatched[i] = planner.UnmatchedName{Name: u.Name, Quote: u.Quote}
	}
	return r, "", nil
}

// match looks up the page's names, recording how many it has looked up as it goes: at the
// start, then at most every ProgressEvery (the job's completion records the end).
func (w *Worker) match(ctx context.Context, j *planner.ExtractionJob, a *extract.Analysis) (*extract.Resolution, error) {
	if err := w.Store.SetJobStage(ctx, j.ID, planner.StageMatching, &planner.Progress{Total: len(a.Candidates)}); err != nil {
		return nil, err
	}
	every := cmp.Or(w.ProgressEvery, progressEvery)
	last := time.Now()
	var recordErr error
	res, err := extract.Resolve(ctx, w.Searcher, a, func(done, total int) {
		if recordErr != nil || done == total || time.Since(last) < every {
			return
		}
		last = time.Now()
		recordErr = w.Store.SetJobStage(ctx, j.ID, planner.StageMatching, &planner.Progress{Done: done, Total: total})
	})
	return res, cmp.Or(recordErr, err)
}

// maxFrameHops is how many frames a job fetches for a page that keeps its content in them
// (a Naver blog post's mainFrame; a frame's own frame is a second hop).
const maxFrameHops = 2

// frames fetches the same-site frames the analysis asks for (extract.Analysis.Frames), with
// the same fetcher and so the same SSRF rules, at most maxFrameHops of them and together with
// the page within the fetcher's size limit, and analyses the page again with them. A frame
// that cannot be fetched is left out (the hop is spent): the page is read without it. While a
// frame is fetched the job is FETCHING again (a slow answer is the site's, not the page's).
// The error is the store's only.
func (w *Worker) frames(ctx context.Context, j *planner.ExtractionJob, p extract.Page, a *extract.Analysis) (extract.Page, *extract.Analysis, error) {
	fetched := map[string]bool{p.URL: true}
	size := int64(len(p.Body))
	limit := cmp.Or(w.Fetcher.MaxBytes, fetch.DefaultMaxBytes)
	for hop := 0; hop < maxFrameHops && size < limit; hop++ {
		next := ""
		for _, u := range a.Frames {
			if !fetched[u] {
				next = u
				break
			}
		}
		if next == "" {
			break
		}
		fetched[next] = true
		f := *w.Fetcher
		f.MaxBytes = limit - size
		if err := w.Store.SetJobStage(ctx, j.ID, planner.StageFetching, nil); err != nil {
			return p, a, err
		}
		page, err := f.Get(ctx, next)
		if serr := w.Store.SetJobStage(ctx, j.ID, planner.StageReading, nil); serr != nil {
			return p, a, serr
		}
		if err != nil {
			w.log(ctx, "frame not fetched; reading the page without it", j, err)
			continue
		}
		size += int64(len(page.Body))
		fetched[page.URL] = true
		withFrame := p
		withFrame.Frames = append(slices.Clip(p.Frames), extract.Page{URL: page.URL, ContentType: page.ContentType, Body: page.Body})
		again, err := extract.Analyze(withFrame)
		if err != nil {
			break
		}
		p, a = withFrame, again
	}
	return p, a, nil
}

func (w *Worker) log(ctx context.Context, msg string, j *planner.ExtractionJob, err error) {
	if w.Log != nil {
		w.Log.WarnContext(ctx, msg, "job_id", j.ID, "url", j.URL, "err", err)
	}
}

// message explains a failure code in plain words, as the job keeps it (in English).
func message(code planner.FailureCode) string { return Failure(i18n.For(i18n.English), code) }

// Failure explains a failure code in plain words in the localizer's language (the messages
// extraction.failure_* of the catalogues).
func Failure(l *i18n.Localizer, code planner.FailureCode) string {
	switch code {
	case planner.FailureContentNotFound, planner.FailureNoPlace, planner.FailureTooLarge, planner.FailureFetch:
		return l.T("extraction.failure_" + strings.ToLower(string(code)))
	}
	return l.T("extraction.failure_unexpected_error")
}

// MaxWorkers is how many jobs an instance works at once: one more than a user may have in
// progress (planner.MaxExtractionsInProgress), so one user's slow jobs always leave a worker
// free for everyone else's, and another user's job waits at most for the quickest of the jobs
// running (docs/PERFORMANCE.md).
const MaxWorkers = planner.MaxExtractionsInProgress + 1

// fetchPollInterval is how often an instance looks for jobs to work: the database/sql driver
// cannot LISTEN, so a new job waits for the next look (half of it on average; River's
// FetchCooldown, 100 ms, is the least). It was the largest part of a normal page's time after
// the place searches (docs/PERFORMANCE.md); a look is one indexed statement.
const fetchPollInterval = 100 * time.Millisecond

// Queue is the River client: it takes jobs and works them.
type Queue struct {
	client *river.Client[*sql.Tx]
}

// Periodic is another kind of job the queue works on a schedule (see Every), or when inserted
// (see Also).
type Periodic struct {
	addWorker func(*river.Workers)
	job       *river.PeriodicJob
}

// Every makes a job of args, worked by w, that the queue runs at start and then every interval:
// River's leader instance inserts it, so one instance works each run.
func Every[T river.JobArgs](interval time.Duration, args T, w river.Worker[T]) Periodic {
	return Periodic{
		addWorker: func(ws *river.Workers) { river.AddWorker(ws, w) },
		job: river.NewPeriodicJob(river.PeriodicInterval(interval), func() (river.JobArgs, *river.InsertOpts) {
			return args, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: interval}}
		}, &river.PeriodicJobOpts{RunOnStart: true}),
	}
}

// Also adds another kind of job to the queue, inserted by whoever needs it (Queue.InsertTx),
// not on a schedule.
func Also[T river.JobArgs](w river.Worker[T]) Periodic {
	return Periodic{addWorker: func(ws *river.Workers) { river.AddWorker(ws, w) }}
}

// NewQueue makes the queue on the database, with the worker and any periodic jobs.
func NewQueue(db *sql.DB, w *Worker, log *slog.Logger, periodic ...Periodic) (*Queue, error) {
	workers := river.NewWorkers()
	river.AddWorker(workers, w)
	var periodicJobs []*river.PeriodicJob
	for _, p := range periodic {
		p.addWorker(workers)
		if p.job != nil {
			periodicJobs = append(periodicJobs, p.job)
		}
	}
	client, err := river.NewClient(riverdatabasesql.New(db), &river.Config{
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: MaxWorkers}},
		Workers:           workers,
		PeriodicJobs:      periodicJobs,
		MaxAttempts:       maxAttempts,
		FetchPollInterval: fetchPollInterval,
		Logger:            log,
	})
	if err != nil {
		return nil, err
	}
	return &Queue{client: client}, nil
}

// Enqueue schedules an extraction job inside the transaction that creates it and answers the
// River job's id.
func (q *Queue) Enqueue(ctx context.Context, tx *sql.Tx, jobID string) (int64, error) {
	r, err := q.client.InsertTx(ctx, tx, Args{JobID: jobID}, nil)
	if err != nil {
		return 0, err
	}
	return r.Job.ID, nil
}

// InsertTx schedules jobs of the kinds added with Also inside the transaction that calls for
// them.
func (q *Queue) InsertTx(ctx context.Context, tx *sql.Tx, jobs []river.InsertManyParams) error {
	_, err := q.client.InsertManyTx(ctx, tx, jobs)
	return err
}

// Cancel cancels a River job inside the transaction that dismisses its extraction job: a job
// waiting in the queue will not run; one running is marked so that River does not retry it
// (the worker notices the dismissal itself). A job River no longer holds needs nothing.
func (q *Queue) Cancel(ctx context.Context, tx *sql.Tx, queueJobID int64) error {
	_, err := q.client.JobCancelTx(ctx, tx, queueJobID)
	if errors.Is(err, rivertype.ErrNotFound) {
		return nil
	}
	return err
}

// Start works jobs until Stop.
func (q *Queue) Start(ctx context.Context) error { return q.client.Start(ctx) }

// Stop finishes the jobs at hand and stops.
func (q *Queue) Stop(ctx context.Context) error { return q.client.Stop(ctx) }

// StopAndCancel stops at once, cancelling the jobs at hand (they are retried later, by this
// or another instance), as a crash or a hurried shutdown would.
func (q *Queue) StopAndCancel(ctx context.Context) error { return q.client.StopAndCancel(ctx) }
