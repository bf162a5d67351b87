// Package report renders result documents for people: text tables on a
// terminal and the other formats. Reporters read only the result document,
// never the live run, so every report can be made again later from a saved
// --json file.
package report
