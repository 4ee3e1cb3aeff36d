package views

import (
	"strings"
	"time"

	"tripplan/internal/i18n"
	"tripplan/internal/places"
	"tripplan/internal/planner"
)

// The wording of a plan's or a collection's history and of notifications. Every sentence is
// built here, when it is read, from the facts the store kept (planner.Details), in the reader's
// language: one message per kind in the activity catalogue (internal/i18n/locales/activity.*).
// The names in a sentence (who, the place, the plan) are i18n.Words, so that Korean puts the
// right particle after each ("민지가 경복궁을 1일차 오전 10:00에 추가했어요"); places go by their
// names in the reader's language (placeName).

// ActivitySentence is one entry of a history as a sentence naming who did what to which thing
// ("Ana moved Gyeongbokgung Palace to Day 2, 11:00"); noun is "plan" or "collection".
func ActivitySentence(l *i18n.Localizer, a planner.Activity, noun string) string {
	who := ""
	if a.Actor != nil {
		who = a.Actor.Nickname
	}
	w := newWords(l, a.Details, who)
	d := a.Details
	nounWord := i18n.Word(l.T("activity.noun_" + noun))
	switch a.Kind {
	case planner.ActBlockAdded:
		return w.say("activity.block_added", "Block", w.block(), "Slot", w.slot())
	case planner.ActBlockMoved:
		if d.Day == d.FromDay && d.Start == d.FromStart {
			return w.say("activity.block_resized", "Block", w.block(), "End", d.End, "EndTime", w.clock(d.End), "Day", w.day())
		}
		return w.say("activity.block_moved", "Block", w.block(), "Slot", w.slot())
	case planner.ActBlockRemoved:
		return w.say("activity.block_removed", "Block", w.block(), "Slot", w.slot())
	case planner.ActBlockRestored:
		return w.say("activity.block_restored", "Block", w.block(), "Slot", w.slot())
	case planner.ActCandidateAdded:
		return w.say("activity.candidate_added", "Place", w.place(), "Slot", w.slot())
	case planner.ActCandidateRemoved:
		return w.say("activity.candidate_removed", "Place", w.place(), "Slot", w.slot())
	case planner.ActCandidateConfirmed:
		return w.say("activity.candidate_confirmed", "Place", w.place(), "Slot", w.slot())
	case planner.ActOpinionAdded, planner.ActOpinionChanged, planner.ActOpinionRemoved:
		return w.say(opinionID("activity.opinion_", a.Kind, d), "Place", w.place())
	case planner.ActExpenseAdded, planner.ActExpenseChanged, planner.ActExpenseRemoved:
		return w.expense(a.Kind)
	case planner.ActMemberJoined:
		return w.say("activity.joined", "Noun", nounWord)
	case planner.ActMemberLeft:
		return w.say("activity.left", "Member", i18n.Word(d.Member), "Noun", nounWord)
	case planner.ActMemberRemoved:
		return w.say("activity.member_removed", "Member", i18n.Word(d.Member), "Noun", nounWord)
	case planner.ActOwnerChanged:
		return w.say("activity.owner_changed", "Member", i18n.Word(d.Member))
	case planner.ActPlanRenamed:
		return w.say("activity.plan_renamed", "From", d.FromTitle, "Title", d.Title, "Quoted", i18n.Word("“"+d.Title+"”"))
	case planner.ActPlanDatesChanged:
		return w.say("activity.dates_changed", "Dates", i18n.Word(datesLabel(l, d.StartDate, d.EndDate)))
	case planner.ActDaysSwapped:
		return w.say("dayops.activity_swapped", "Day", d.Day, "With", d.FromDay)
	case planner.ActDayOptimised:
		return w.say("optimise.activity", "Day", d.Day)
	case planner.ActPlanRestored:
		return w.say("restore.activity")
	case planner.ActPlaceAdded:
		return w.say("activity.place_added", "Place", w.place())
	case planner.ActPlaceRemoved:
		return w.say("activity.place_removed", "Place", w.place())
	case planner.ActSettlementRecorded:
		return w.say("activity.settlement_recorded", "Payer", i18n.Word(d.Payer), "Payee", i18n.Word(d.Payee), "Money", w.money())
	case planner.ActSettlementDeleted:
		return w.say("activity.settlement_deleted", "Payer", i18n.Word(d.Payer), "Payee", i18n.Word(d.Payee), "Money", w.money())
	}
	return w.say("activity.changed", "Noun", nounWord)
}

