// Package workers holds dbmeter's reference workers: small programs in
// other languages that speak the worker protocol (docs/worker-protocol.md)
// over one ClickHouse client library each. They are embedded in the binary,
// so `dbmeter ch insert --clients php-seasclick` runs from any directory;
// each run writes the script it needs into a directory of its own.
package workers

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
)

//go:embed php/*.php python/*.py
var files embed.FS

// Write copies the script name (e.g. "php/seasclick.php") into dir and
// returns its path.
func Write(dir, name string) (string, error) {
	b, err := files.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("reference worker %s: %w", name, err)
	}
	path := filepath.Join(dir, filepath.Base(name))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return "", fmt.Errorf("write worker script: %w", err)
	}
	return path, nil
}
