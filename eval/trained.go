package eval

import _ "embed"

// The pattern tables (Patterns) of each board, written by `emergo tune
// patterns` (docs/tuning.md, "The trained evaluation").
var (
	//go:embed patterns7.bin
	patterns7 []byte
	//go:embed patterns9.bin
	patterns9 []byte
)

// Patterns9 is the 9x9 board's tables, fitted on top of Default's 9x9
// weights as they are (`emergo tune patterns -size 9 -hold`): Default
// adds them.
var Patterns9 = mustPatterns(patterns9)

// Trained7 is the trained evaluation of the 7x7 board: the pattern tables
// and the handcrafted weights fitted with them.
var Trained7 = Weights{
	W:        [NumFeatures]int32{100, -4, 68, -27, -33, 7, -3, 28, -68, -46, -3},
	Tempo:    55,
	Patterns: mustPatterns(patterns7),
}

func mustPatterns(data []byte) *Patterns {
	pt, err := UnmarshalPatterns(data)
	if err != nil {
		panic(err)
	}
	return pt
}
