// Package cli holds the client commands of the dragoman binary: translate,
// jobs, usage, languages, webhooks and verify-signature. They speak to a
// server through the Go SDK (openapi/client); translate --local runs the
// pipeline in-process through the NewLocal the composition root gives it.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/dragoman-translate/dragoman/app/cmdline"
	"github.com/dragoman-translate/dragoman/openapi/client"
)

// clientFlags are the flags every client command takes.
type clientFlags struct {
	fs     *flag.FlagSet
	server *string
	key    *string
	ca     *string
	json   *bool
}

func newClientFlags(name string) *clientFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	server := os.Getenv("DRAGOMAN_URL")
	if server == "" {
		server = "https://localhost:8443"
	}
	return &clientFlags{
		fs:     fs,
		server: fs.String("server", server, "server address (env DRAGOMAN_URL)"),
		key:    fs.String("key", os.Getenv("DRAGOMAN_KEY"), "API key (env DRAGOMAN_KEY)"),
		ca:     fs.String("ca", os.Getenv("DRAGOMAN_CA"), "PEM certificate to trust besides the system's, e.g. a dev server's <data dir>/tls/cert.pem (env DRAGOMAN_CA)"),
		json:   fs.Bool("json", false, "print JSON for scripts"),
	}
}

// parse accepts flags before, between and after the positional arguments.
func (c *clientFlags) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := c.fs.Parse(args); err != nil {
			return nil, cmdline.UsageError{Msg: err.Error()}
		}
		args = c.fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func (c *clientFlags) client() (*client.Client, error) {
	var opts []client.Option
	if *c.ca != "" {
		opts = append(opts, client.WithCACertFile(*c.ca))
	}
	return client.New(*c.server, *c.key, opts...)
}

func printJSON(w io.Writer, v any) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(v)
}

func deref[T any](p *T) T {
	var z T
	if p == nil {
		return z
	}
	return *p
}

