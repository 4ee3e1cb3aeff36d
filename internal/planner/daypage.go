package planner

import "sync"

// DayPage is a page of one plan day's time blocks, as a member reads it.
type DayPage struct {
	Info    DayInfo
	Blocks  []TimeBlock
	HasNext bool
	// Answers, when not nil, keeps what was rendered from this very page (encoded answers,
	// by the form they were rendered in) for as long as the page itself is served from
	// memory: the store hands a new one with every page it loads, so a rendering never
	// outlives the data it was made from. Nil when the page is not kept (a guest's read).
	Answers *Renderings
}

// Renderings are answers rendered from one loaded value, by a key of the caller's (say the
// language and the content coding).
type Renderings struct{ m sync.Map }

// Load is the rendering kept under key.
func (r *Renderings) Load(key any) (any, bool) { return r.m.Load(key) }

// Store keeps a rendering under key.
func (r *Renderings) Store(key, value any) { r.m.Store(key, value) }
