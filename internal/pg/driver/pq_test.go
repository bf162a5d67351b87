package driver

import "testing"

func TestWithParam(t *testing.T) {
	t.Parallel()
	tests := []struct{ dsn, want string }{
		{"postgres://u@h:1/db?sslmode=disable", "postgres://u@h:1/db?binary_parameters=yes&sslmode=disable"},
		{"host=h dbname=db", "host=h dbname=db binary_parameters=yes"},
	}
	for _, tt := range tests {
		if got := withParam(tt.dsn, "binary_parameters", "yes"); got != tt.want {
			t.Errorf("withParam(%q) = %q, want %q", tt.dsn, got, tt.want)
		}
	}
}
