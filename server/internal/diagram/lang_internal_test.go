package diagram

import "testing"

// TestPlural checks the plural rules against CLDR's examples of each form.
func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lang  *Lang
		forms [][]int // the counts of each form, in order
	}{
		{"en", English, [][]int{{1}, {0, 2, 5, 11, 21}}},
		{"lfn", Elefen, [][]int{{1}, {0, 2, 5, 11, 21}}},
		{"pt", Portuguese, [][]int{{0, 1}, {2, 5, 11, 21}}},
		{"ru", Russian, [][]int{{1, 21, 31, 101}, {2, 3, 4, 22, 24, 102}, {0, 5, 11, 12, 14, 20, 25, 111, 112}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for form, counts := range tc.forms {
				for _, n := range counts {
					if got := tc.lang.plural(n); got != form {
						t.Errorf("plural(%d) = %d, want %d", n, got, form)
					}
				}
			}
			if len(tc.lang.men[0]) != len(tc.forms) || len(tc.lang.held[1]) != len(tc.forms) {
				t.Errorf("%d forms of men and %d of prisoners, want %d", len(tc.lang.men[0]), len(tc.lang.held[1]), len(tc.forms))
			}
		})
	}
}
