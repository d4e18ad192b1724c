package eventbus

import (
	"context"
	"fmt"

	wmnats "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/nats"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Publisher is a watermill Publisher that writes to JetStream and returns
// only once the server has stored the message (synchronous publish).
// Messages use watermill-nats' header format, so watermill-nats
// subscribers can read them too. The message UUID doubles as the
// JetStream Nats-Msg-Id, which de-duplicates re-publishing of the same
// event within the stream's duplicate window.
type Publisher struct {
	streams   *streams
	marshaler wmnats.NATSMarshaler
	onClose   func()
}

var _ message.Publisher = (*Publisher)(nil)

// Publish stores messages on topic, in order.
func (p *Publisher) Publish(topic string, msgs ...*message.Message) error {
	return p.PublishContext(context.Background(), topic, msgs...)
}

// PublishContext is Publish bounded by ctx.
func (p *Publisher) PublishContext(ctx context.Context, topic string, msgs ...*message.Message) error {
	if err := p.streams.ensure(ctx, topic); err != nil {
		return err
	}
	for _, m := range msgs {
		nm, err := p.marshaler.Marshal(topic, m)
		if err != nil {
			return fmt.Errorf("eventbus: marshal %s: %w", m.UUID, err)
		}
		if _, err := p.streams.js.PublishMsg(ctx, nm, jetstream.WithMsgID(m.UUID)); err != nil {
			return fmt.Errorf("eventbus: publish %s to %s: %w", m.UUID, topic, err)
		}
	}
	return nil
}

// Close releases the connection if the publisher owns one.
func (p *Publisher) Close() error {
	if p.onClose != nil {
		p.onClose()
	}
	return nil
}

// toWatermill turns a JetStream message into a watermill one.
func toWatermill(jm jetstream.Msg) *message.Message {
	var u wmnats.NATSMarshaler
	m, err := u.Unmarshal(&nats.Msg{Subject: jm.Subject(), Header: jm.Headers(), Data: jm.Data()})
	if err != nil || m.UUID == "" {
		// A message from another producer: keep its payload, name it by
		// its JetStream id so handlers still see a stable UUID.
		id := jm.Headers().Get(nats.MsgIdHdr)
		if md, err := jm.Metadata(); id == "" && err == nil {
			id = fmt.Sprintf("%s-%d", md.Stream, md.Sequence.Stream)
		}
		m = message.NewMessage(id, jm.Data())
	}
	return m
}
