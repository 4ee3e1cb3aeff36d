package views

import (
	"strconv"
	"strings"
	"time"

	"tripplan/internal/planner"
)

// The wording of a plan's or a collection's history and of notifications. Every sentence is
// built here, when it is read, from the facts the store kept (planner.Details): one function
// per kind, in English for now, so that translating them touches this file only.

// ActivitySentence is one entry of a history as a sentence naming who did what to which thing
// ("Ana moved Gyeongbokgung Palace to Day 2, 11:00"); noun is "plan" or "collection".
func ActivitySentence(a planner.Activity, noun string) string {
	who := "Someone"
	if a.Actor != nil && a.Actor.Nickname != "" {
		who = a.Actor.Nickname
	}
	d := a.Details
	switch a.Kind {
	case planner.ActBlockAdded:
		return who + " added " + blockName(d) + " to " + slotLabel(d.Day, d.Start)
	case planner.ActBlockMoved:
		if d.Day == d.FromDay && d.Start == d.FromStart {
			return who + " made " + blockName(d) + " end at " + d.End + " (" + dayLabel(d.Day) + ")"
		}
		return who + " moved " + blockName(d) + " to " + slotLabel(d.Day, d.Start)
	case planner.ActBlockRemoved:
		return who + " removed " + blockName(d) + " from " + slotLabel(d.Day, d.Start)
	case planner.ActBlockRestored:
		return who + " put back " + blockName(d) + " at " + slotLabel(d.Day, d.Start)
	case planner.ActCandidateAdded:
		return who + " added " + d.Place + " as a candidate for " + slotLabel(d.Day, d.Start)
	case planner.ActCandidateRemoved:
		return who + " removed the candidate " + d.Place + " from " + slotLabel(d.Day, d.Start)
	case planner.ActCandidateConfirmed:
		return who + " confirmed " + d.Place + " for " + slotLabel(d.Day, d.Start)
	case planner.ActOpinionAdded, planner.ActOpinionChanged, planner.ActOpinionRemoved:
		return opinionSentence(who, a.Kind, d)
	case planner.ActExpenseAdded, planner.ActExpenseChanged, planner.ActExpenseRemoved:
		return expenseSentence(who, a.Kind, d)
	case planner.ActMemberJoined:
		return who + " joined the " + noun
	case planner.ActMemberLeft:
		return d.Member + " left the " + noun
	case planner.ActMemberRemoved:
		return who + " removed " + d.Member + " from the " + noun
	case planner.ActOwnerChanged:
		return who + " made " + d.Member + " the owner"
	case planner.ActPlanRenamed:
		return who + " renamed the plan from “" + d.FromTitle + "” to “" + d.Title + "”"
	case planner.ActPlanDatesChanged:
		return who + " changed the dates to " + datesLabel(d.StartDate, d.EndDate)
	case planner.ActPlaceAdded:
		return who + " added " + d.Place + " to the collection"
	case planner.ActPlaceRemoved:
		return who + " removed " + d.Place + " from the collection"
	}
	return who + " changed the " + noun
}

// TargetName is the name of what an entry of a history is about, as it was then.
func TargetName(a planner.Activity) string {
	d := a.Details
	switch a.Target.Type {
	case planner.TargetTimeBlock:
		if len(d.Places) == 0 {
			return "Free time"
		}
		return blockName(d)
	case planner.TargetExpense:
		if d.Place != "" {
			return d.Place
		}
		return expenseName(d)
	case planner.TargetMember:
		return d.Member
	case planner.TargetPlan:
		return d.Title
	}
	return d.Place
}