// interruptible is a context that ends on Ctrl-C or SIGTERM.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// Jobs: dragoman jobs [list|get|download|cancel].
func Jobs(args []string, stdout io.Writer) error {
	sub := "list"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	cf := newClientFlags("jobs " + sub)
	status := cf.fs.String("status", "", "list: only jobs in this status (pending, processing, completed, failed)")
	limit := cf.fs.Int("limit", 20, "list: jobs per page")
	cursor := cf.fs.String("cursor", "", "list: next_cursor of the previous page")
	all := cf.fs.Bool("all", false, "list: every page")
	out := cf.fs.String("out", ".", "download: folder to write into")
	pos, err := cf.parse(args)
	if err != nil {
		return err
	}
	c, err := cf.client()
	if err != nil {
		return err
	}
	ctx, cancel := interruptible()
	defer cancel()
	switch sub {
	case "list":
		var jobs []client.Job
		next := *cursor
		for {
			page, err := c.Jobs(ctx, *status, next, *limit)
			if err != nil {
				return err
			}
			jobs = append(jobs, deref(page.Jobs)...)
			next = deref(page.NextCursor)
			if !*all || next == "" {
				break
			}
		}
		if *cf.json {
			return printJSON(stdout, map[string]any{"jobs": jobs, "next_cursor": nilIfEmpty(next)})
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "JOB\tSTATUS\tSTAGE\tTARGET\tWORDS\tCREATED\tFILE")
		for _, j := range jobs {
			created := ""
			if j.CreatedAt != nil {
				created = j.CreatedAt.Local().Format(time.DateTime)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", j.JobId, j.Status, j.Stage, deref(j.TargetLang), j.TotalWords, created, j.OriginalName)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if next != "" {
			fmt.Fprintf(stdout, "more: dragoman jobs list --cursor %s\n", next)
		}
		return nil
	case "get", "download", "cancel":
		if len(pos) == 0 {
			return cmdline.UsageError{Msg: "dragoman jobs " + sub + " JOB_ID..."}
		}
		for _, id := range pos {
			if err := jobAction(ctx, c, sub, id, *out, *cf.json, stdout); err != nil {
				return err
			}
		}
		return nil
	}
	return cmdline.UsageError{Msg: fmt.Sprintf("unknown jobs command %q: list, get, download or cancel", sub)}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func jobAction(ctx context.Context, c *client.Client, sub, id, out string, asJSON bool, stdout io.Writer) error {
	switch sub {
	case "get":
		j, err := c.Job(ctx, id)
		if err != nil {
			return err
		}
		if asJSON {
			return printJSON(stdout, j)
		}
		printJob(stdout, j)
	case "download":
		p, err := c.Download(ctx, id, out, nil)
		if err != nil {
			return err
		}
		if asJSON {
			return printJSON(stdout, map[string]string{"job_id": id, "path": p})
		}
		fmt.Fprintln(stdout, p)
	case "cancel":
		j, err := c.Cancel(ctx, id)
		if err != nil {
			return err
		}
		if asJSON {
			if j == nil {
				return printJSON(stdout, map[string]any{"job_id": id, "deleted": true})
			}
			return printJSON(stdout, j)
		}
		if j == nil {
			fmt.Fprintf(stdout, "%s: finished job deleted\n", id)
		} else {
			fmt.Fprintf(stdout, "%s: cancelled\n", id)
		}
	}
	return nil
}

func printJob(w io.Writer, j *client.Job) {
	fmt.Fprintf(w, "job %s: %s (stage %s)\n", j.JobId, j.Status, j.Stage)
	fmt.Fprintf(w, "  file %s, %s → %s, mode %s, %d words\n", j.OriginalName, deref(j.SourceLang), deref(j.TargetLang), j.TranslationMode, j.TotalWords)
	if j.Engine != nil {
		fmt.Fprintf(w, "  engine %s\n", *j.Engine)
	}
	if j.Error != nil {
		fmt.Fprintf(w, "  error: %s\n", *j.Error)
	}
	if j.DownloadUrl != nil {
		fmt.Fprintf(w, "  download %s\n", *j.DownloadUrl)
	}
	printFidelity(w, "  ", j)
}

// printFidelity prints a job's rtl_fidelity and warnings.
func printFidelity(w io.Writer, indent string, j *client.Job) {
	if j.RtlFidelity.Status != "" {
		fmt.Fprintf(w, "%srtl_fidelity: %s\n", indent, j.RtlFidelity.Status)
		for _, m := range deref(j.RtlFidelity.Warnings) {
			fmt.Fprintf(w, "%s  rtl warning: %s\n", indent, m)
		}
	}
	for _, m := range deref(j.Warnings) {
		fmt.Fprintf(w, "%swarning: %s\n", indent, m)
	}
}

// Usage: dragoman usage.
func Usage(args []string, stdout io.Writer) error {
	cf := newClientFlags("usage")
	if _, err := cf.parse(args); err != nil {
		return err
	}
	c, err := cf.client()
	if err != nil {
		return err
	}
	ctx, cancel := interruptible()
	defer cancel()
	u, err := c.Usage(ctx)
	if err != nil {
		return err
	}
	if *cf.json {
		return printJSON(stdout, u)
	}
	limit := "unlimited"
	if u.LimitWords != nil {
		limit = fmt.Sprint(*u.LimitWords)
	}
	fmt.Fprintf(stdout, "%d of %s words used this month (%s plan)\n", u.UsedWords, limit, u.PlanName)
	return nil
}

// Languages: dragoman languages [--from LANG].
func Languages(args []string, stdout io.Writer) error {
	cf := newClientFlags("languages")
	from := cf.fs.String("from", "", "only languages this source language can be translated into")
	if _, err := cf.parse(args); err != nil {
		return err
	}
	c, err := cf.client()
	if err != nil {
		return err
	}
	ctx, cancel := interruptible()
	defer cancel()
	names, err := c.Languages(ctx, *from)
	if err != nil {
		return err
	}
	if *cf.json {
		return printJSON(stdout, map[string]any{"languages": names})
	}
	for _, n := range names {
		fmt.Fprintln(stdout, n)
	}
	return nil
}

// Webhooks: dragoman webhooks [add|list|test|deliveries|delete].
func Webhooks(args []string, stdout io.Writer) error {
	sub := "list"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	cf := newClientFlags("webhooks " + sub)
	events := cf.fs.String("events", "job.completed,job.failed", "add: comma-separated event kinds")
	limit := cf.fs.Int("limit", 20, "deliveries: at most this many attempts")
	pos, err := cf.parse(args)
	if err != nil {
		return err
	}
	c, err := cf.client()
	if err != nil {
		return err
	}
	ctx, cancel := interruptible()
	defer cancel()
	need := func(what string) (string, error) {
		if len(pos) != 1 {
			return "", cmdline.UsageError{Msg: "dragoman webhooks " + sub + " " + what}
		}
		return pos[0], nil
	}
	switch sub {
	case "add":
		url, err := need("URL")
		if err != nil {
			return err
		}
		w, err := c.AddWebhook(ctx, url, strings.Split(*events, ","))
		if err != nil {
			return err
		}
		if *cf.json {
			return printJSON(stdout, w)
		}
		fmt.Fprintf(stdout, "webhook %s → %s (%s)\nsecret (shown only now): %s\n", w.Id, w.Url, strings.Join(deref(w.Events), ", "), w.Secret)
	case "list":
		ws, err := c.Webhooks(ctx)
		if err != nil {
			return err
		}
		if *cf.json {
			return printJSON(stdout, map[string]any{"webhooks": ws})
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "WEBHOOK\tACTIVE\tEVENTS\tURL")
		for _, w := range ws {
			fmt.Fprintf(tw, "%s\t%v\t%s\t%s\n", w.Id, w.IsActive, strings.Join(deref(w.Events), ","), w.Url)
		}
		return tw.Flush()
	case "test":
		id, err := need("WEBHOOK_ID")
		if err != nil {
			return err
		}
		r, err := c.TestWebhook(ctx, id)
		if err != nil {
			return err
		}
		if *cf.json {
			return printJSON(stdout, r)
		}
		fmt.Fprintf(stdout, "test event %s queued; see dragoman webhooks deliveries %s\n", r.EventId, id)
	case "deliveries":
		id, err := need("WEBHOOK_ID")
		if err != nil {
			return err
		}
		ds, err := c.WebhookDeliveries(ctx, id, *limit)
		if err != nil {
			return err
		}
		if *cf.json {
			return printJSON(stdout, map[string]any{"deliveries": ds})
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "AT\tEVENT\tATTEMPT\tSTATE\tSTATUS\tLATENCY\tERROR")
		for _, d := range ds {
			st := "-"
			if d.ResponseStatus != nil {
				st = fmt.Sprint(*d.ResponseStatus)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%.0f ms\t%s\n", d.AttemptedAt.Local().Format(time.DateTime), d.Event, d.Attempt, d.State, st, d.LatencyMs, deref(d.Error))
		}
		return tw.Flush()
	case "delete":
		id, err := need("WEBHOOK_ID")
		if err != nil {
			return err
		}
		if err := c.DeleteWebhook(ctx, id); err != nil {
			return err
		}
		if *cf.json {
			return printJSON(stdout, map[string]any{"id": id, "deleted": true})
		}
		fmt.Fprintf(stdout, "webhook %s deleted\n", id)
	default:
		return cmdline.UsageError{Msg: fmt.Sprintf("unknown webhooks command %q: add, list, test, deliveries or delete", sub)}
	}
	return nil
}

// VerifySignature: dragoman verify-signature --secret S [--signature SIG] < body.
// With --signature (or X-Webhook-Signature's value in DRAGOMAN_SIGNATURE)
// it checks the body and exits 1 on a mismatch; without, it prints the
// signature the body should carry.
func VerifySignature(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("verify-signature", flag.ContinueOnError)
	secret := fs.String("secret", os.Getenv("DRAGOMAN_WEBHOOK_SECRET"), "the webhook's secret (env DRAGOMAN_WEBHOOK_SECRET)")
	sig := fs.String("signature", os.Getenv("DRAGOMAN_SIGNATURE"), "the X-Webhook-Signature header received (env DRAGOMAN_SIGNATURE); empty: print the expected one")
	asJSON := fs.Bool("json", false, "print JSON for scripts")
	if err := fs.Parse(args); err != nil {
		return cmdline.UsageError{Msg: err.Error()}
	}
	if *secret == "" {
		return cmdline.UsageError{Msg: "--secret is required"}
	}
	body, err := io.ReadAll(stdin)
	if err != nil {
		return err
	}
	want := client.Sign(*secret, body)
	if *sig == "" {
		if *asJSON {
			return printJSON(stdout, map[string]string{"signature": want})
		}
		fmt.Fprintln(stdout, want)
		return nil
	}
	err = client.VerifySignature(*secret, body, *sig)
	if *asJSON {
		_ = printJSON(stdout, map[string]any{"valid": err == nil, "expected": want})
	} else if err == nil {
		fmt.Fprintln(stdout, "signature valid")
	}
	if err != nil {
		return errors.New("signature does not match the body (expected " + want + ")")
	}
	return nil
}

// ErrorText is an error of any command for a person.
func ErrorText(err error) string {
	var ue cmdline.UsageError
	if cmdline.AsUsage(err, &ue) {
		return err.Error()
	}
	return errorText(err)
}
