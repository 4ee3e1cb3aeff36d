package planner

import "time"

// JobStatus is an extraction job's progress (API v1's status).
type JobStatus string

// Job statuses.
const (
	JobPending      JobStatus = "PENDING"
	JobExtracting   JobStatus = "EXTRACTING"
	JobSearching    JobStatus = "SEARCHING"
	JobCompleted    JobStatus = "COMPLETED"
	JobFailed       JobStatus = "FAILED"
	JobRetryWaiting JobStatus = "RETRY_WAITING"
)

// Decision is what the member who asked for a job made of it.
type Decision string

// Decisions: none yet, places chosen from it, set aside.
const (
	DecisionUndecided Decision = "UNDECIDED"
	DecisionSelected  Decision = "SELECTED"
	DecisionIgnored   Decision = "IGNORED"
)

// Stage is what a job's work is at, finer than its status (Status), for people to follow.
type Stage string

// Stages in the order the worker goes through them; a job that will be tried again waits at
// StageRetryWaiting and starts again at StageFetching.
const (
	StagePending      Stage = "PENDING"
	StageFetching     Stage = "FETCHING" // the page and its frames
	StageReading      Stage = "READING"  // analysing the page
	StageMatching     Stage = "MATCHING" // looking up its names: Progress says how many
	StageRetryWaiting Stage = "RETRY_WAITING"
	StageCompleted    Stage = "COMPLETED"
	StageFailed       Stage = "FAILED"
)

// Status is the job status (API v1) of the stage: FETCHING and READING are EXTRACTING,
// MATCHING is SEARCHING, the others their own (the constraint extraction_jobs_stage_matches_status).
func (s Stage) Status() JobStatus {
	switch s {
	case StageFetching, StageReading:
		return JobExtracting
	case StageMatching:
		return JobSearching
	}
	return JobStatus(s)
}

// SlowStageAfter is how long a stage may last before the panel says why it takes long: so that
// a job over 10 s says why, and before the fetch gives up at its own 10 s (internal/fetch),
// which the page then says (RETRY_WAITING).
const SlowStageAfter = 5 * time.Second

// Progress is how many of a page's names were looked up.
type Progress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// A user's share of the extraction queue (docs/API.md §Limits): jobs in progress (neither COMPLETED
// nor FAILED, and not dismissed) across all collections, and jobs started in any hour. Reusing
// a completed analysis queues nothing and counts toward neither.
const (
	MaxExtractionsInProgress = 3
	MaxExtractionsPerHour    = 30
)

// FailureCode says why an extraction job failed.
type FailureCode string

// Failure codes of an extraction job.
const (
	FailureContentNotFound FailureCode = "CONTENT_NOT_FOUND"
	FailureNoPlace         FailureCode = "NO_PLACE_EXTRACTED"
	FailureTooLarge        FailureCode = "CONTENT_TOO_LARGE"
	FailureFetch           FailureCode = "FETCH_FAILED"
	FailureUnexpected      FailureCode = "UNEXPECTED_ERROR"
)

// ExtractionJob is a member's request to find the places a web page talks about.
type ExtractionJob struct {
	ID             string       `db:"id"`
	CollectionID   string       `db:"collection_id"`
	URL            string       `db:"url"`
	NormalizedURL  string       `db:"normalized_url"`
	RequestedAt    time.Time    `db:"requested_at"`
	Status         JobStatus    `db:"status"`
	FailureCode    *FailureCode `db:"failure_code"`
	FailureMessage *string      `db:"failure_message"`
	DecisionStatus Decision     `db:"decision_status"`
	DecidedAt      *time.Time   `db:"decided_at"`
	Result         *ExtractionResult
	Stage          Stage     `db:"stage"`
	StageStartedAt time.Time `db:"stage_started_at"`
	// StageAge is how long the stage has lasted when the job was read (the database's clock,
	// the one that wrote StageStartedAt).
	StageAge time.Duration `db:"-"`
	Progress *Progress     `db:"-"` // names looked up: from MATCHING on
}

// Done reports whether the work is over (completed or failed).
func (j *ExtractionJob) Done() bool { return j.Status == JobCompleted || j.Status == JobFailed }

// ExtractionResult is what a completed job found.
type ExtractionResult struct {
	DetectedCount int           `json:"detected_count"`
	MatchedCount  int           `json:"matched_count"`
	SocialMediaID string        `json:"social_media_id"`
	MediaType     string        `json:"media_type"`
	URL           string        `json:"url"`
	AuthorName    string        `json:"author_name"`
	Title         string        `json:"title"`
	Summary       string        `json:"summary"`
	Places        []ResultPlace `json:"places"`
	// Unmatched are names the page lists that the place search did not find, which the
	// member may add as custom places (AddCustomPlaceFromJob).
	Unmatched []UnmatchedName `json:"unmatched"`
	// City is the city the page is about ("" when it cannot tell): a custom place's address.
	City string `json:"city,omitempty"`
}

// Mentions of a result place: why the page names it (see internal/extract).
const (
	MentionVisited     = "VISITED"
	MentionRecommended = "RECOMMENDED"
	MentionSkipped     = "SKIPPED"
	MentionPassing     = "PASSING"
	MentionMentioned   = "MENTIONED"
)

// ResultPlace is a place a job found, with why and where the page names it.
type ResultPlace struct {
	PlaceID string `json:"place_id"`
	Name    string `json:"name"`
	Address string `json:"address"`
	Mention string `json:"mention"` // one of the Mention constants; MENTIONED for results kept before mentions were
	Quote   string `json:"quote"`   // the sentence the page names it in, at most 160 characters ("" when none)
}

// Proposed says whether the panel ticks the place: not when the writer skipped it or only
// passed through.
func (p ResultPlace) Proposed() bool {
	return p.Mention != MentionSkipped && p.Mention != MentionPassing
}

// UnmatchedName is a name a page lists that the place search did not find.
type UnmatchedName struct {
	Name  string `json:"name"`
	Quote string `json:"quote"`
}

// CustomPlaceNameMax is the longest name of a custom place added from a job.
const CustomPlaceNameMax = 100

// AddedFromJob is the answer to adding a job's places to the collection.
type AddedFromJob struct {
	Total, Added, Skipped int
	Places                []CollectionPlace
}
