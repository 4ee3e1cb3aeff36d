package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"tripplan/internal/extraction"
	"tripplan/internal/fetch"
	"tripplan/internal/i18n"
	"tripplan/internal/paths"
	"tripplan/internal/planner"
	"tripplan/views"
)

type jobJSON struct {
	JobID          string               `json:"job_id"`
	RequestedAt    string               `json:"requested_at"`
	Status         planner.JobStatus    `json:"status"`
	FailureCode    *planner.FailureCode `json:"failure_code"`
	FailureMessage *string              `json:"failure_message"`
	DecisionStatus planner.Decision     `json:"decision_status"`
	DecidedAt      *string              `json:"decided_at"`
	Result         *jobResultJSON       `json:"result"`
	// Stage is what the work is at, finer than Status, since StageStartedAt; Progress, from
	// MATCHING on, how many of the page's names were looked up.
	Stage          planner.Stage     `json:"stage"`
	StageStartedAt string            `json:"stage_started_at"`
	Progress       *planner.Progress `json:"progress"`
}

type jobResultJSON struct {
	DetectedCount int                     `json:"detected_count"`
	MatchedCount  int                     `json:"matched_count"`
	MediaType     string                  `json:"media_type"`
	URL           string                  `json:"url"`
	AuthorName    string                  `json:"author_name"`
	Title         string                  `json:"title"`
	Summary       string                  `json:"summary"`
	Places        []planner.ResultPlace   `json:"places"`
	Unmatched     []planner.UnmatchedName `json:"unmatched"`
}

func instant(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func toJobJSON(j *planner.ExtractionJob) jobJSON {
	out := jobJSON{JobID: j.ID, RequestedAt: instant(j.RequestedAt), Status: j.Status, FailureCode: j.FailureCode,
		FailureMessage: j.FailureMessage, DecisionStatus: j.DecisionStatus, Stage: j.Stage, StageStartedAt: instant(j.StageStartedAt),
		Progress: j.Progress}
	if j.DecidedAt != nil {
		d := instant(*j.DecidedAt)
		out.DecidedAt = &d
	}
	if r := j.Result; r != nil {
		out.Result = &jobResultJSON{DetectedCount: r.DetectedCount, MatchedCount: r.MatchedCount, MediaType: r.MediaType, URL: r.URL,
			AuthorName: r.AuthorName, Title: r.Title, Summary: r.Summary, Places: make([]planner.ResultPlace, len(r.Places)),
			Unmatched: r.Unmatched}
		for i, p := range r.Places {
			if p.Mention == "" { // found before mentions were kept
				p.Mention = planner.MentionMentioned
			}
			out.Result.Places[i] = p
		}
		if out.Result.Unmatched == nil {
			out.Result.Unmatched = []planner.UnmatchedName{}
		}
	}
	return out
}

type extractRequest struct {
	URL string `json:"url" form:"url"`
}

// startExtraction records a request to find the places of a page and queues the work.
func (s *Server) startExtraction(c echo.Context) error {
	var in extractRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	url := strings.TrimSpace(in.URL)
	var v planner.Validation
	v.Check(url != "" && len(url) <= 2048, "url", "must be an http(s) URL of at most 2048 characters")
	if err := v.Err(); err != nil {
		return err
	}
	normalized, err := fetch.NormalizeURL(url)
	if err != nil {
		return planner.Errorf(planner.CodeSocialMediaUnsupported, "Only http and https links to web pages can be read.")
	}
	ctx := c.Request().Context()
	j, err := s.store.CreateExtractionJob(ctx, caller(c).UserID, c.Param("collectionId"), url, normalized)
	var pe *planner.Error
	if errors.As(err, &pe) && pe.Code == planner.CodeTooManyRequests {
		// The user's share of the queue is taken: say when trying again may succeed.
		if wait, ok := pe.Extra["retry_after"].(int); ok {
			c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
		}
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, jobPath(c, j.ID))
	out := struct {
		JobID  string            `json:"job_id"`
		Status planner.JobStatus `json:"status"`
	}{j.ID, j.Status}
	return respond(c, http.StatusAccepted, out, nil, views.ExtractionJob(s.jobView(c, j)))
}

func jobPath(c echo.Context, id string) string {
	return paths.Collection(c.Param("collectionId")) + "/extraction-jobs/" + id
}

// latestExtraction answers the caller's undecided job.
func (s *Server) latestExtraction(c echo.Context) error {
	j, err := s.store.LatestExtractionJob(c.Request().Context(), caller(c).UserID, c.Param("collectionId"))
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, toJobJSON(j), nil, views.ExtractionJob(s.jobView(c, j)))
}

