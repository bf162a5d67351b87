package server

import "testing"

func TestConnInfoDSN(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ci   ConnInfo
		want string
	}{
		{ConnInfo{Host: "127.0.0.1", Port: "5433", User: "u", Password: "p@ss", DBName: "db"}, "postgres://u:p%40ss@127.0.0.1:5433/db"},
		{ConnInfo{Host: "/var/run/postgresql", Port: "5432", User: "u", DBName: "db"}, "postgres://u@/db?host=%2Fvar%2Frun%2Fpostgresql&port=5432"},
		{ConnInfo{Host: "h", DBName: "db", SSLMode: "disable"}, "postgres://h/db?sslmode=disable"},
	}
	for _, tt := range tests {
		if got := tt.ci.DSN(); got != tt.want {
			t.Errorf("%+v.DSN() = %q, want %q", tt.ci, got, tt.want)
		}
		if _, _, err := Endpoint(tt.ci.DSN()); err != nil {
			t.Errorf("Endpoint(%q): %v", tt.ci.DSN(), err)
		}
	}
}
