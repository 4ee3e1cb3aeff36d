package planner

// Limits of a file of places imported into a collection (POST /collections/{id}/imports).
const (
	ImportMaxBytes = 2 << 20 // 2 MiB
	ImportMaxRows  = 500
	// ImportAddressMax is the longest address kept; a longer one is cut (a name is never cut:
	// a row whose name is longer than CustomPlaceNameMax is skipped).
	ImportAddressMax = 200
)

// ImportRow is one place read from an imported file, before it meets the database: its name,
// and its point when the file gave one (else Query, the name to look up).
type ImportRow struct {
	Row      int // its position in the file's places, from 1
	Name     string
	Address  string
	Note     string // kept as the collection place's memo (cut at MemoMaxLength)
	URL      string // a map link the file gave, kept as a custom place's link
	HasPoint bool
	Lat, Lng float64
	// Skip is why the row cannot be used (one of the ImportSkip… reasons), or "".
	Skip ImportOutcome
}

// ImportOutcome is what became of one row.
type ImportOutcome string

const (
	// A place of the catalog or a provider: the same name within ImportMatchMeters.
	ImportMatched ImportOutcome = "MATCHED"
	// A new custom place (provider MANUAL) at the row's point.
	ImportCreated ImportOutcome = "CREATED"
	// The collection had the place (or an earlier row of the file added it).
	ImportAlreadyThere ImportOutcome = "ALREADY_THERE"

	// Skipped rows, with why.
	ImportSkipNoName      ImportOutcome = "NO_NAME"
	ImportSkipNameTooLong ImportOutcome = "NAME_TOO_LONG"
	ImportSkipBadPoint    ImportOutcome = "BAD_COORDINATES"
	ImportSkipNotAPoint   ImportOutcome = "NOT_A_POINT"
	ImportSkipNotFound    ImportOutcome = "NOT_FOUND"
	ImportSkipAmbiguous   ImportOutcome = "AMBIGUOUS"
)

// ImportMatchMeters is how near a catalog place must be to a row's point to be the same place.
const ImportMatchMeters = 100

// Skipped reports whether the outcome is a reason for skipping the row.
func (o ImportOutcome) Skipped() bool {
	return o != "" && o != ImportMatched && o != ImportCreated && o != ImportAlreadyThere
}

// ImportResult is one row's outcome: for a row that reached the collection, its collection
// place and place.
type ImportResult struct {
	Row               int
	Name              string
	Outcome           ImportOutcome
	PlaceID           string
	CollectionPlaceID string
}

// ImportReport is what an import did, row by row, with the counts.
type ImportReport struct {
	Format                                  string
	Matched, Created, AlreadyThere, Skipped int
	Rows                                    []ImportResult
}

// Count tallies the rows' outcomes.
func (r *ImportReport) Count() {
	r.Matched, r.Created, r.AlreadyThere, r.Skipped = 0, 0, 0, 0
	for _, x := range r.Rows {
		switch {
		case x.Outcome == ImportMatched:
			r.Matched++
		case x.Outcome == ImportCreated:
			r.Created++
		case x.Outcome == ImportAlreadyThere:
			r.AlreadyThere++
		default:
			r.Skipped++
		}
	}
}
