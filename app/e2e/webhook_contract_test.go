package e2e

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestDeliveriesMatchTheContractWebhooks captures real deliveries of a real
// server (job.completed, job.failed and a test ping) and validates each
// body and header against the `webhooks` section of the contract the same
// server serves, with a JSON Schema 2020-12 validator (formats asserted):
// what a receiver would generate its types from is what it receives.
func TestDeliveriesMatchTheContractWebhooks(t *testing.T) {
	rcv := newReceiver(t, 0)
	s := startServer(t, []string{"--allow-private-urls", "--public-url", "https://dragoman.example.com"}, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("enterprise")
	reg := s.do("POST", "/v1/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.completed","job.failed"]}`), "application/json")
	if reg.status != 201 {
		t.Fatalf("register: %d %s", reg.status, reg.body)
	}
	hook := reg.json(t)["id"].(string)

	id := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "German", "source_lang": "English"}).json(t)["job_id"].(string)
	s.waitJob(key, id, time.Minute)
	rcv.wait(t, 1, 30*time.Second)
	s.admin("account", "set-plan", "--account", acct, "--plan", "enterprise", "--limit-words", "40")
	fid := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "German", "source_lang": "English"}).json(t)["job_id"].(string)
	if j := s.waitJob(key, fid, time.Minute); j["status"] != "failed" {
		t.Fatalf("the second job should fail for want of quota: %v", j)
	}
	rcv.wait(t, 2, 30*time.Second)
	if r := s.do("POST", "/v1/webhooks/"+hook+"/test", key, nil, ""); r.status != 202 {
		t.Fatalf("test ping: %d %s", r.status, r.body)
	}
	got := rcv.wait(t, 3, 30*time.Second)

	contract := s.do("GET", "/v1/openapi.json", "", nil, "")
	if contract.status != 200 {
		t.Fatalf("contract: %d", contract.status)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(contract.body))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const base = "https://dragoman.test/openapi.json"
	if err := c.AddResource(base, doc); err != nil {
		t.Fatal(err)
	}
	webhooks, _ := doc.(map[string]any)["webhooks"].(map[string]any)
	seen := map[string]bool{}
	for _, d := range got {
		ev := d.header.Get("X-Webhook-Event")
		seen[ev] = true
		op, ok := webhooks[ev].(map[string]any)
		if !ok {
			t.Errorf("event %q is not in the contract's webhooks", ev)
			continue
		}
		sch, err := c.Compile(base + "#/webhooks/" + ev + "/post/requestBody/content/application~1json/schema")
		if err != nil {
			t.Fatal(err)
		}
		body, err := jsonschema.UnmarshalJSON(bytes.NewReader(d.body))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(body); err != nil {
			t.Errorf("%s body does not match the contract: %v\n%s", ev, err, d.body)
		}
		params, _ := op["post"].(map[string]any)["parameters"].([]any)
		if len(params) < 4 {
			t.Errorf("%s: %d header parameters declared", ev, len(params))
		}
		for i, p := range params {
			pm := p.(map[string]any)
			name := pm["name"].(string)
			v := d.header.Get(name)
			if v == "" {
				t.Errorf("%s: header %s declared required but not sent", ev, name)
				continue
			}
			var inst any = v
			if n, err := strconv.Atoi(v); err == nil && pm["schema"].(map[string]any)["type"] == "integer" {
				inst = n
			}
			hs, err := c.Compile(base + "#/webhooks/" + ev + "/post/parameters/" + strconv.Itoa(i) + "/schema")
			if err != nil {
				t.Fatal(err)
			}
			if err := hs.Validate(inst); err != nil {
				t.Errorf("%s: header %s=%q does not match the contract: %v", ev, name, v, err)
			}
		}
	}
	for _, ev := range []string{"job.completed", "job.failed", "webhook.test"} {
		if !seen[ev] {
			t.Errorf("no %s delivery captured", ev)
		}
	}
}
