package postgres_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"tripplan/internal/i18n"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
	"tripplan/views"
)

// oldNotification is a notification as written before 00016 (its English text and no facts),
// with the facts 00024 reads from it (nil: none, it keeps its text) and how it reads then.
type oldNotification struct {
	eventType, message string
	count              int
	details            map[string]any
	en, ko             string
}

// oldNotifications are the wordings of the notifications written before 00016, from
// internal/postgres at b02342d..aa19d5e^, and texts that cannot be read back.
var oldNotifications = []oldNotification{
	{"BLOCK_ADDED", "민지 added 경복궁 to 서울 여행 (day 2)", 1,
		map[string]any{"actor": "민지", "places": []any{"경복궁"}, "day": 2.0, "in": "서울 여행"},
		"민지 added 경복궁 to Day 2 in 서울 여행", "민지가 서울 여행 2일차에 경복궁을 추가했어요"},
	{"BLOCK_ADDED", "민지 added free time to 서울 여행 (day 1)", 1,
		map[string]any{"actor": "민지", "day": 1.0, "in": "서울 여행"},
		"민지 added free time to Day 1 in 서울 여행", "민지가 서울 여행 1일차에 자유 시간을 추가했어요"},
	{"BLOCK_ADDED", "민지 added 3 blocks to 서울 여행 (day 2)", 3,
		map[string]any{"actor": "민지", "day": 2.0, "in": "서울 여행"},
		"민지 added 3 blocks to Day 2 in 서울 여행", "민지가 서울 여행 2일차에 일정 3개를 추가했어요"},
	{"BLOCK_REMOVED", "민지 removed a block from 서울 여행", 1,
		map[string]any{"actor": "민지", "in": "서울 여행"},
		"민지 removed a block from 서울 여행", "민지가 서울 여행에서 일정 1개를 삭제했어요"},
	{"BLOCK_REMOVED", "Someone removed 2 blocks from 서울 여행", 2,
		map[string]any{"in": "서울 여행"},
		"Someone removed 2 blocks from 서울 여행", "누군가가 서울 여행에서 일정 2개를 삭제했어요"},
	{"CANDIDATE_ADDED", "준호 proposed 광장시장 for day 2, 11:00 in 서울 여행", 1,
		map[string]any{"actor": "준호", "place": "광장시장", "day": 2.0, "start": "11:00", "in": "서울 여행"},
		"준호 proposed 광장시장 for Day 2, 11:00 in 서울 여행", "준호가 서울 여행 2일차 오전 11:00 후보로 광장시장을 제안했어요"},
	{"CANDIDATE_ADDED", "준호 proposed 2 places for day 1, 14:30 in 서울 여행", 2,
		map[string]any{"actor": "준호", "day": 1.0, "start": "14:30", "in": "서울 여행"},
		"준호 proposed 2 places for Day 1, 14:30 in 서울 여행", "준호가 서울 여행 1일차 오후 2:30 후보로 장소 2곳을 제안했어요"},
	{"CANDIDATE_CONFIRMED", "민지 confirmed the place you proposed in 서울 여행", 1,
		map[string]any{"actor": "민지", "in": "서울 여행"},
		"민지 confirmed the place you proposed in 서울 여행", "민지가 회원님이 서울 여행에 제안한 장소를 확정했어요"},
	{"OPINION_ADDED", "민지 gave 4 opinions on places you proposed in 서울 여행", 4,
		map[string]any{"actor": "민지", "in": "서울 여행"},
		"민지 gave 4 opinions on places you proposed in 서울 여행", "민지가 회원님이 서울 여행에 제안한 장소에 의견 4개를 남겼어요"},
	{"EXPENSE_ADDED", "준호 added an expense to 서울 여행", 1,
		map[string]any{"actor": "준호", "in": "서울 여행"},
		"준호 added an expense to 서울 여행", "준호가 서울 여행에 지출 1건을 추가했어요"},
	{"MEMBER_JOINED", "준호 joined 맛집 모음", 1,
		map[string]any{"actor": "준호", "member": "준호", "in": "맛집 모음"},
		"준호 joined 맛집 모음", "준호가 맛집 모음에 참여했어요"},
	{"PLACE_ADDED", "민지 added 1 places from a link to 맛집 모음", 1,
		map[string]any{"actor": "민지", "in": "맛집 모음"},
		"민지 added a place to 맛집 모음", "민지가 맛집 모음에 장소 1곳을 추가했어요"},
	{"PLACE_ADDED", "민지 added 광장시장 to 맛집 모음", 1,
		map[string]any{"actor": "민지", "place": "광장시장", "in": "맛집 모음"},
		"민지 added 광장시장 to 맛집 모음", "민지가 맛집 모음에 광장시장을 추가했어요"},
	{"PLACE_ADDED", "민지 added 5 places to 맛집 모음", 5,
		map[string]any{"actor": "민지", "in": "맛집 모음"},
		"민지 added 5 places to 맛집 모음", "민지가 맛집 모음에 장소 5곳을 추가했어요"},
	{"PLACE_REMOVED", "민지 removed 2 places from 맛집 모음", 2,
		map[string]any{"actor": "민지", "in": "맛집 모음"},
		"민지 removed 2 places from 맛집 모음", "민지가 맛집 모음에서 장소 2곳을 뺐어요"},
	{"PREFERENCE_ADDED", "준호 picked a place you added to 맛집 모음", 1,
		map[string]any{"actor": "준호", "preference": "PICK", "in": "맛집 모음"},
		"준호 picked a place you added to 맛집 모음", "준호가 회원님이 맛집 모음에 추가한 장소를 찜했어요"},
	{"PREFERENCE_ADDED", "준호 passed on a place you added to 맛집 모음", 1,
		map[string]any{"actor": "준호", "preference": "PASS", "in": "맛집 모음"},
		"준호 passed on a place you added to 맛집 모음", "준호가 회원님이 맛집 모음에 추가한 장소를 패스했어요"},
	{"PREFERENCE_ADDED", "준호 picked or passed on places you added to 맛집 모음 (3 times)", 3,
		map[string]any{"actor": "준호", "in": "맛집 모음"},
		"준호 picked or passed on places you added to 맛집 모음 (3 times)", "준호가 회원님이 맛집 모음에 추가한 장소를 3번 찜하거나 패스했어요"},
	{"EXTRACTION_COMPLETED", "Places from your link are ready to add to 맛집 모음", 1,
		map[string]any{"in": "맛집 모음"},
		"Places from your link are ready to add to 맛집 모음", "링크에서 찾은 장소를 맛집 모음에 추가할 수 있어요"},
	{"EXTRACTION_FAILED", "We could not find places on your link for 맛집 모음", 1,
		map[string]any{"in": "맛집 모음"},
		"We could not find places on your link for 맛집 모음", "맛집 모음에 넣을 장소를 링크에서 찾지 못했어요"},
	// Texts that cannot be read back keep their text: a place and a title both holding " to "
	// split in two ways, a count that is not the notification's, a wording never used.
	{"PLACE_ADDED", "Ana added Back to the Future to Trip to Jeju", 1, nil,
		"Ana added Back to the Future to Trip to Jeju", "Ana added Back to the Future to Trip to Jeju"},
	{"BLOCK_ADDED", "민지 added 3 blocks to 서울 여행 (day 2)", 2, nil,
		"민지 added 3 blocks to 서울 여행 (day 2)", "민지 added 3 blocks to 서울 여행 (day 2)"},
	{"MEMBER_JOINED", "Welcome to Tripplan", 1, nil, "Welcome to Tripplan", "Welcome to Tripplan"},
}

