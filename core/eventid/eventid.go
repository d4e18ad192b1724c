// Package eventid makes the ids of events that must come out the same
// however often the event is announced: name-based UUIDs (version 5), so
// transports and receivers can drop the duplicates by id.
package eventid

import "github.com/google/uuid"

// New is the UUIDv5 of name in namespace ns.
func New(ns uuid.UUID, name string) string {
	return uuid.NewSHA1(ns, []byte(name)).String()
}
