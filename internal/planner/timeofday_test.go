package planner

import (
	"encoding/json"
	"testing"
	"time"
)

func TestParseTimeOfDay(t *testing.T) {
	ms := time.Millisecond
	for in, want := range map[string]time.Duration{
		"09:30:00.000Z": 9*time.Hour + 30*time.Minute,
		"09:30:15.250Z": 9*time.Hour + 30*time.Minute + 15*time.Second + 250*ms,
		"09:30:15.5Z":   9*time.Hour + 30*time.Minute + 15*time.Second + 500*ms,
		"09:30:15.05":   9*time.Hour + 30*time.Minute + 15*time.Second + 50*ms,
		"09:30:15":      9*time.Hour + 30*time.Minute + 15*time.Second,
		"09:30:15Z":     9*time.Hour + 30*time.Minute + 15*time.Second,
		"09:30":         9*time.Hour + 30*time.Minute,
		"00:00":         0,
		"23:59:59.999Z": 24*time.Hour - ms,
	} {
		got, err := ParseTimeOfDay(in)
		if err != nil || time.Duration(got) != want {
			t.Errorf("ParseTimeOfDay(%q) = %v, %v; want %v", in, time.Duration(got), err, want)
		}
	}
	for _, in := range []string{
		"", "Z", "9:30", "09:3", "0930", "24:00", "23:60", "12:00:60", "12:00:00.", "12:00:00.1234Z",
		"12:00.5", "12:00:00ZZ", "12:00:00+09:00", "-1:00", "+9:00", "12:00:00.-1", "12:00:00:00",
		"١٢:٠٠", "12:0a",
	} {
		if got, err := ParseTimeOfDay(in); err == nil {
			t.Errorf("ParseTimeOfDay(%q) = %v, want an error", in, got)
		}
	}
}

func TestTimeOfDayFormat(t *testing.T) {
	for want, in := range map[string]TimeOfDay{
		"00:00:00.000Z": 0,
		"09:30:00.000Z": Clock(9, 30),
		"23:59:59.999Z": TimeOfDay(24*time.Hour - time.Millisecond),
		"12:00:15.050Z": Clock(12, 0) + TimeOfDay(15*time.Second+50*time.Millisecond),
	} {
		if got := in.String(); got != want {
			t.Errorf("%v.String() = %q, want %q", time.Duration(in), got, want)
		}
	}
}

func TestTimeOfDayJSON(t *testing.T) {
	var v struct {
		Start TimeOfDay `json:"start_time"`
	}
	if err := json.Unmarshal([]byte(`{"start_time":"10:15"}`), &v); err != nil || v.Start != Clock(10, 15) {
		t.Fatalf("decode: %v, %v", v.Start, err)
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) != `{"start_time":"10:15:00.000Z"}` {
		t.Fatalf("encode: %s, %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"start_time":"25:00"}`), &v); err == nil {
		t.Fatal("decoded 25:00")
	}
}
