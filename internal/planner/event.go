package planner

// Event is a change to a plan or collection, as live updates deliver it.
type Event struct {
	ID       int64  `json:"id" db:"id"`
	Topic    string `json:"topic" db:"topic"` // "plan:<id>" or "collection:<id>"
	Kind     string `json:"kind" db:"kind"`   // block, candidate, opinion, expense, budget, member, plan, collections, collection, place, preference; presence (not recorded, ID 0)
	ObjectID string `json:"object_id" db:"object_id"`
	Actor    string `json:"actor" db:"actor"` // the user who made it, "" when unknown
}

// PlanTopic and CollectionTopic name the event streams of a plan and a collection.
func PlanTopic(id string) string { return "plan:" + id }

// CollectionTopic names a collection's event stream.
func CollectionTopic(id string) string { return "collection:" + id }

// KindPresence is the event of someone opening or leaving a plan: announced, never recorded.
const KindPresence = "presence"
