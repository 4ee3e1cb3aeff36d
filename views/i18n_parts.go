package views

import (
	"context"
	"strconv"
	"strings"
)

// messagePart is a piece of a message cut around its values: text, or (Value ≥ 0) the place
// of the value of that index.
type messagePart struct {
	Text  string
	Value int
}

// messageParts is the message id cut where the named values go, in the language's order, so
// a template can wrap each value in its own markup: messageParts(ctx, "budget.transfer",
// "From", "To") is From, " pays ", To in English. The values themselves are not put in:
// Korean particles after them cannot be chosen (write ones that do not depend on the value).
func messageParts(ctx context.Context, id string, names ...string) []messagePart {
	pairs := make([]any, 0, 2*len(names))
	for i, n := range names {
		pairs = append(pairs, n, "\x00"+strconv.Itoa(i)+"\x00")
	}
	var out []messagePart
	for i, s := range strings.Split(t(ctx, id, pairs...), "\x00") {
		switch {
		case i%2 == 1:
			v, _ := strconv.Atoi(s)
			out = append(out, messagePart{Value: v})
		case s != "":
			out = append(out, messagePart{Text: s, Value: -1})
		}
	}
	return out
}
