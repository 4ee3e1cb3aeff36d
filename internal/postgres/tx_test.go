package postgres_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"tripplan/internal/planner"
)

// A store method's failure that is not the domain's names the method; the domain's errors
// stay as they are, for the web layer to answer.
func TestStoreErrorsNameTheirOperation(t *testing.T) {
	db, demo := seededDB(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel() // the transaction cannot start
	_, err := db.CreateExtractionJob(ctx, "someone", demo.collection, "https://a.example/", "https://a.example/")
	var pe *planner.Error
	if err == nil || errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "CreateExtractionJob: ") || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want CreateExtractionJob: … wrapping context.Canceled", err)
	}
	_, err = db.CreateExtractionJob(t.Context(), "nobody", demo.collection, "https://a.example/", "https://a.example/")
	if !errors.As(err, &pe) || strings.Contains(err.Error(), "CreateExtractionJob") {
		t.Errorf("not a member: %v, want the domain's error as it is", err)
	}
}