// NotificationMessage is a notification's text: what happened, naming the place or block and
// the day and time where one applies, for the member it was sent to. Notifications that stand
// for several events (merged within a minute) name the latest and say how many more there were.
// Notifications written before their facts were kept have their text already.
func NotificationMessage(n planner.Notification) string {
	if n.Details == nil {
		return n.Message
	}
	d := *n.Details
	who := d.Actor
	if who == "" {
		who = "Someone"
	}
	more := n.Count - 1
	switch planner.ActivityKind(n.EventType) {
	case planner.ActBlockAdded:
		if more > 0 {
			return who + " added " + blockName(d) + " and " + countOf(more, "more block", "more blocks") + " to " + dayLabel(d.Day) + " in " + d.In
		}
		return who + " added " + blockName(d) + " to " + slotLabel(d.Day, d.Start) + " in " + d.In
	case planner.ActBlockRemoved:
		if more > 0 {
			return who + " removed " + blockName(d) + " (" + slotLabel(d.Day, d.Start) + ") and " + countOf(more, "more block", "more blocks") + " from " + d.In
		}
		return who + " removed " + blockName(d) + " (" + slotLabel(d.Day, d.Start) + ") from " + d.In
	case planner.ActBlockRestored:
		return who + " put back " + blockName(d) + " (" + slotLabel(d.Day, d.Start) + ") in " + d.In
	case planner.ActCandidateAdded:
		if more > 0 {
			return who + " proposed " + d.Place + " and " + countOf(more, "more place", "more places") + " for " + slotLabel(d.Day, d.Start) + " in " + d.In
		}
		return who + " proposed " + d.Place + " for " + slotLabel(d.Day, d.Start) + " in " + d.In
	case planner.ActCandidateConfirmed:
		return who + " confirmed " + d.Place + ", which you proposed, for " + slotLabel(d.Day, d.Start) + " in " + d.In
	case planner.ActOpinionAdded, planner.ActOpinionChanged, planner.ActOpinionRemoved:
		return opinionSentence(who, planner.ActivityKind(n.EventType), d) + ", which you proposed for " + slotLabel(d.Day, d.Start) + " in " + d.In
	case planner.ActPreferenceAdded:
		verb := " picked "
		if d.Preference == planner.PreferencePass {
			verb = " passed on "
		}
		return who + verb + d.Place + ", which you added to " + d.In
	case planner.ActPreferenceRemoved:
		what := " took back their pick of "
		if d.Preference == planner.PreferencePass {
			what = " took back their pass on "
		}
		return who + what + d.Place + ", which you added to " + d.In
	case planner.ActExpenseAdded:
		if more > 0 {
			return who + " added " + countOf(n.Count, "expense", "expenses") + " to " + d.In + ", the latest " + expenseName(d) + ", " + moneyOf(d)
		}
		return who + " added an expense to " + d.In + ": " + expenseName(d) + ", " + moneyOf(d) + " (" + dayLabel(d.Day) + ")"
	case planner.ActMemberJoined:
		return who + " joined " + d.In
	case planner.ActPlaceAdded:
		if more > 0 {
			return who + " added " + d.Place + " and " + countOf(more, "more place", "more places") + " to " + d.In
		}
		return who + " added " + d.Place + " to " + d.In
	case planner.ActPlaceRemoved:
		if more > 0 {
			return who + " removed " + d.Place + " and " + countOf(more, "more place", "more places") + " from " + d.In
		}
		return who + " removed " + d.Place + " from " + d.In
	case planner.ActExtractionCompleted:
		return "Places from your link are ready to add to " + d.In
	case planner.ActExtractionFailed:
		return "We could not find places on your link for " + d.In
	}
	return who + " changed " + d.In
}

// opinionSentence says what someone thinks of a candidate's place, or that they took it back.
func opinionSentence(who string, kind planner.ActivityKind, d planner.Details) string {
	if kind == planner.ActOpinionRemoved {
		return who + " took back their opinion on " + d.Place
	}
	now := ""
	if kind == planner.ActOpinionChanged {
		now = "now "
	}
	switch d.Opinion {
	case planner.OpinionPositive:
		return who + " " + now + "likes " + d.Place
	case planner.OpinionNegative:
		return who + " " + now + "doesn't like " + d.Place
	}
	return who + " " + now + "is unsure about " + d.Place
}

// expenseSentence says what someone did to an expense: an additional one by its first line, a
// candidate's costs by its place.
func expenseSentence(who string, kind planner.ActivityKind, d planner.Details) string {
	if d.Place != "" {
		if kind == planner.ActExpenseRemoved {
			return who + " cleared the costs of " + d.Place
		}
		return who + " set the costs of " + d.Place + " to " + moneyOf(d)
	}
	switch kind {
	case planner.ActExpenseAdded:
		return who + " added an expense on " + dayLabel(d.Day) + ": " + expenseName(d) + ", " + moneyOf(d)
	case planner.ActExpenseRemoved:
		return who + " deleted the expense " + expenseName(d) + " (" + moneyOf(d) + ")"
	}
	return who + " changed the expense " + expenseName(d) + " to " + moneyOf(d)
}

// expenseName names an additional expense by its first line ("Taxi and 2 more").
func expenseName(d planner.Details) string {
	switch {
	case d.Expense == "":
		return "an expense"
	case d.Lines > 1:
		return d.Expense + " and " + strconv.Itoa(d.Lines-1) + " more"
	}
	return d.Expense
}

// moneyOf is an expense's total in its currency.
func moneyOf(d planner.Details) string {
	var amount int64
	if d.Amount != nil {
		amount = *d.Amount
	}
	return Money(amount, d.Currency)
}

// blockName names a time block: its confirmed place, its candidates while it is undecided
// ("Tosokchon or Gwangjang Market"), or free time.
func blockName(d planner.Details) string {
	if len(d.Places) == 0 {
		return "free time"
	}
	return strings.Join(d.Places, " or ")
}

// dayLabel is "Day 2"; slotLabel is "Day 2, 11:00".
func dayLabel(n int) string { return "Day " + strconv.Itoa(n) }

func slotLabel(n int, start string) string { return dayLabel(n) + ", " + start }

// countOf is "1 more place" or "3 more places".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// datesLabel is a plan's dates as the plan page shows them: "Nov 21 – Nov 24, 2026".
func datesLabel(start, end string) string {
	s, err1 := time.Parse(time.DateOnly, start)
	e, err2 := time.Parse(time.DateOnly, end)
	if err1 != nil || err2 != nil {
		return start + " – " + end
	}
	return s.Format("Jan 2") + " – " + e.Format("Jan 2, 2006")
}

// RelativeTime says how long before now t was, as people say it (the activity panel, the
// picker's opinions): "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then the
// date ("2 Mar", with the year when it is not now's).
func RelativeTime(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + " min ago"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " h ago"
	case d < 48*time.Hour:
		return "yesterday"
	case d < 7*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + " days ago"
	case t.Year() == now.Year():
		return t.UTC().Format("2 Jan")
	}
	return t.UTC().Format("2 Jan 2006")
}
