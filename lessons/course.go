package lessons

import "emergo/rules"

// course is the lessons in the order of docs/rules.md's turn: entering
// first, as a game begins, then moving and capturing, then the rules that
// capturing brings, and the end of the game. Every position is on the 7x7
// board that beginners start on, and shows only the men that matter.
var course = []Lesson{
	{
		ID:    "entering",
		Rules: []string{"4.1", "1.3", "4.3"},
		Exercises: []Exercise{
			{
				Start: "7x7 w 8/8 -",
				Wrong: []Wrong{{Move: "d4", Reason: rules.CentreFirst, Rule: "4.3", Note: "centre"}},
			},
			{
				// Black's men stand where they can jump nothing, so that
				// every empty square is an entry, as the next lesson's rule
				// would have it.
				Start: "7x7 w 6/6 e3:W1 e5:W1 g1:B1 g7:B1",
				Wrong: []Wrong{
					{Move: "e3-d4", Reason: rules.MustEnter, Rule: "4.1", Note: "step"},
					{Move: "e3-f4", Reason: rules.MustEnter, Rule: "4.1", Note: "step"},
					{Move: "e5-d6", Reason: rules.MustEnter, Rule: "4.1", Note: "step"},
					{Move: "e5", Reason: rules.Occupied, Rule: "4.1", Note: "occupied"},
				},
			},
		},
	},
	{
		ID:    "feeding",
		Rules: []string{"4.4"},
		Exercises: []Exercise{
			{
				Start: "7x7 w 8/8 -",
				Moves: []string{"c3"},
				Wrong: []Wrong{
					{Move: "b2", Reason: rules.Feeding, Rule: "4.4", Note: "jumped"},
					{Move: "b4", Reason: rules.Feeding, Rule: "4.4", Note: "jumped"},
					{Move: "d2", Reason: rules.Feeding, Rule: "4.4", Note: "jumped"},
					{Move: "d4", Reason: rules.Feeding, Rule: "4.4", Note: "jumped"},
				},
			},
			{
				Start:  "7x7 w 7/7 b2:W1 f6:B1",
				Accept: []string{"e7", "g5", "g7"},
				Wrong: []Wrong{
					{Move: "e5", Reason: rules.Feeding, Rule: "4.4", Note: "e5"},
					{Move: "d6", Rule: "4.4", Note: "no_attack"},
					{Move: "f4", Rule: "4.4", Note: "no_attack"},
				},
			},
		},
	},
	{
		ID:    "steps",
		Rules: []string{"5.1", "5.2"},
		Exercises: []Exercise{
			{
				Start:  "7x7 w 0/0 c3:W1 a7:W1 d4:B1 e5:B1",
				Accept: []string{"c3-b2", "c3-b4", "c3-d2"},
				Wrong: []Wrong{
					{Move: "a7-b6", Rule: "3.1", Note: "hanging"},
					{Move: "c3xe5", Reason: rules.NoCapture, Rule: "3.1", Note: "blocked"},
					{Move: "c3-c5", Reason: rules.NotAdjacent, Rule: "5.1", Note: "diagonal"},
					{Move: "c3-a5", Reason: rules.NotAdjacent, Rule: "5.1", Note: "diagonal"},
				},
			},
			{
				Start: "7x7 w 0/2 a1:W3 e3:W1 c5:B1w1 f6:B2",
				Wrong: []Wrong{
					{Move: "d4", Reason: rules.NoMenInHand, Rule: "5.2", Note: "enter"},
					{Move: "g7", Reason: rules.NoMenInHand, Rule: "5.2", Note: "enter"},
				},
			},
		},
	},
	{
		ID:    "captures",
		Rules: []string{"3.1", "3.2", "3.3", "3.5"},
		Exercises: []Exercise{
			{
				Start:  "7x7 w 6/6 c3:W1 g1:W1 d4:B1 a7:B1",
				Accept: []string{"c3xe5"},
				Wrong: []Wrong{
					{Move: "e5", Reason: rules.MustCapture, Rule: "3.5", Note: "enter"},
					{Move: "b6", Reason: rules.MustCapture, Rule: "3.5", Note: "enter"},
				},
			},
			{
				Start:  "7x7 w 0/0 a1:W1 b2:B1 d4:B1 d6:B1",
				Accept: []string{"a1xc3xe5xc7"},
				Wrong: []Wrong{
					{Move: "a1xc3", Reason: rules.Majority, Rule: "3.3", Note: "go_on"},
					{Move: "a1xc3xe5", Reason: rules.Majority, Rule: "3.3", Note: "go_on"},
				},
			},
		},
	},
	{
		ID:    "majority",
		Rules: []string{"3.6"},
		Exercises: []Exercise{
			{
				Start:  "7x7 w 0/0 a1:W1 b2:B1 d4:B1 f2:B1 g3:W1",
				Accept: []string{"a1xc3xe5"},
				Wrong:  []Wrong{{Move: "g3xe1", Reason: rules.Majority, Rule: "3.6", Note: "fewer"}},
			},
			{
				Start:  "7x7 w 0/0 c3:W1 b4:B1 d4:B1 d6:B1",
				Accept: []string{"c3xe5xc7"},
				Wrong:  []Wrong{{Move: "c3xa5", Reason: rules.Majority, Rule: "3.6", Note: "fewer"}},
			},
		},
	},
	{
		ID:    "turn",
		Rules: []string{"3.3", "3.4"},
		Exercises: []Exercise{
			{
				Start:  "7x7 w 0/0 c3:W1 d4:B2",
				Accept: []string{"c3xe5"},
				Wrong:  []Wrong{{Move: "c3xe5xc3", Reason: rules.NoSuchCapture, Rule: "3.3", Note: "back"}},
			},
			{
				// docs/rules.md's case D1, two ranks lower.
				Start:  "7x7 w 0/0 d2:W3 c3:B2w2 e3:B1 c5:B1 e5:B1",
				Accept: []string{"d2xb4xd6xf4xd2xb4"},
				Wrong: []Wrong{
					{Move: "d2xf4xd6xb4xd2", Reason: rules.Majority, Rule: "3.3", Note: "stuck"},
					{Move: "d2xf4xd6xb4xd2xb4", Reason: rules.NoSuchCapture, Rule: "3.3", Note: "back"},
				},
			},
		},
	},
	{
		ID:    "freeing",
		Rules: []string{"3.2"},
		Exercises: []Exercise{
			{
				Start:  "7x7 w 0/0 c3:W1 d4:B1w2 e1:W1 f2:B1",
				Accept: []string{"c3xe5"},
				Wrong:  []Wrong{{Move: "e1xg3", Rule: "3.2", Note: "still_prisoners"}},
			},
			{
				Start:  "7x7 w 0/0 c3:W1 d4:B2w1 e1:W1 f2:B1w2",
				Accept: []string{"e1xg3"},
				Wrong:  []Wrong{{Move: "c3xe5", Rule: "3.2", Note: "two_on_top"}},
			},
		},
	},
	{
		ID:    "shadow",
		Rules: []string{"4.2", "4.5"},
		Exercises: []Exercise{
			{
				Start: "7x7 b 0/2 a1:W6b1 d4:W1 f6:B5w1",
				Wrong: []Wrong{
					{Move: "c3", Reason: rules.Feeding, Rule: "4.5", Note: "jumped"},
					{Move: "e3", Reason: rules.Feeding, Rule: "4.5", Note: "jumped"},
					{Move: "c5", Reason: rules.Feeding, Rule: "4.5", Note: "jumped"},
					{Move: "b2", Reason: rules.Feeding, Rule: "4.5", Note: "jumped"},
				},
			},
			{
				Start:  "7x7 b 0/2 a1:W6b1 e5:W1 f6:B5w1",
				Accept: []string{"f6xd4"},
				Wrong: []Wrong{
					{Move: "g7", Reason: rules.MustCapture, Rule: "3.5", Note: "capture_first"},
					{Move: "c3", Reason: rules.MustCapture, Rule: "3.5", Note: "capture_first"},
				},
			},
		},
	},
	{
		ID:    "ending",
		Rules: []string{"6.1", "6.2", "6.3"},
		Exercises: []Exercise{
			{
				Start:  "7x7 w 0/0 c3:W3b7 d4:B1w5",
				Accept: []string{"c3xe5"},
				Wrong:  []Wrong{{Move: "c3-b4", Reason: rules.MustCapture, Rule: "3.5", Note: "capture"}},
			},
			{
				Start:  "7x7 b 0/2 e5:W1b5 d6:B1w7",
				Accept: []string{"d6xf4"},
				Wrong:  []Wrong{{Move: "g7", Reason: rules.MustCapture, Rule: "3.5", Note: "capture"}},
			},
			{
				// Far ahead, White must not block Black's last column: a
				// player with no legal move draws.
				Start:  "7x7 w 0/0 a1:B1w3 c1:W2b3 c3:W3b4",
				Accept: []string{"c1-d2", "c3-b4", "c3-d2", "c3-d4"},
				Wrong: []Wrong{
					{Move: "c1-b2", Rule: "6.2", Note: "blocked"},
					{Move: "c3-b2", Rule: "3.1", Note: "jumped"},
				},
			},
		},
	},
}
