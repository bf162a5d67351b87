package extworker

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as the workers the tests start: real processes
// over real pipes, healthy or broken on purpose. EXTWORKER_TEST_MODE picks
// the behaviour.
const modeEnv = "EXTWORKER_TEST_MODE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(modeEnv); mode != "" {
		testWorker(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// secret is a password the tests hand the workers; it must never show.
const secret = "s3cret-pw-42"

func testWorker(mode string) {
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) {
		out.WriteString(s + "\n")
		out.Flush()
	}
	hello := fmt.Sprintf(`{"protocol":%d,"language":"go","runtime":"test","library":"none"}`, Version)
	switch mode {
	case "garbage-hello":
		say("Welcome to my worker!")
		return
	case "version":
		say(`{"protocol":2,"language":"go","runtime":"test","library":"none"}`)
		return
	case "exit-at-start":
		fmt.Fprintln(os.Stderr, "fatal: cannot load client with password "+secret)
		os.Exit(3)
	case "cannot-run":
		say(`{"protocol":1,"language":"go","runtime":"test","library":"","error":"library missing: install it"}`)
		os.Exit(1)
	case "hang-at-start":
		time.Sleep(time.Hour)
	}
	say(hello)
	in := bufio.NewScanner(os.Stdin)
	n := 0
	for in.Scan() {
		var req struct {
			Op     string         `json:"op"`
			Params map[string]any `json:"params"`
			Kind   string         `json:"kind"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			say(`{"ok":false,"kind":"other","error":"bad request"}`)
			continue
		}
		switch req.Op {
		case "setup":
			if mode == "setup-fails" {
				say(`{"ok":false,"kind":"connection","error":"connect to server: refused (password ` + secret + `)"}`)
				continue
			}
			say(`{"ok":true}`)
			continue
		case "ping", "reset":
			say(`{"ok":true}`)
			continue
		}
		n++
		switch {
		case mode == "garbage-reply" && n == 2:
			say("<html>oops</html>")
		case mode == "exit-mid" && n == 2:
			fmt.Fprintln(os.Stderr, "PHP Fatal error: out of memory (password "+secret+")")
			os.Exit(255)
		case mode == "hang-mid" && n == 2:
			time.Sleep(time.Hour)
		case req.Kind != "":
			say(`{"ok":false,"kind":"` + req.Kind + `","error":"failed as asked"}`)
		default:
			say(`{"ok":true,"rows":10,"bytes":80,"ns":1500,"phases":{"send":1000}}`)
		}
	}
}

// spec starts this test binary as a worker in mode.
func spec(t testing.TB, mode string) Spec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Spec{
		Name: "test-" + mode, Argv: []string{exe, "-test.run=^$"}, Env: []string{modeEnv + "=" + mode},
		Setup: map[string]any{"password": secret}, Secrets: []string{secret},
		StartTimeout: 2 * time.Second, OpTimeout: 500 * time.Millisecond,
	}
}

func oneLine(t *testing.T, err error) string {
	t.Helper()
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("message spans lines: %q", msg)
	}
	if strings.Contains(msg, secret) {
		t.Errorf("message shows the password: %q", msg)
	}
	return msg
}
