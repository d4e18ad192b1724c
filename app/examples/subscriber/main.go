// Command subscriber is an example event subscriber for Dragoman: it reads
// every job event from the service's NATS JetStream with watermill, in its
// own durable consumer group, and appends one JSON line per event to a
// file (or stdout).
//
//	go run ./app/examples/subscriber --nats nats://127.0.0.1:4222 --group audit --out events.jsonl
//
// The group is durable: stop the subscriber, and on its next start it
// receives what it missed (for as long as the service keeps events, 7
// days). Delivery is at least once, so an event may come twice after a
// crash; dedupe on event_id. Several copies with the same --group share
// the events. Each event is acknowledged after its line is written, so a
// slow or stopped subscriber never holds up the service's pipeline.
//
// The topics and payload are the contract in the README's "Event
// subscribers" section (version 2).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wmnats "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/nats"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"
)

// topics are the job event topics of contract version 2, in pipeline order.
var topics = []string{
	"job_accepted", "job_started", "job_converted", "job_extracted",
	"job_translated", "job_laid_out", "job_completed", "job_failed",
}

// event is the payload of contract version 2.
type event struct {
	EventID   string    `json:"event_id"`
	JobID     string    `json:"job_id"`
	AccountID string    `json:"account_id"`
	Stage     string    `json:"stage"`
	Status    string    `json:"status"`
	At        time.Time `json:"at"`
	Error     string    `json:"error,omitempty"`
}

// line is what the subscriber writes per event.
type line struct {
	Topic   string `json:"topic"`
	Version string `json:"version"`
	event
}

func main() {
	url := flag.String("nats", envOr("DRAGOMAN_EVENTS_URL", "nats://127.0.0.1:4222"), "NATS URL of the service's event bus (dragoman serve --nats-listen, or the --nats-url it uses)")
	group := flag.String("group", "example", "durable consumer group: letters, digits, - and _")
	out := flag.String("out", "", "file to append JSON lines to (default stdout)")
	flag.Parse()
	if err := run(*url, *group, *out); err != nil {
		fmt.Fprintln(os.Stderr, "subscriber:", err)
		os.Exit(1)
	}
}

func run(url, group, out string) error {
	var w io.Writer = os.Stdout
	if out != "" {
		f, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	logger := watermill.NewSlogLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))

	sub, err := wmnats.NewSubscriber(wmnats.SubscriberConfig{
		URL:              url,
		NatsOptions:      []nats.Option{nats.Name("dragoman-subscriber-" + group), nats.MaxReconnects(-1)},
		QueueGroupPrefix: group,
		AckWaitTimeout:   30 * time.Second,
		CloseTimeout:     5 * time.Second,
		Unmarshaler:      &wmnats.NATSMarshaler{},
		JetStream: wmnats.JetStreamConfig{
			// The service creates the streams (one per topic, named after
			// it); the subscriber only binds a durable consumer to each.
			AutoProvision: false,
			SubscribeOptions: []nats.SubOpt{
				nats.DeliverAll(), // a new group starts from the oldest kept event
				nats.AckExplicit(),
				nats.AckWait(30 * time.Second),
			},
			DurablePrefix:     group,
			DurableCalculator: func(prefix, topic string) string { return prefix + "_" + topic },
		},
	}, logger)
	if err != nil {
		return err
	}

	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: 5 * time.Second}, logger)
	if err != nil {
		return err
	}
	var mu sync.Mutex
	for _, topic := range topics {
		router.AddConsumerHandler(group+"@"+topic, topic, sub, func(m *message.Message) error {
			l := line{Topic: topic, Version: m.Metadata.Get("Dragoman-Event-Version")}
			if err := json.Unmarshal(m.Payload, &l.event); err != nil {
				return nil // not a job event: acknowledge and skip it
			}
			b, _ := json.Marshal(l)
			mu.Lock()
			defer mu.Unlock()
			// The line is written before the ack (the handler's nil), so
			// a crash can repeat an event but never lose one.
			_, err := w.Write(append(b, '\n'))
			return err
		})
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-router.Running()
		fmt.Fprintf(os.Stderr, "subscriber: group %s on %s, %d topics\n", group, url, len(topics))
	}()
	return router.Run(ctx)
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
