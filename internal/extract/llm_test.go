package extract

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// fakeChat is a chat completions server that answers content and records the request.
type fakeChat struct {
	content string
	status  int
	request chatRequest
	auth    string
	path    string
}

func (f *fakeChat) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.auth, f.path = r.Header.Get("Authorization"), r.Method+" "+r.URL.Path
	if err := json.NewDecoder(r.Body).Decode(&f.request); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if f.status != 0 {
		http.Error(w, `{"error":{"message":"model overloaded"}}`, f.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": f.content}, "finish_reason": "stop"}},
	})
}

func names(cs []Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func TestLLMSuggest(t *testing.T) {
	chat := &fakeChat{content: "```json\n[\"Gwangjang Market\", \"1. Tongin Market\", {\"name\": \"Mangwon Market\"}, \"\"]\n```"}
	srv := httptest.NewServer(chat)
	defer srv.Close()
	l := &LLM{BaseURL: srv.URL + "/v1/", APIKey: "sk-test", Model: "tiny-model"}
	a := &Analysis{Title: "Seoul markets", City: "Seoul"}
	got, err := l.Suggest(t.Context(), a, strings.Repeat("가", llmTextRunes+500))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Gwangjang Market", "Tongin Market", "Mangwon Market"}; !slices.Equal(names(got), want) {
		t.Errorf("suggested %q, want %q", names(got), want)
	}
	if chat.path != "POST /v1/chat/completions" || chat.auth != "Bearer sk-test" || chat.request.Model != "tiny-model" {
		t.Errorf("request: %s, auth %q, model %q", chat.path, chat.auth, chat.request.Model)
	}
	msgs := chat.request.Messages
	if len(msgs) != 2 || msgs[0].Role != "system" || msgs[1].Role != "user" ||
		!strings.Contains(msgs[1].Content, "Title: Seoul markets") || !strings.Contains(msgs[1].Content, "City: Seoul") {
		t.Fatalf("messages: %+v", msgs)
	}
	if n := utf8.RuneCountInString(msgs[1].Content); n > llmTextRunes+100 {
		t.Errorf("the page text was not truncated: %d characters", n)
	}
}

func TestLLMSuggestLines(t *testing.T) {
	chat := &fakeChat{content: "Here are the places:\n- Gwangjang Market\n2) Tongin Market\n"}
	srv := httptest.NewServer(chat)
	defer srv.Close()
	got, err := (&LLM{BaseURL: srv.URL, Model: "m"}).Suggest(t.Context(), &Analysis{}, "text")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Gwangjang Market", "Tongin Market"}; !slices.Equal(names(got), want) {
		t.Errorf("suggested %q", names(got))
	}
	if chat.auth != "" {
		t.Errorf("no key, but Authorization %q", chat.auth)
	}
}

func TestLLMSuggestErrors(t *testing.T) {
	chat := &fakeChat{status: http.StatusServiceUnavailable}
	srv := httptest.NewServer(chat)
	if _, err := (&LLM{BaseURL: srv.URL}).Suggest(t.Context(), &Analysis{}, "x"); err == nil ||
		!strings.Contains(err.Error(), "503") || !strings.Contains(err.Error(), "model overloaded") {
		t.Errorf("err = %v", err)
	}
	srv.Close()
	if _, err := (&LLM{BaseURL: srv.URL}).Suggest(t.Context(), &Analysis{}, "x"); err == nil {
		t.Error("no error from a closed server")
	}
	empty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"choices":[]}`))
	}))
	defer empty.Close()
	if _, err := (&LLM{BaseURL: empty.URL}).Suggest(t.Context(), &Analysis{}, "x"); err == nil {
		t.Error("no error for an answer without choices")
	}
}