// TargetName is the name of what an entry of a history is about, as it was then.
func TargetName(l *i18n.Localizer, a planner.Activity) string {
	d := a.Details
	switch a.Target.Type {
	case planner.TargetTimeBlock:
		if len(d.Places) == 0 {
			return l.T("activity.free_time_name")
		}
		return blockName(l, d)
	case planner.TargetExpense:
		if d.Place != "" {
			return placeName(l, d, d.Place)
		}
		return expenseName(l, d)
	case planner.TargetMember:
		return d.Member
	case planner.TargetPlan:
		return d.Title
	case planner.TargetSettlement:
		return l.T("activity.settlement_name", "Payer", d.Payer, "Payee", d.Payee, "Money", moneyOf(l, d))
	}
	return placeName(l, d, d.Place)
}

// NotificationMessage is a notification's text: what happened, naming the place or block and
// the day and time where one applies, for the member it was sent to. Notifications that stand
// for several events (merged within a minute) name the latest and say how many more there were.
// Notifications written before their facts were kept say less (oldNotice), or, when their text
// could not be read back into facts, what they said then.
func NotificationMessage(l *i18n.Localizer, n planner.Notification) string {
	if n.Details == nil {
		return n.Message
	}
	d := *n.Details
	w := newWords(l, d, d.Actor)
	in := i18n.Word(d.In)
	kind := planner.ActivityKind(n.EventType)
	if s, ok := oldNotice(w, kind, n.Count, in); ok {
		return s
	}
	more := n.Count - 1
	switch kind {
	case planner.ActBlockAdded:
		if more > 0 {
			return w.say("activity.notice_blocks_added", "Block", w.block(), "Count", more, "Day", w.day(), "In", in)
		}
		return w.say("activity.notice_block_added", "Block", w.block(), "Slot", w.slot(), "In", in)
	case planner.ActBlockRemoved:
		if more > 0 {
			return w.say("activity.notice_blocks_removed", "Block", w.block(), "Slot", w.slot(), "Count", more, "In", in)
		}
		return w.say("activity.notice_block_removed", "Block", w.block(), "Slot", w.slot(), "In", in)
	case planner.ActBlockRestored:
		return w.say("activity.notice_block_restored", "Block", w.block(), "Slot", w.slot(), "In", in)
	case planner.ActCandidateAdded:
		if more > 0 {
			return w.say("activity.notice_candidates_added", "Place", w.place(), "Count", more, "Slot", w.slot(), "In", in)
		}
		return w.say("activity.notice_candidate_added", "Place", w.place(), "Slot", w.slot(), "In", in)
	case planner.ActCandidateConfirmed:
		return w.say("activity.notice_candidate_confirmed", "Place", w.place(), "Slot", w.slot(), "In", in)
	case planner.ActOpinionAdded, planner.ActOpinionChanged, planner.ActOpinionRemoved:
		return w.say(opinionID("activity.notice_opinion_", kind, d), "Place", w.place(), "Slot", w.slot(), "In", in)
	case planner.ActPreferenceAdded:
		id := "activity.notice_picked"
		if d.Preference == planner.PreferencePass {
			id = "activity.notice_passed"
		}
		return w.say(id, "Place", w.place(), "In", in)
	case planner.ActPreferenceRemoved:
		id := "activity.notice_pick_taken_back"
		if d.Preference == planner.PreferencePass {
			id = "activity.notice_pass_taken_back"
		}
		return w.say(id, "Place", w.place(), "In", in)
	case planner.ActExpenseAdded:
		if more > 0 {
			return w.say("activity.notice_expenses_added", "Count", n.Count, "In", in, "Expense", w.expenseName(), "Money", w.money())
		}
		return w.say("activity.notice_expense_added", "In", in, "Expense", w.expenseName(), "Money", w.money(), "Day", w.day())
	case planner.ActDaysSwapped:
		return w.say("dayops.notice_swapped", "Day", d.Day, "With", d.FromDay, "In", in)
	case planner.ActDayOptimised:
		return w.say("optimise.notice", "Day", d.Day, "In", in)
	case planner.ActMemberJoined:
		return w.say("activity.notice_joined", "In", in)
	case planner.ActPlaceAdded:
		if more > 0 {
			return w.say("activity.notice_places_added", "Place", w.place(), "Count", more, "In", in)
		}
		return w.say("activity.notice_place_added", "Place", w.place(), "In", in)
	case planner.ActPlaceRemoved:
		if more > 0 {
			return w.say("activity.notice_places_removed", "Place", w.place(), "Count", more, "In", in)
		}
		return w.say("activity.notice_place_removed", "Place", w.place(), "In", in)
	case planner.ActExtractionCompleted:
		return w.say("activity.notice_extraction_completed", "In", in)
	case planner.ActExtractionFailed:
		return w.say("activity.notice_extraction_failed", "In", in)
	}
	return w.say("activity.notice_changed", "In", in)
}

