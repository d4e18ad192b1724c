// Package migrations holds the numbered SQL schema files of each database
// dialect. The store applies them in name order and records each one in
// schema_migrations, so opening a database twice changes nothing.
package migrations

import "embed"

// SQLite is the schema for the embedded single-machine deployment.
//
//go:embed sqlite/*.sql
var SQLite embed.FS

// Postgres is the schema for the scale-out deployment.
//
//go:embed postgres/*.sql
var Postgres embed.FS
