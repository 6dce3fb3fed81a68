package eval

import _ "embed"

// The 7x7 board's pattern tables (Patterns), written by
// `emergo tune patterns -size 7 -out eval/patterns7.bin` (docs/tuning.md).
//
//go:embed patterns7.bin
var patterns7 []byte

// Trained7 is the trained evaluation of the 7x7 board: the pattern tables
// and the handcrafted weights fitted with them.
var Trained7 = Weights{
	W:        [NumFeatures]int32{100, 6, 71, -31, -36, 8, -4, 22, -53, -67, -4},
	Tempo:    54,
	Patterns: mustPatterns(patterns7),
}

func mustPatterns(data []byte) *Patterns {
	pt, err := UnmarshalPatterns(data)
	if err != nil {
		panic(err)
	}
	return pt
}