// getExtraction answers one of the caller's jobs (the partial polls it until it is done).
func (s *Server) getExtraction(c echo.Context) error {
	j, err := s.store.ExtractionJob(c.Request().Context(), caller(c).UserID, c.Param("collectionId"), c.Param("jobId"))
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, toJobJSON(j), nil, views.ExtractionJob(s.jobView(c, j)))
}

type addFromJobRequest struct {
	PlaceIDs []string `json:"place_ids" form:"place_ids"`
}

type addedFromJobJSON struct {
	TotalCount   int                   `json:"total_count"`
	AddedCount   int                   `json:"added_count"`
	SkippedCount int                   `json:"skipped_count"`
	Places       []collectionPlaceJSON `json:"places"`
}

// addFromExtraction adds chosen places of a completed job to the collection.
func (s *Server) addFromExtraction(c echo.Context) error {
	var in addFromJobRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	v.Checkf(len(in.PlaceIDs) > 0 && len(in.PlaceIDs) <= planner.ExtractionPicksMax, "place_ids", "choose 1 to %d places", planner.ExtractionPicksMax)
	if err := v.Err(); err != nil {
		return err
	}
	r, err := s.store.AddPlacesFromJob(c.Request().Context(), caller(c).UserID, c.Param("collectionId"), c.Param("jobId"), in.PlaceIDs)
	if err != nil {
		return err
	}
	out := addedFromJobJSON{TotalCount: r.Total, AddedCount: r.Added, SkippedCount: r.Skipped, Places: make([]collectionPlaceJSON, len(r.Places))}
	for i := range r.Places {
		out.Places[i] = s.toCollectionPlaceJSON(c.Request().Context(), &r.Places[i])
	}
	return respondChange(c, http.StatusOK, out, nil, paths.Collection(c.Param("collectionId")))
}

type addCustomRequest struct {
	Name string `json:"name" form:"name"`
}

// addCustomFromExtraction adds a name the job could not find as a custom place of the
// collection; the panel swaps the name's row for a note that it was added.
func (s *Server) addCustomFromExtraction(c echo.Context) error {
	var in addCustomRequest
	if err := c.Bind(&in); err != nil {
		return err
	}
	var v planner.Validation
	name := planner.CheckText(&v, "name", in.Name, planner.CustomPlaceNameMax)
	if err := v.Err(); err != nil {
		return err
	}
	cp, err := s.store.AddCustomPlaceFromJob(c.Request().Context(), caller(c).UserID, c.Param("collectionId"), c.Param("jobId"), name)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, paths.Collection(cp.CollectionID)+"/places/"+cp.ID)
	var added templ.Component
	if wantsPartial(c) {
		c.Response().Header().Set("HX-Trigger", views.PlacesChanged)
		added = views.CustomPlaceAdded(name)
	}
	return respondChange(c, http.StatusCreated, s.toCollectionPlaceJSON(c.Request().Context(), cp), added, paths.Collection(cp.CollectionID))
}

// dismissExtraction sets the caller's job aside.
func (s *Server) dismissExtraction(c echo.Context) error {
	ctx := c.Request().Context()
	if err := s.store.DismissExtractionJob(ctx, caller(c).UserID, c.Param("collectionId"), c.Param("jobId")); err != nil {
		return err
	}
	return respondChange(c, http.StatusNoContent, nil, views.ExtractionForm(c.Param("collectionId")), paths.Collection(c.Param("collectionId")))
}

func (s *Server) jobView(c echo.Context, j *planner.ExtractionJob) views.JobView {
	v := views.JobView{CollectionID: c.Param("collectionId"), ID: j.ID, URL: j.URL, Status: string(j.Status), Done: j.Done(), Decided: j.DecisionStatus != planner.DecisionUndecided,
		Stage: string(j.Stage), StageAge: j.StageAge}
	if p := j.Progress; p != nil {
		v.Matched, v.ToMatch = p.Done, p.Total
	}
	if j.FailureCode != nil { // a failed job's reason, in the page's language
		v.Failure = extraction.Failure(i18n.From(c.Request().Context()), *j.FailureCode)
	}
	if r := j.Result; r != nil {
		v.Title, v.Summary, v.Author, v.MediaType, v.SourceURL = r.Title, r.Summary, r.AuthorName, r.MediaType, r.URL
		v.Detected = r.DetectedCount
		for _, p := range r.Places {
			v.Places = append(v.Places, views.JobPlace{SearchResult: views.SearchResult{PlaceID: p.PlaceID, Name: p.Name, Address: p.Address},
				Mention: p.Mention, Quote: p.Quote, Ticked: p.Proposed()})
		}
		for _, u := range r.Unmatched {
			v.Unmatched = append(v.Unmatched, views.UnmatchedName{Name: u.Name, Quote: u.Quote})
		}
	}
	return v
}
