//go:build js

package egtb

// three7 is empty in the browser's engine: its download would grow by
// the table's 1.8 MB for the few games that reach three columns.
var three7 []byte
