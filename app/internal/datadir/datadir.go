// Package datadir opens what every process on one data dir (serve, the
// admin commands) opens the same way: the store, SQLite in the data dir
// unless a PostgreSQL URL is given, and the key that encrypts webhook
// secrets at rest.
package datadir

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
)

// OpenStore opens PostgreSQL when databaseURL is set, else the SQLite
// file in dataDir (made if missing).
func OpenStore(dataDir, databaseURL string) (*sqlstore.Store, error) {
	if databaseURL != "" {
		return sqlstore.OpenPostgres(databaseURL)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	return sqlstore.OpenSQLite(filepath.Join(dataDir, "dragoman.db"))
}

// SecretKey is the configured key (hex) that encrypts webhook secrets, or
// one generated once into the data dir's secret.key.
func SecretKey(dataDir, configured string) ([]byte, error) {
	if configured != "" {
		return hex.DecodeString(strings.TrimSpace(configured))
	}
	path := filepath.Join(dataDir, "secret.key")
	if b, err := os.ReadFile(path); err == nil {
		return hex.DecodeString(strings.TrimSpace(string(b)))
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, []byte(hex.EncodeToString(key)+"\n"), 0o600); err != nil {
		return nil, err
	}
	return key, nil
}
