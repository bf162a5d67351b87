package clients

import (
	"slices"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	tests := []struct {
		names []string
		want  []string // nil: an error
	}{
		{[]string{"all"}, []string{"ch-go", "clickhouse-go", "clickhouse-go-sql", "clickhouse-go-v1", "http"}}, // external clients only by name
		{[]string{"php-seasclick"}, []string{"php-seasclick"}},
		{[]string{"http", "clickhouse-go-v1"}, []string{"http", "clickhouse-go-v1"}},
		{[]string{"http", "odbc"}, nil},
		{[]string{"all", "http"}, nil}, // all only alone
	}
	for _, tt := range tests {
		got, err := Resolve(tt.names)
		var names []string
		for _, n := range got {
			names = append(names, n.Name)
			if n.Client.Open == nil {
				t.Errorf("Resolve(%q): %s has no Open", tt.names, n.Name)
			}
		}
		switch {
		case tt.want == nil && (err == nil || !strings.Contains(err.Error(), "unknown client")):
			t.Errorf("Resolve(%q) = %q, %v; want an unknown client error", tt.names, names, err)
		case tt.want != nil && (err != nil || !slices.Equal(names, tt.want)):
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.names, names, err, tt.want)
		}
	}
}
