//go:build !js

package egtb

import _ "embed"

// three7 is the 7x7 three-column table, compressed: 1.8 MB that the
// browser's engine goes without.
//
//go:embed three7.bin.gz
var three7 []byte
