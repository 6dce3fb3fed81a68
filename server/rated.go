package server

import (
	"math"

	"emergo/rating"
	"emergo/round"
)

// rateState adds the players' ratings to st, the state of the game v:
// each account's rating, and once the game is rated its new rating and
// the change, rounded as shown.
func (s *Server) rateState(v round.View, st *stateJSON) {
	st.Rated = v.Round.Rated
	now := s.now()
	for c, name := range colorNames {
		p := st.Players[name]
		switch {
		case len(v.Standing.Changes) == 2:
			ch := v.Standing.Changes[c]
			p.Rating = rating.Rating{Rating: ch.After, Deviation: ch.Deviation}.String()
			diff := int(math.Round(ch.After - ch.Before))
			p.RatingDiff = &diff
		case v.Standing.Ratings[c] != nil:
			p.Rating = v.Standing.Ratings[c].At(now).String()
		}
		st.Players[name] = p
	}
}
