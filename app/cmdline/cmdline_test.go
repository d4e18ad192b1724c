package cmdline

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// A small command tree run through Execute as the binary runs its own.
func tree(got *[]string) *cobra.Command {
	root := &cobra.Command{Use: "tool", Args: cobra.NoArgs, RunE: func(*cobra.Command, []string) error { return nil }}
	run := &cobra.Command{Use: "run", Args: NoArgs}
	workers := run.Flags().Int("workers", 2, "workers")
	wait := run.Flags().Duration("wait", time.Second, "wait")
	addr := run.Flags().String("addr", ":1", "address")
	server := run.Flags().String("server", "https://default", "server")
	for _, f := range []string{"workers", "wait", "addr"} {
		Bind(run.Flags(), f)
	}
	BindNonEmpty(run.Flags(), "server", "TOOL_URL")
	run.RunE = func(*cobra.Command, []string) error {
		*got = []string{strings.TrimSpace(strings.Repeat("w", *workers)), wait.String(), *addr, *server}
		return nil
	}
	fail := &cobra.Command{Use: "fail", RunE: func(*cobra.Command, []string) error { return errors.New("boom") }}
	root.AddCommand(run, fail)
	return root
}

func TestExecute(t *testing.T) {
	for _, c := range []struct {
		args, env []string
		code      int
		got       []string
		stderr    string
	}{
		{args: []string{"run"}, got: []string{"ww", "1s", ":1", "https://default"}},
		{args: []string{"run"}, env: []string{"DRAGOMAN_WORKERS=3", "DRAGOMAN_WAIT=5s", "DRAGOMAN_ADDR=", "TOOL_URL="}, got: []string{"www", "5s", "", "https://default"}},
		{args: []string{"run", "--workers", "1"}, env: []string{"DRAGOMAN_WORKERS=3"}, got: []string{"w", "1s", ":1", "https://default"}},
		{args: []string{"run", "-workers=4", "-addr", "x"}, got: []string{"wwww", "1s", "x", "https://default"}},
		{args: []string{"run"}, env: []string{"DRAGOMAN_WORKERS=three"}, code: 2, stderr: `tool: DRAGOMAN_WORKERS="three": not a whole number (the variable of --workers)`},
		{args: []string{"run"}, env: []string{"DRAGOMAN_WAIT=5"}, code: 2, stderr: `DRAGOMAN_WAIT="5": not a duration`},
		{args: []string{"run"}, env: []string{"DRAGOMAN_WORKERS="}, got: []string{"ww", "1s", ":1", "https://default"}},
		{args: []string{"run", "extra"}, code: 2, stderr: `unexpected argument "extra"`},
		{args: []string{"run", "--nope"}, code: 2, stderr: "unknown flag: --nope"},
		{args: []string{"fail"}, code: 1, stderr: "tool: boom"},
		{args: []string{"run", "-h"}, code: 0},
	} {
		for _, kv := range c.env {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		var got []string
		var out, errb bytes.Buffer
		code := Execute(tree(&got), c.args, nil, &out, &errb)
		if code != c.code || !strings.Contains(errb.String(), c.stderr) || (c.got != nil && strings.Join(got, "|") != strings.Join(c.got, "|")) {
			t.Errorf("%v %v: exit %d, ran with %q, stderr %q; want %d, %q, %q", c.args, c.env, code, got, errb.String(), c.code, c.got, c.stderr)
		}
		for _, kv := range c.env { // unset for the next case (t.Setenv restores at the end)
			k, _, _ := strings.Cut(kv, "=")
			os.Unsetenv(k)
		}
	}
}
