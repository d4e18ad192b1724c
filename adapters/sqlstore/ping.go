package sqlstore

import "context"

// Ping runs a trivial query on the read pool, for the readiness probe.
func (s *Store) Ping(ctx context.Context) error {
	var n int
	return s.r.GetContext(ctx, &n, "SELECT 1")
}
