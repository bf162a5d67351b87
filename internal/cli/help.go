package cli

import (
	"embed"
	"strings"
)

// A command's long help and its examples are prose: they live in
// help/NAME.txt (the examples in help/NAME-example.txt), where they read,
// wrap and diff as text, and the Go files hold only what binds flags.
//
//go:embed help/*.txt
var helpTexts embed.FS

// help is the text of help/name.txt.
func help(name string) string {
	b, err := helpTexts.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(err) // a file renamed: every test that builds the command tree meets it
	}
	return strings.TrimSuffix(string(b), "\n")
}
