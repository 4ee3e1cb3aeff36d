package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// LLM proposes search queries for a page through an OpenAI-compatible chat completions API
// (POST {BaseURL}/chat/completions with model, messages; Authorization: Bearer key; read
// choices[0].message.content, a JSON array of place names or one per line). Optional: used
// when LLM_BASE_URL is configured.
type LLM struct {
	BaseURL, APIKey, Model string
	HTTP                   *http.Client // nil: a client with a 30 s timeout
}

// llmTextRunes is how much of a page's text a prompt carries at most.
const llmTextRunes = 12000

// llmPrompt tells the model what to answer.
const llmPrompt = `You find the real, visitable places a web page mentions: restaurants, cafes, bars, shops, markets, ` +
	`museums, temples, parks, landmarks, hotels, stations, neighbourhoods. Answer with a JSON array of ` +
	`strings and nothing else: each place's name as the page writes it (in its own language or script), ` +
	`without numbering or descriptions. Leave out cities, countries, dishes, people and anything that ` +
	`is not a place. Answer [] when the page names no place.`

// Suggest returns place-name candidates for the page text (title + visible text, truncated to
// a sensible size). The caller adds them to the analysis's candidates before Resolve, which
// searches them like structural candidates.
func (l *LLM) Suggest(ctx context.Context, a *Analysis, text string) ([]Candidate, error) {
	var page strings.Builder
	fmt.Fprintf(&page, "Title: %s\n", a.Title)
	if a.City != "" {
		fmt.Fprintf(&page, "City: %s\n", a.City)
	}
	page.WriteString("\n")
	page.WriteString(truncate(text, llmTextRunes))
	body, err := json.Marshal(chatRequest{
		Model:       l.Model,
		Temperature: 0,
		Messages:    []chatMessage{{Role: "system", Content: llmPrompt}, {Role: "user", Content: page.String()}},
	})
	if err != nil {
		return nil, err
	}
	content, err := l.complete(ctx, body)
	if err != nil {
		return nil, err
	}
	var out []Candidate
	for _, name := range parseNames(content) {
		if name = trimName(cleanLine(name)); name != "" && !isStopName(name) {
			out = append(out, Candidate{Name: name})
		}
	}
	return out, nil
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Temperature float64       `json:"temperature"`
}

type chatResponse struct {
	Choices []struct {
		Message chatMessage `json:"message"`
	} `json:"choices"`
}

// complete sends a chat completions request and returns the first choice's content.
func (l *LLM) complete(ctx context.Context, body []byte) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(l.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if l.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+l.APIKey)
	}
	client := l.HTTP
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("llm: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("llm: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("llm: %s: %s", resp.Status, truncate(strings.TrimSpace(string(data)), 200))
	}
	var cr chatResponse
	if err := json.Unmarshal(data, &cr); err != nil {
		return "", fmt.Errorf("llm: unreadable answer: %w", err)
	}
	if len(cr.Choices) == 0 {
		return "", fmt.Errorf("llm: no choices in the answer")
	}
	return cr.Choices[0].Message.Content, nil
}

// parseNames reads a model's answer: a JSON array of names (or of objects with a name),
// possibly in a code fence, else one name per line (a line introducing a list left out).
func parseNames(content string) []string {
	content = strings.TrimSpace(content)
	if strings.HasPrefix(content, "```") {
		content = strings.TrimPrefix(content, "```")
		content = strings.TrimPrefix(content, "json")
		content = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(content), "```"))
	}
	if start, end := strings.Index(content, "["), strings.LastIndex(content, "]"); start >= 0 && end > start {
		var list []any
		if json.Unmarshal([]byte(content[start:end+1]), &list) == nil {
			var out []string
			for _, v := range list {
				out = append(out, textValue(v))
			}
			return out
		}
	}
	var out []string
	for _, line := range strings.Split(content, "\n") {
		if !strings.HasSuffix(strings.TrimSpace(line), ":") { // "Here are the places:"
			out = append(out, line)
		}
	}
	return out
}