// oldNotice says a notification written before its facts were kept, whose English text
// migration 00024 read back into them: that text seldom named the place or the block, nor when,
// so it is said without them, with how many events it stands for. ok is false for a
// notification with the facts its kind keeps now.
func oldNotice(w words, kind planner.ActivityKind, count int, in i18n.Word) (s string, ok bool) {
	d := w.d
	switch {
	case kind == planner.ActBlockAdded && d.Start == "" && count > 1:
		return w.say("activity.notice_old_blocks_added", "Count", count, "Day", w.day(), "In", in), true
	case kind == planner.ActBlockAdded && d.Start == "":
		return w.say("activity.notice_old_block_added", "Block", w.block(), "Day", w.day(), "In", in), true
	case kind == planner.ActBlockRemoved && d.Day == 0:
		return w.say("activity.notice_old_blocks_removed", "Count", count, "In", in), true
	case kind == planner.ActCandidateAdded && d.Place == "":
		return w.say("activity.notice_old_candidates_added", "Count", count, "Slot", w.slot(), "In", in), true
	case kind == planner.ActCandidateConfirmed && d.Day == 0:
		return w.say("activity.notice_old_candidate_confirmed", "In", in), true
	case kind == planner.ActOpinionAdded && d.Day == 0:
		return w.say("activity.notice_old_opinions", "Count", count, "In", in), true
	case kind == planner.ActExpenseAdded && d.Amount == nil:
		return w.say("activity.notice_old_expenses_added", "Count", count, "In", in), true
	case kind == planner.ActPlaceAdded && d.Place == "":
		return w.say("activity.notice_old_places_added", "Count", count, "In", in), true
	case kind == planner.ActPlaceRemoved && d.Place == "":
		return w.say("activity.notice_old_places_removed", "Count", count, "In", in), true
	case kind == planner.ActPreferenceAdded && d.Place == "":
		switch d.Preference {
		case planner.PreferencePick:
			return w.say("activity.notice_old_picked", "In", in), true
		case planner.PreferencePass:
			return w.say("activity.notice_old_passed", "In", in), true
		}
		return w.say("activity.notice_old_picked_or_passed", "Count", count, "In", in), true
	}
	return "", false
}

// words are the names a sentence about d puts together, in the localizer's language.
type words struct {
	l   *i18n.Localizer
	d   planner.Details
	who i18n.Word
}

// newWords are the words of a sentence about d done by who ("" for "Someone").
func newWords(l *i18n.Localizer, d planner.Details, who string) words {
	if who == "" {
		who = l.T("activity.someone")
	}
	return words{l: l, d: d, who: i18n.Word(who)}
}

// say is the message id said by the one who did it (Who), with the other values given as pairs.
func (w words) say(id string, pairs ...any) string {
	return w.l.T(id, append([]any{"Who", w.who}, pairs...)...)
}

func (w words) place() i18n.Word       { return i18n.Word(placeName(w.l, w.d, w.d.Place)) }
func (w words) block() i18n.Word       { return i18n.Word(blockName(w.l, w.d)) }
func (w words) day() string            { return dayLabel(w.l, w.d.Day) }
func (w words) expenseName() i18n.Word { return i18n.Word(expenseName(w.l, w.d)) }
func (w words) money() i18n.Word       { return i18n.Word(moneyOf(w.l, w.d)) }

// slot is the block's day and start: "Day 2, 11:00", "2일차 오전 11:00".
func (w words) slot() timed {
	return timed{w.l.T("activity.slot", "Day", w.d.Day, "Start", w.d.Start, "Time", w.l.Clock(w.d.Start)), w.d.Start}
}

// clock is a "15:04" time as the language writes it.
func (w words) clock(hhmm string) timed { return timed{w.l.Clock(hhmm), hhmm} }

