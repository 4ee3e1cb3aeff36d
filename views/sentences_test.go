package views

import (
	"testing"
	"time"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
)

// The sentences the HTTP tests do not reach: undecided blocks, neutral opinions, passes, how
// long ago, and notifications written before their facts were kept.
func TestSentences(t *testing.T) {
	en := i18n.For(i18n.English)
	ana := &planner.Member{Nickname: "Ana"}
	cases := []struct{ got, want string }{
		{ActivitySentence(en, planner.Activity{Kind: planner.ActBlockMoved, Actor: ana, Details: planner.Details{
			Places: []string{"Tosokchon", "Gwangjang Market"}, Day: 1, Start: "12:00", FromDay: 2, FromStart: "12:00"}}, "plan"),
			"Ana moved Tosokchon or Gwangjang Market to Day 1, 12:00"},
		{ActivitySentence(en, planner.Activity{Kind: planner.ActOpinionAdded, Details: planner.Details{Place: "Tosokchon", Opinion: planner.OpinionNeutral}}, "plan"),
			"Someone is unsure about Tosokchon"},
		{TargetName(en, planner.Activity{Target: planner.Target{Type: planner.TargetTimeBlock}, Details: planner.Details{Places: []string{"A", "B"}}}), "A or B"},
		{NotificationMessage(en, planner.Notification{EventType: string(planner.ActPreferenceAdded), Count: 1,
			Details: &planner.Details{Actor: "Ben", In: "Seoul", Place: "Tosokchon", Preference: planner.PreferencePass}}),
			"Ben passed on Tosokchon, which you added to Seoul"},
		{NotificationMessage(en, planner.Notification{EventType: string(planner.ActBlockAdded), Count: 3,
			Details: &planner.Details{Actor: "Ben", In: "Seoul trip", Places: []string{"Tosokchon"}, Day: 2, Start: "12:00"}}),
			"Ben added Tosokchon and 2 more blocks to Day 2 in Seoul trip"},
		{NotificationMessage(en, planner.Notification{EventType: string(planner.ActBlockAdded), Message: "Ben added a block to Seoul trip (day 2)"}),
			"Ben added a block to Seoul trip (day 2)"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %q, want %q", i, c.got, c.want)
		}
	}
}

