package client

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/problem"
)

// The server's RFC 9457 bodies, written by the server's own problem
// writer, become APIErrors with their members; errors.Is still matches
// the status's sentinel, and a body from before RFC 9457 still reads.
func TestAPIErrorReadsProblemDetails(t *testing.T) {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1/translate", nil)
	problem.Write(rec, req, problem.New(http.StatusTooManyRequests, "rate limit: 60 requests a minute").WithRetryAfter(3*time.Second))
	err := apiError(rec.Code, rec.Header(), rec.Body.Bytes())
	var ae *APIError
	if !errors.As(err, &ae) || !errors.Is(err, ErrRateLimited) {
		t.Fatalf("429: %v", err)
	}
	if ae.Type != "/v1/problems/rate_limited" || ae.Title != "Too many requests" || ae.Code != "rate_limited" ||
		ae.Message != "rate limit: 60 requests a minute" || ae.Instance != "/v1/translate" || ae.RetryAfter != 3*time.Second {
		t.Fatalf("members: %+v", ae)
	}

	rec = httptest.NewRecorder()
	p := problem.New(http.StatusUnprocessableEntity, "missing field: file")
	p.Errors = []problem.ProblemField{{Location: "body.file", Message: "required"}}
	problem.Write(rec, req, p)
	err = apiError(rec.Code, rec.Header(), rec.Body.Bytes())
	if !errors.As(err, &ae) || !errors.Is(err, ErrUnprocessable) || len(ae.Fields) != 1 || ae.Fields[0].Location != "body.file" {
		t.Fatalf("422: %v %+v", err, ae)
	}

	old := []byte(`{"status":402,"code":"quota_exhausted","message":"monthly word quota exhausted"}`)
	err = apiError(402, nil, old)
	if !errors.As(err, &ae) || !errors.Is(err, ErrQuotaExhausted) || ae.Message != "monthly word quota exhausted" {
		t.Fatalf("old body: %v", err)
	}
}
