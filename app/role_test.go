package main

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dragoman-translate/dragoman/app/cmdline"
)

func TestRoleFlag(t *testing.T) {
	c, err := parseServe(nil)
	if err != nil || c.Role != RoleAll || !c.runsStages() || !c.servesAPI() || c.NATSListen != "127.0.0.1:4222" {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	t.Setenv("DRAGOMAN_ROLE", "worker")
	if c, err := parseServe(nil); err != nil || c.Role != RoleWorker || !c.runsStages() || c.servesAPI() {
		t.Fatalf("DRAGOMAN_ROLE=worker: %+v %v", c, err)
	}
	if c, err := parseServe([]string{"--role", "api"}); err != nil || c.Role != RoleAPI || c.runsStages() || !c.servesAPI() {
		t.Fatalf("--role api over the variable: %+v %v", c, err)
	}
	var ue cmdline.UsageError
	if _, err := parseServe([]string{"--role", "stages"}); !cmdline.AsUsage(err, &ue) {
		t.Fatalf("--role stages: %v, want a usage error", err)
	}
}

func TestProbesOnly(t *testing.T) {
	h := probesOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(299) }))
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/v1/health", 299}, {"HEAD", "/v1/health", 299}, {"GET", "/v1/ready", 299},
		{"POST", "/v1/health", 404}, {"GET", "/v1/usage", 404}, {"POST", "/v1/translate", 404},
		{"GET", "/v1/docs", 404}, {"GET", "/", 404}, {"GET", "/v1/health/x", 404},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.want {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, rec.Code, c.want)
		}
	}
}