// expense says what someone did to an expense: an additional one by its first line, a
// candidate's costs by its place.
func (w words) expense(kind planner.ActivityKind) string {
	if w.d.Place != "" {
		if kind == planner.ActExpenseRemoved {
			return w.say("activity.costs_cleared", "Place", w.place())
		}
		return w.say("activity.costs_set", "Place", w.place(), "Money", w.money())
	}
	switch kind {
	case planner.ActExpenseAdded:
		return w.say("activity.expense_added", "Day", w.day(), "Expense", w.expenseName(), "Money", w.money())
	case planner.ActExpenseRemoved:
		return w.say("activity.expense_removed", "Expense", w.expenseName(), "Money", w.money())
	}
	return w.say("activity.expense_changed", "Expense", w.expenseName(), "Money", w.money())
}

// opinionID is the message (under prefix) saying what someone thinks of a candidate's place
// now, or that they took it back.
func opinionID(prefix string, kind planner.ActivityKind, d planner.Details) string {
	if kind == planner.ActOpinionRemoved {
		return prefix + "removed"
	}
	id := prefix + "neutral"
	switch d.Opinion {
	case planner.OpinionPositive:
		id = prefix + "positive"
	case planner.OpinionNegative:
		id = prefix + "negative"
	}
	if kind == planner.ActOpinionChanged {
		id += "_now"
	}
	return id
}

// timed is a phrase that ends in a time of day ("1일차 오전 11:00"), with the particle Korean
// puts after it: a time is read in hours ("열한 시") or in hours and minutes ("열한 시 삼십
// 분"), so the phrase ends in 시 or in 분, whatever its last digit.
type timed struct{ text, hhmm string }

func (t timed) String() string { return t.text }

// Euro is the phrase with "to": 로 after 시, 으로 after 분.
func (t timed) Euro() string {
	if strings.HasSuffix(t.hhmm, ":00") {
		return t.text + "로"
	}
	return t.text + "으로"
}

// expenseName names an additional expense by its first line ("Taxi and 2 more").
func expenseName(l *i18n.Localizer, d planner.Details) string {
	switch {
	case d.Expense == "":
		return l.T("activity.an_expense")
	case d.Lines > 1:
		return l.T("activity.expense_and_more", "Expense", d.Expense, "N", d.Lines-1)
	}
	return d.Expense
}

// moneyOf is an expense's total, or a recorded payment's amount, in its currency.
func moneyOf(l *i18n.Localizer, d planner.Details) string {
	var amount int64
	if d.Amount != nil {
		amount = *d.Amount
	}
	return l.Money(amount, d.Currency)
}

// blockName names a time block: its confirmed place, its candidates while it is undecided
// ("Tosokchon or Gwangjang Market"), or free time.
func blockName(l *i18n.Localizer, d planner.Details) string {
	if len(d.Places) == 0 {
		return l.T("activity.free_time")
	}
	name := placeName(l, d, d.Places[0])
	for _, p := range d.Places[1:] {
		name = l.T("activity.either", "A", name, "B", placeName(l, d, p))
	}
	return name
}

// placeName is how a reader of l's language sees the place d names name (places.DisplayName):
// in Korean 경복궁 for Gyeongbokgung Palace, from the other names d kept; facts kept without
// them say the name as it was stored.
func placeName(l *i18n.Localizer, d planner.Details, name string) string {
	shown, _ := places.DisplayName(string(l.Lang()), planner.Place{Name: name, Names: d.Names[name]})
	return shown
}

// dayLabel is "Day 2", "2일차".
func dayLabel(l *i18n.Localizer, n int) string { return l.T("activity.day", "Day", n) }

// datesLabel is a plan's dates (YYYY-MM-DD) as Dates writes them.
func datesLabel(l *i18n.Localizer, start, end string) string {
	s, err1 := time.Parse(time.DateOnly, start)
	e, err2 := time.Parse(time.DateOnly, end)
	if err1 != nil || err2 != nil {
		return start + " – " + end
	}
	return Dates(l, s, e)
}

// Dates is a plan's first and last day as the plan's cards and history show them:
// "Nov 21 – Nov 24, 2026", "2026년 11월 21일 – 11월 24일".
func Dates(l *i18n.Localizer, start, end time.Time) string {
	short, long := l.T("common.date_short"), l.T("common.date_long")
	return l.T("common.dates", "StartShort", start.Format(short), "StartLong", start.Format(long),
		"EndShort", end.Format(short), "EndLong", end.Format(long))
}

// Moment is a point in time to the minute, for a title or a list: "Fri 27 Nov, 2:05 PM",
// "11월 27일 (금) 오후 2:05".
func Moment(l *i18n.Localizer, t time.Time) string {
	return l.T("common.moment", "Date", l.Date(t), "Time", l.Clock(t.Format("15:04")))
}
