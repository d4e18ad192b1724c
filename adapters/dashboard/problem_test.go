package dashboard

import (
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/service"
)

// The dashboard's JSON errors are the API's RFC 9457 problems, with the
// members its script reads (message, retry_after) kept.
func TestJSONErrorsAreProblemDetails(t *testing.T) {
	d := &Dashboard{log: slog.New(slog.DiscardHandler)}
	rec := httptest.NewRecorder()
	d.writeJSONError(rec, &service.Error{Kind: service.KindRateLimited, Message: "too many requests", RetryAfter: 3 * time.Second})
	var p map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 429 || rec.Header().Get("Content-Type") != "application/problem+json" || rec.Header().Get("Retry-After") != "3" {
		t.Errorf("%d %v", rec.Code, rec.Header())
	}
	if p["type"] != "/v1/problems/rate_limited" || p["title"] != "Too many requests" || p["status"] != 429.0 ||
		p["detail"] != "too many requests" || p["message"] != "too many requests" || p["retry_after"] != 3.0 {
		t.Errorf("body %s", rec.Body)
	}
}
