package e2e

import (
	"context"
	"io"
	"net/http"
	"testing"
)

// corpusDir holds the real documents of testdata/corpus.
const corpusDir = "../../testdata/corpus"

// call makes one request and reads its answer, for worker goroutines.
func call(s *server, method, path, key string, body io.Reader, contentType string) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(context.Background(), method, s.url(path), body)
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("X-API-Key", key)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// try is server.do for goroutines: it returns errors instead of failing
// the test from a goroutine that is not the test's.
func (s *server) try(method, path, key string, body io.Reader, contentType string) (response, error) {
	resp, b, err := call(s, method, path, key, body, contentType)
	if resp == nil {
		return response{}, err
	}
	return response{resp.StatusCode, resp.Header, b}, err
}

// enterpriseKey is an enterprise account's key whose per-minute limit does
// not throttle a whole corpus uploaded at once.
func enterpriseKey(t *testing.T, s *server) string {
	id, key, _ := s.account("enterprise")
	s.admin("account", "set-plan", "--account", id, "--plan", "enterprise", "--requests-per-minute", "100000")
	return key
}
