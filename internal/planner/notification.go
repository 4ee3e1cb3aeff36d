package planner

import "time"

// Notification categories.
const (
	NotifyPlan       = "PLAN"
	NotifyCollection = "COLLECTION"
	NotifySystem     = "SYSTEM"
)

// Notification is a message to one user about something another did.
type Notification struct {
	ID        string `db:"id"`
	Category  string `db:"category"`
	EventType string `db:"event_type"`
	// Details are the facts its message is rendered from (nil for notifications written before
	// they were kept whose text could not be read back into them: Message holds their text).
	Details *Details `db:"-"`
	Message string   `db:"message"`
	LinkURL string   `db:"link_url"`
	// Count is how many events of one actor on one target it stands for (merged within a minute).
	Count     int        `db:"event_count"`
	ReadAt    *time.Time `db:"read_at"`
	CreatedAt time.Time  `db:"created_at"` // the latest event's time
}