// TestOldNotificationsReadInBothLanguages: 00024 reads the text of notifications written before
// 00016 back into their facts, so that they read in Korean too; the ones it cannot read keep
// their text; going back restores every row as it was.
func TestOldNotificationsReadInBothLanguages(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	p := migrator(t, db)
	if _, err := p.DownTo(ctx, 23); err != nil {
		t.Fatalf("down to 00023: %v", err)
	}
	db.MustExec(`INSERT INTO users (id, provider, provider_id, nickname) VALUES ('u1', 'kakao', '1', '하늘')`)
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	ids := make([]string, len(oldNotifications))
	for i, o := range oldNotifications {
		ids[i] = planner.NewID()
		db.MustExec(`INSERT INTO notifications (id, user_id, category, event_type, message, event_count, created_at)
			VALUES ($1, 'u1', 'PLAN', $2, $3, $4, $5)`, ids[i], o.eventType, o.message, o.count, start.Add(time.Duration(i)*time.Minute))
	}
	// A notification written since 00016: its facts and no text.
	newID := planner.NewID()
	newDetails := `{"actor": "민지", "place": "경복궁", "in": "맛집 모음"}`
	db.MustExec(`INSERT INTO notifications (id, user_id, category, event_type, message, details, created_at)
		VALUES ($1, 'u1', 'COLLECTION', 'PLACE_ADDED', '', $2, $3)`, newID, newDetails, start.Add(-time.Hour))

	if _, err := p.Up(ctx); err != nil {
		t.Fatalf("up: %v", err)
	}
	for i, o := range oldNotifications {
		var raw []byte
		mustGet(t, db, &raw, `SELECT details FROM notifications WHERE id = $1`, ids[i])
		var got map[string]any
		if raw != nil {
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(got, o.details) {
			t.Errorf("%q (count %d): details %s, want %v", o.message, o.count, raw, o.details)
		}
	}
	list, _, _, err := db.Notifications(ctx, "u1", planner.Page{Size: planner.MaxPageSize})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(oldNotifications)+1 {
		t.Fatalf("%d notifications, want %d", len(list), len(oldNotifications)+1)
	}
	byID := map[string]planner.Notification{}
	for _, n := range list {
		byID[n.ID] = n
	}
	for i, o := range oldNotifications {
		n := byID[ids[i]]
		if got := views.NotificationMessage(i18n.For(i18n.English), n); got != o.en {
			t.Errorf("%q in English:\n got %q\nwant %q", o.message, got, o.en)
		}
		if got := views.NotificationMessage(i18n.For(i18n.Korean), n); got != o.ko {
			t.Errorf("%q in Korean:\n got %q\nwant %q", o.message, got, o.ko)
		}
	}
	// The one written since has no text any more, and reads (and is marked read) by its facts.
	var message sql.NullString
	mustGet(t, db, &message, `SELECT message FROM notifications WHERE id = $1`, newID)
	if message.Valid {
		t.Errorf("message of a notification with details = %q, want NULL", message.String)
	}
	read, err := db.MarkNotificationRead(ctx, "u1", newID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := views.NotificationMessage(i18n.For(i18n.Korean), *read), "민지가 맛집 모음에 경복궁을 추가했어요"; got != want {
		t.Errorf("new notification in Korean = %q, want %q", got, want)
	}
	if err := writeNotificationWithoutFacts(db); err == nil {
		t.Error("a notification with neither details nor message was written")
	}

	if _, err := p.DownTo(ctx, 23); err != nil {
		t.Fatalf("down to 00023: %v", err)
	}
	for i, o := range oldNotifications {
		var r struct {
			Message string         `db:"message"`
			Details sql.NullString `db:"details"`
		}
		mustGet(t, db, &r, `SELECT message, details FROM notifications WHERE id = $1`, ids[i])
		if r.Message != o.message || r.Details.Valid {
			t.Errorf("after down: %q, details %v; want %q and none", r.Message, r.Details, o.message)
		}
	}
	var same bool
	mustGet(t, db, &same, `SELECT message = '' AND details = $2::jsonb FROM notifications WHERE id = $1`, newID, newDetails)
	if !same {
		t.Error("after down, the notification written since 00016 is not as it was")
	}
}

// writeNotificationWithoutFacts tries to write a notification that could not be said.
func writeNotificationWithoutFacts(db *postgres.DB) error {
	_, err := db.Exec(`INSERT INTO notifications (id, user_id, category, event_type) VALUES ($1, 'u1', 'PLAN', 'BLOCK_ADDED')`, planner.NewID())
	return err
}