// The sentences in Korean: the particles follow each name's last syllable (민지가, Ben이(가) for
// a name in Latin letters, 경복궁을, 카페를), the slots are "1일차 오전 10:00", and a time takes
// 로 after 시 and 으로 after 분.
func TestSentencesInKorean(t *testing.T) {
	ko := i18n.For(i18n.Korean)
	minji, junho := &planner.Member{Nickname: "민지"}, &planner.Member{Nickname: "준혁"}
	amount := int64(12000)
	act := func(kind planner.ActivityKind, actor *planner.Member, d planner.Details) string {
		return ActivitySentence(ko, planner.Activity{Kind: kind, Actor: actor, Details: d}, "plan")
	}
	note := func(kind planner.ActivityKind, count int, d planner.Details) string {
		return NotificationMessage(ko, planner.Notification{EventType: string(kind), Count: count, Details: &d})
	}
	cases := []struct{ got, want string }{
		{act(planner.ActBlockAdded, minji, planner.Details{Places: []string{"경복궁"}, Day: 1, Start: "10:00"}),
			"민지가 1일차 오전 10:00에 경복궁을 추가했어요"},
		{act(planner.ActBlockAdded, junho, planner.Details{Places: []string{"블루보틀 카페"}, Day: 2, Start: "15:30"}),
			"준혁이 2일차 오후 3:30에 블루보틀 카페를 추가했어요"},
		{act(planner.ActBlockMoved, minji, planner.Details{Places: []string{"토속촌", "광장시장"}, Day: 2, Start: "11:00", FromDay: 1, FromStart: "12:00"}),
			"민지가 토속촌 또는 광장시장을 2일차 오전 11:00로 옮겼어요"},
		{act(planner.ActBlockMoved, minji, planner.Details{Places: []string{"남산타워"}, Day: 2, Start: "11:30", FromDay: 2, FromStart: "12:00"}),
			"민지가 남산타워를 2일차 오전 11:30으로 옮겼어요"},
		{act(planner.ActBlockMoved, minji, planner.Details{Places: []string{"경복궁"}, Day: 1, Start: "10:00", End: "13:00", FromDay: 1, FromStart: "10:00"}),
			"민지가 경복궁의 끝나는 시간을 오후 1:00로 바꿨어요 (1일차)"},
		{act(planner.ActBlockRemoved, nil, planner.Details{Day: 3, Start: "09:00"}),
			"누군가가 3일차 오전 9:00의 자유 시간을 삭제했어요"},
		{act(planner.ActCandidateConfirmed, minji, planner.Details{Place: "광장시장", Day: 1, Start: "12:00"}),
			"민지가 1일차 오후 12:00 일정을 광장시장으로 확정했어요"},
		{act(planner.ActOpinionAdded, junho, planner.Details{Place: "광장시장", Opinion: planner.OpinionPositive}),
			"준혁은 광장시장이 좋대요"},
		{act(planner.ActOpinionChanged, minji, planner.Details{Place: "카페", Opinion: planner.OpinionNegative}),
			"민지는 이제 카페가 별로래요"},
		{act(planner.ActExpenseChanged, minji, planner.Details{Place: "토속촌", Amount: &amount, Currency: "KRW"}),
			"민지가 토속촌의 비용을 12,000원으로 정했어요"},
		{act(planner.ActExpenseRemoved, minji, planner.Details{Expense: "택시", Lines: 3, Amount: &amount, Currency: "KRW"}),
			"민지가 지출 택시 외 2건을 삭제했어요 (12,000원)"},
		{act(planner.ActMemberRemoved, minji, planner.Details{Member: "준혁"}), "민지가 준혁 님을 여행에서 내보냈어요"},
		{act(planner.ActSettlementRecorded, minji, planner.Details{Payer: "준혁", Payee: "민지", Amount: &amount, Currency: "KRW"}),
			"민지가 준혁 님이 민지 님에게 12,000원을 보냈다고 기록했어요"},
		{act(planner.ActSettlementDeleted, junho, planner.Details{Payer: "준혁", Payee: "민지", Amount: &amount, Currency: "KRW"}),
			"준혁이 준혁 님이 민지 님에게 12,000원 보낸 기록을 삭제했어요"},
		{TargetName(ko, planner.Activity{Target: planner.Target{Type: planner.TargetSettlement}, Details: planner.Details{Payer: "준혁", Payee: "민지", Amount: &amount, Currency: "KRW"}}),
			"준혁 → 민지, 12,000원"},
		{act(planner.ActPlanRenamed, minji, planner.Details{FromTitle: "서울", Title: "부산 여행"}),
			"민지가 여행 이름을 “서울”에서 “부산 여행”으로 바꿨어요"},
		{act(planner.ActPlanDatesChanged, minji, planner.Details{StartDate: "2026-11-21", EndDate: "2026-11-24"}),
			"민지가 날짜를 2026년 11월 21일 – 11월 24일로 바꿨어요"},
		{ActivitySentence(ko, planner.Activity{Kind: planner.ActPlaceAdded, Actor: &planner.Member{Nickname: "Ben"},
			Details: planner.Details{Place: "Café Onion"}}, "collection"),
			"Ben이(가) 컬렉션에 Café Onion을(를) 추가했어요"},
		{ActivitySentence(ko, planner.Activity{Kind: planner.ActMemberJoined, Actor: junho}, "collection"), "준혁이 컬렉션에 참여했어요"},
		{TargetName(ko, planner.Activity{Target: planner.Target{Type: planner.TargetTimeBlock}}), "자유 시간"},
		{note(planner.ActBlockAdded, 3, planner.Details{Actor: "민지", In: "서울 여행", Places: []string{"토속촌"}, Day: 2, Start: "12:00"}),
			"민지가 서울 여행 2일차에 토속촌 외 일정 2개를 추가했어요"},
		{note(planner.ActCandidateAdded, 1, planner.Details{Actor: "준혁", In: "서울 여행", Place: "경복궁", Day: 1, Start: "10:00"}),
			"준혁이 서울 여행 1일차 오전 10:00 후보로 경복궁을 제안했어요"},
		{note(planner.ActOpinionAdded, 1, planner.Details{Actor: "민지", In: "서울 여행", Place: "경복궁", Day: 1, Start: "10:00", Opinion: planner.OpinionPositive}),
			"민지는 회원님이 서울 여행 1일차 오전 10:00에 제안한 경복궁이 좋대요"},
		{note(planner.ActCandidateConfirmed, 1, planner.Details{Actor: "민지", In: "서울 여행", Place: "광장시장", Day: 1, Start: "12:30"}),
			"민지가 서울 여행 1일차 오후 12:30 일정을 회원님이 제안한 광장시장으로 확정했어요"},
		{note(planner.ActPreferenceAdded, 1, planner.Details{Actor: "민지", In: "서울 맛집", Place: "토속촌", Preference: planner.PreferencePick}),
			"민지가 회원님이 서울 맛집에 추가한 토속촌을 찜했어요"},
		{note(planner.ActPlaceRemoved, 2, planner.Details{Actor: "민지", In: "서울 맛집", Place: "토속촌"}),
			"민지가 서울 맛집에서 토속촌 외 1곳을 뺐어요"},
		{note(planner.ActExtractionFailed, 1, planner.Details{In: "서울 맛집"}), "서울 맛집에 넣을 장소를 링크에서 찾지 못했어요"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %q, want %q", i, c.got, c.want)
		}
	}
}

func TestDatesAndMoments(t *testing.T) {
	en, ko := i18n.For(i18n.English), i18n.For(i18n.Korean)
	start, end := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	at := time.Date(2026, 11, 27, 14, 5, 0, 0, time.UTC)
	for _, c := range []struct{ got, want string }{
		{Dates(en, start, end), "Nov 21 – Nov 24, 2026"},
		{Dates(ko, start, end), "2026년 11월 21일 – 11월 24일"},
		{Moment(en, at), "Fri 27 Nov, 2:05 PM"},
		{Moment(ko, at), "11월 27일 (금) 오후 2:05"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
