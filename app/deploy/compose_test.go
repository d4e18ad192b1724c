package deploy

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
)

// composeEnv is what an operator exports before `docker compose up`.
var composeEnv = []string{"POSTGRES_PASSWORD=pw", "S3_SECRET_KEY=s3secret", "DRAGOMAN_SECRET_KEY=" + strings.Repeat("ab", 32)}

func loadCompose(t *testing.T, env []string, files ...string) *types.Project {
	t.Helper()
	opts, err := cli.NewProjectOptions(files, cli.WithWorkingDirectory("."), cli.WithEnv(env), cli.WithName("dragoman"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("compose %v: %v", files, err)
	}
	return p
}

func TestCompose(t *testing.T) {
	// The secrets are required: without them the file refuses to load.
	opts, err := cli.NewProjectOptions([]string{"compose.yaml"}, cli.WithWorkingDirectory("."), cli.WithEnv(nil), cli.WithName("dragoman"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := opts.LoadProject(context.Background()); err == nil || !strings.Contains(err.Error(), "POSTGRES_PASSWORD") {
		t.Errorf("compose without POSTGRES_PASSWORD loads: %v", err)
	}

	p := loadCompose(t, composeEnv, "compose.yaml")
	for _, name := range []string{"postgres", "nats", "s3", "api", "worker", "prometheus"} {
		if _, err := p.GetService(name); err != nil {
			t.Errorf("no %s service: %v", name, err)
		}
	}
	if _, err := p.GetService("libretranslate"); err == nil {
		t.Error("LibreTranslate is part of the base file; it should be optional")
	}
	nats, _ := p.GetService("nats")
	if !slices.Contains(nats.Command, "-js") {
		t.Errorf("nats without JetStream: %v", nats.Command)
	}
	roles := map[string]string{"api": "api", "worker": "worker"}
	for svc, role := range roles {
		s, _ := p.GetService(svc)
		if s.Deploy == nil || s.Deploy.Replicas == nil || *s.Deploy.Replicas != 2 {
			t.Errorf("%s: want 2 replicas", svc)
		}
		if !slices.Equal(s.Command[:3], []string{"serve", "--role", role}) {
			t.Errorf("%s runs %v", svc, s.Command)
		}
		if s.Build == nil || s.Build.Dockerfile != "app/deploy/Dockerfile" {
			t.Errorf("%s is not built from app/deploy/Dockerfile: %+v", svc, s.Build)
		}
		checkFlags(t, "compose "+svc, s.Command)
		for k := range s.Environment {
			checkVar(t, "compose "+svc, k)
		}
		for _, want := range []string{"DRAGOMAN_DATABASE_URL", "DRAGOMAN_NATS_URL", "DRAGOMAN_BLOB_URL", "DRAGOMAN_SECRET_KEY", "DRAGOMAN_METRICS_ADDR"} {
			if v := s.Environment[want]; v == nil || *v == "" {
				t.Errorf("%s: %s not set", svc, want)
			}
		}
		if got := *s.Environment["DRAGOMAN_SECRET_KEY"]; got != strings.Repeat("ab", 32) {
			t.Errorf("%s: DRAGOMAN_SECRET_KEY is %q, not the exported key", svc, got)
		}
	}
	prom, _ := p.GetService("prometheus")
	if len(prom.Configs) != 1 {
		t.Fatalf("prometheus has no config: %+v", prom.Configs)
	}
	pc := p.Configs[prom.Configs[0].Source]
	for _, target := range []string{"names: [api]", "names: [worker]", "port: 9464"} {
		if !strings.Contains(pc.Content, target) {
			t.Errorf("prometheus config does not scrape %q:\n%s", target, pc.Content)
		}
	}

	// With the RTL override: LibreTranslate, wired as the engine for
	// right-to-left targets on every api and worker replica.
	rtl := loadCompose(t, composeEnv, "compose.yaml", "compose.rtl.yaml")
	if _, err := rtl.GetService("libretranslate"); err != nil {
		t.Fatal(err)
	}
	for svc := range roles {
		s, _ := rtl.GetService(svc)
		if *s.Environment["DRAGOMAN_ENGINES"] != "apertium,libretranslate" || !strings.Contains(*s.Environment["DRAGOMAN_LIBRETRANSLATE_BASE_URL"], "libretranslate:5000") {
			t.Errorf("%s with compose.rtl.yaml: %v", svc, s.Environment)
		}
		for _, lang := range []string{"ar", "he", "fa", "ur"} {
			if !strings.Contains(*s.Environment["DRAGOMAN_ROUTES"], "*:"+lang+"=libretranslate") {
				t.Errorf("%s: %s is not routed to LibreTranslate", svc, lang)
			}
		}
		if *s.Environment["DRAGOMAN_DATABASE_URL"] == "" {
			t.Errorf("%s: the override lost the base environment", svc)
		}
		if _, ok := s.DependsOn["postgres"]; !ok {
			t.Errorf("%s: the override lost the base dependencies", svc)
		}
		for k := range s.Environment {
			checkVar(t, "compose.rtl "+svc, k)
		}
	}
	checkText(t, "compose.yaml")
	checkText(t, "compose.rtl.yaml")
}

// Published ports are on 127.0.0.1 unless PUBLISH_ADDRESS says otherwise,
// and the file states the Compose version it needs (the Python
// docker-compose 1.x refuses the Compose Specification's top level).
func TestComposePublishesOnLoopback(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want string
	}{{composeEnv, "127.0.0.1"}, {append(slices.Clone(composeEnv), "PUBLISH_ADDRESS=0.0.0.0"), "0.0.0.0"}} {
		p := loadCompose(t, c.env, "compose.yaml", "compose.rtl.yaml")
		published := 0
		for _, s := range p.Services {
			for _, port := range s.Ports {
				published++
				if port.HostIP != c.want {
					t.Errorf("%v: %s publishes %s:%s→%d, want host address %s", c.env[len(c.env)-1], s.Name, port.HostIP, port.Published, port.Target, c.want)
				}
			}
		}
		if published == 0 {
			t.Fatal("no published ports")
		}
	}
	b, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	head := string(b[:bytes.Index(b, []byte("\nname:"))])
	if !regexp.MustCompile(`Docker Compose v2\.\d+\.\d+ or newer`).MatchString(head) || !strings.Contains(head, "docker-compose 1.") {
		t.Errorf("compose.yaml does not state the Compose version it needs:\n%s", head)
	}
	if !bytes.Contains(b, []byte("\nname: ")) || !bytes.Contains(b, []byte("\n    content: |")) {
		t.Error("the features the stated version is for are gone: update the header")
	}
}
