package server

import (
	"errors"
	"fmt"
	"net/http"

	"emergo/account"
	"emergo/chat"
	"emergo/enginework"
	"emergo/game"
	"emergo/lobby"
	"emergo/notation"
	"emergo/round"
	"emergo/rules"
	"emergo/view"
)

// An error of the API is a status, a code and an English message
// (docs/api.md): {"error": "the first move may not be on the centre e5
// (RULES 4.3)", "code": "move.centre_first", "params": {"square": "e5",
// "rule": "4.3", ...}}. The message is for API users; the pages say the
// code in their language, from its parameters (web/i18n: error.CODE). The
// codes are stable, and the ones below are all there are: each has its
// message in every catalogue (TestErrorCodesTranslated).
const (
	// The request itself.
	codeInvalid     = "request.invalid" // a value the API does not take; the message says which
	codeMalformed   = "request.malformed"
	codeTooLarge    = "request.too_large"
	codeNoEndpoint  = "request.not_found"
	codeBadMethod   = "request.method_not_allowed" // a path of the API asked with a method it does not take
	codeTooMany     = "request.too_many"
	codeTooManyLive = "request.too_many_streams"
	// Connections: too many of one client, the server full, a body too
	// slow, a cross-origin request refused.
	codeTooManyConns = "request.too_many_connections"
	codeServerBusy   = "server.busy"
	codeSlowBody     = "request.timeout"
	codeCrossOrigin  = "request.cross_origin"
	codeUnavailable  = "server.unavailable"
	codeInternal     = "server.internal"
	codeStorage      = "server.storage"
	codeReadStorage  = "server.read_storage"

	// Games.
	codeNoSuchGame      = "game.not_found"
	codeDamaged         = "game.damaged"
	codeChanged         = "game.changed"
	codeNotPlaying      = "game.not_playing"
	codeStale           = "game.stale"
	codeAbsent          = "game.opponent_absent"
	codeSeatsTaken      = "game.seats_taken"
	codeInvited         = "game.invited"
	codeNotYourTurn     = "game.not_your_turn"
	codeTimeOut         = "game.time_out"
	codeAborted         = "game.aborted"
	codeOver            = "game.over"
	codeTooLate         = "game.too_late_to_abort"
	codeDrawDeclined    = "offer.draw_declined"
	codeNoDrawOffer     = "offer.no_draw"
	codeNoTakeback      = "offer.no_takeback"
	codeNothingToTake   = "offer.nothing_to_take_back"
	codeAnalysisClosed  = "analysis.closed"
	codeAnalysisOver    = "analysis.game_over"
	codeAnalysisStopped = "analysis.interrupted"
	codeAnalysisBusy    = "analysis.too_many"
	codeAnalysisFull    = "analysis.queue_full"
	// The bounds on games against the engine (enginegames.go).
	codeTooManyEngineGames = "game.too_many_engine_games"
	codeEngineGamesTooFast = "game.engine_games_too_fast"
	codeEngineGamesFull    = "game.engine_games_full"
	// A client's friend games waiting for their second player at his
	// bound (param n), made too fast (n seconds to wait), and the site's
	// at its own (invitations.go).
	codeTooManyInvitations = "game.too_many_invitations"
	codeInvitationsTooFast = "game.invitations_too_fast"
	codeInvitationsFull    = "game.invitations_full"

	// Records.
	codeRecordTooLarge    = "record.too_large"
	codeRecordUnread      = "record.unreadable"
	codeRecordUnplayed    = "record.unplayable"
	codeRecordNotWritten  = "record.not_written"
	codeRecordTooLong     = "record.too_long"     // more plies than the server takes
	codeRecordTooMany     = "record.too_many"     // a client's uploads an hour
	codeRecordStorageFull = "record.storage_full" // a record larger than the uploads' storage bound
	codeNoUploads         = "record.no_uploads"   // the store keeps no uploads

	// Accounts and players.
	codeAccountsDown     = "account.unavailable"
	codeNoAccounts       = "account.none"
	codeNameTaken        = "account.name_taken"
	codeWrongPassword    = "account.wrong_password"
	codeThrottledSeconds = "account.throttled_seconds"
	codeThrottledMinutes = "account.throttled_minutes"
	codeNoPlayer         = "player.not_found"
	codeHashBusy         = "account.busy"       // this client has a login or signup waiting for its check
	codeHashQueueFull    = "account.queue_full" // too many logins and signups wait for their checks
	codeNameReserved     = "name.reserved"      // a guest's name that is the engine's, an account's or reserved

	// Tokens and bots.
	codeLogInFirst    = "account.log_in"       // an account's action asked without one
	codeBadToken      = "token.invalid"        // a bearer token that is none (revoked, mistyped)
	codeTokenScope    = "token.scope"          // a token without the scope of the action (param scope)
	codeTooManyTokens = "token.too_many"       // an account's tokens at their bound (param n)
	codeNoToken       = "token.not_found"      // no such token of the account's
	codeSessionOnly   = "token.session_only"   // tokens are managed from a logged-in browser, not with a token
	codeHasGames      = "bot.has_games"        // the upgrade of an account that has played
	codeNotBot        = "bot.not_a_bot"        // the bot API asked by an account that is not a bot
	codeForPeople     = "challenge.for_people" // a bot taking an open challenge that does not allow bots

	// Vacation.
	codeOnVacation    = "vacation.already"   // a vacation asked while one runs
	codeVacationDays  = "vacation.days"      // days out of 1 to those left (params n)
	codeNoVacationDay = "vacation.none_left" // the year's allowance all taken
	codeNotOnVacation = "vacation.not_on"    // the end of a vacation asked while none runs

	// The lobby.
	codeNoLobby        = "lobby.none"
	codeLobbyLogIn     = "lobby.log_in"
	codeNoChallenge    = "challenge.not_found"
	codeChallengeGone  = "challenge.gone"
	codeNotYours       = "challenge.not_yours"
	codeChallengeGuest = "challenge.to_guest"
	codeChallengeSelf  = "challenge.self"
	codeNoRematch      = "rematch.not_allowed"
	// A challenger's pending challenges at his bound (param n), and the
	// lobby's at its own.
	codeTooManyChallenges = "challenge.too_many"
	codeLobbyFull         = "lobby.full"
	codeChallengeTooFast  = "challenge.too_fast"
	codeNoPool            = "pool.not_found" // quick pairing: no pool of that name

	// TV.
	codeNoTV = "tv.none" // the store does not choose the TV's games

	// Chat and moderation (chat.go): the chat kept by no store; a guest,
	// who reads but does not write, block or report; a line empty, too
	// long (params max, n), in a room not the writer's, too fast (param
	// n, seconds), or beyond the site's bound; a block or report of
	// oneself, beyond the bound of blocks (param n); a report without a
	// reason, too fast (param n, minutes), or beyond the store's bound;
	// a moderator's action by someone who is not one.
	codeNoChat         = "chat.none"
	codeChatLogIn      = "chat.log_in"
	codeChatEmpty      = "chat.empty"
	codeChatTooLong    = "chat.too_long"
	codeChatNotPlayer  = "chat.not_player"
	codeChatPlaying    = "chat.playing"
	codeChatTooFast    = "chat.too_fast"
	codeChatBusy       = "chat.busy"
	codeChatSelf       = "chat.self"
	codeTooManyBlocks  = "chat.too_many_blocks"
	codeReportNoReason = "report.no_reason"
	codeReportTooFast  = "report.too_fast"
	codeReportsFull    = "report.full"
	codeNotModerator   = "moderation.forbidden"

	// Puzzles.
	codeNoPuzzle = "puzzle.not_found"

	// Positions: a position that cannot be read or set up (params.detail).
	// The refusals of the rules (package view) are the browser engine's
	// too: its codes are this one, the move.* codes of notation.MoveProblem
	// and game.over for a move after the end, with params.index for a move
	// of a list (TestErrorCodesTranslated checks that each is one of
	// these).
	codePosition = "position.invalid"

	// Notifications, push and following.
	codeNoNotify        = "notify.none"               // the store keeps no notifications
	codeNotifyLogIn     = "notify.log_in"             // notifications and follows are an account's
	codeNoPush          = "push.none"                 // the server sends no push
	codeBadSubscription = "push.invalid_subscription" // params.detail says what is wrong
	codeFollowSelf      = "follow.self"
	codeTooManyFollows  = "follow.too_many" // param n, the bound

	// Tournaments (tournaments.go): none kept by the store; a guest who
	// would create or join; no such tournament, or changed meanwhile; an
	// action of the creator's by another, or one its status does not
	// allow (param status), a start with too few players (param n); a
	// withdrawal of one not in it; the bounds of an account's tournaments
	// not finished and created in a day (param n) and of the site's; and
	// the reasons a player may not enter: the players at their bound, a
	// round robin started, a tournament over, the rating range, the rated
	// games, the invitation, the password; a TRF file asked of what is
	// not a Swiss begun.
	codeNoTournaments        = "tournament.none"
	codeTournamentLogIn      = "tournament.log_in"
	codeNoTournament         = "tournament.not_found"
	codeTournamentChanged    = "tournament.changed"
	codeTournamentNotCreator = "tournament.not_creator"
	codeTournamentState      = "tournament.state"
	codeTournamentTooFew     = "tournament.too_few"
	codeTournamentNotJoined  = "tournament.not_joined"
	codeTooManyTournaments   = "tournament.too_many"
	codeTournamentsTooFast   = "tournament.too_fast"
	codeTournamentsFull      = "tournament.site_full"
	codeTournamentFull       = "tournament.full"
	codeTournamentStarted    = "tournament.started"
	codeTournamentOver       = "tournament.over"
	codeTournamentRatingLow  = "tournament.rating_low"
	codeTournamentRatingHigh = "tournament.rating_high"
	codeTournamentFewGames   = "tournament.few_games"
	codeTournamentNotInvited = "tournament.not_invited"
	codeTournamentPassword   = "tournament.password"
	codeTournamentNoTRF      = "tournament.no_trf"
)

// busy are the codes of the refusals of a total bound (a full queue, a
// full server): answered 503, they are not errors of the server, and are
// counted and logged apart from them.
var busy = map[string]bool{codeAnalysisFull: true, codeServerBusy: true, codeHashQueueFull: true, codeLobbyFull: true, codeEngineGamesFull: true,
	codeInvitationsFull: true, codeChatBusy: true, codeReportsFull: true, codeTournamentsFull: true}

// apiError is an error of a request itself, made by the HTTP layer: its
// status, its code and parameters, and its English message.
type apiError struct {
	status int
	code   string
	msg    string
	params map[string]any
}

func (e *apiError) Error() string { return e.msg }

// failure is an API error without parameters.
func failure(status int, code, msg string) *apiError {
	return &apiError{status: status, code: code, msg: msg}
}

// invalid is a request with a value the API does not take: 400, the
// message saying which. The pages never send one.
func invalid(format string, args ...any) *apiError {
	return failure(http.StatusBadRequest, codeInvalid, fmt.Sprintf(format, args...))
}

// errorJSON is an error as the API answers it.
type errorJSON struct {
	Error  string         `json:"error"`
	Code   string         `json:"code"`
	Params map[string]any `json:"params,omitempty"`
}

func writeError(w http.ResponseWriter, err error) {
	e := httpError(err)
	noteCode(w, e.code)
	writeJSON(w, e.status, errorJSON{e.msg, e.code, e.params})
}

// httpError gives an error its status, code and message: the HTTP
// layer's own, the round's (package round), the game's, the rules', the
// notation's and the accounts' all map here, and nowhere else.
func httpError(err error) *apiError {
	var (
		ae     *apiError
		name   *account.NameError
		over   *game.OverError
		none   *game.NoOfferError
		bad    *notation.MoveError
		no     *view.Refusal
		long   *chat.TooLongError
		blocks *chat.TooManyBlocksError
	)
	switch {
	case errors.As(err, &ae):
		return ae
	case errors.As(err, &no):
		return refused(no)
	case errors.As(err, &name):
		return nameError(name)
	case errors.As(err, &over) && over.Ending.Termination == game.Aborted:
		return failure(http.StatusConflict, codeAborted, "the game was aborted")
	case errors.As(err, &over):
		return &apiError{http.StatusConflict, codeOver,
			fmt.Sprintf("the game is over (%s, %s)", over.Ending.Result, over.Ending.Termination),
			map[string]any{"result": over.Ending.Result.String(), "reason": over.Ending.Termination.String()}}
	case errors.As(err, &none):
		what, answer, code := "draw offer", "decline", codeNoDrawOffer
		if none.TakeBack {
			what, code = "take-back request", codeNoTakeback
		}
		if none.Accept {
			answer = "accept"
		}
		return failure(http.StatusConflict, code, "there is no "+what+" to "+answer)
	case errors.As(err, &bad):
		return moveError(bad)
	case errors.As(err, &long):
		return &apiError{http.StatusBadRequest, codeChatTooLong,
			fmt.Sprintf("%d characters at most, this text has %d", long.Max, long.Len), map[string]any{"max": long.Max, "n": long.Len}}
	case errors.As(err, &blocks):
		return &apiError{http.StatusConflict, codeTooManyBlocks,
			fmt.Sprintf("you may block at most %d accounts: unblock one first", blocks.Max), map[string]any{"n": blocks.Max}}
	case errors.Is(err, rules.ErrIllegal):
		return moveError(&notation.MoveError{Err: err})
	}
	for _, e := range siteErrors {
		if errors.Is(err, e.err) {
			return failure(e.status, e.code, or(e.msg, e.err.Error()))
		}
	}
	return failure(http.StatusInternalServerError, codeInternal, "internal error")
}

// errStorage is the round's: a write of the site that failed, as one of
// a game, says that nothing was lost and to try again.
var errStorage = round.ErrStorage

// siteErrors are the statuses and codes of the errors of the site and
// the game, and the message when it is not the error's text.
var siteErrors = []struct {
	err    error
	status int
	code   string
	msg    string
}{
	{round.ErrNoSuchGame, http.StatusNotFound, codeNoSuchGame, ""},
	{round.ErrDamaged, http.StatusInternalServerError, codeDamaged, ""},
	{round.ErrChanged, http.StatusConflict, codeChanged, ""},
	{round.ErrStorage, http.StatusServiceUnavailable, codeStorage, ""},
	{round.ErrNotPlaying, http.StatusForbidden, codeNotPlaying, ""},
	{round.ErrStale, http.StatusConflict, codeStale, ""},
	{round.ErrAbsent, http.StatusConflict, codeAbsent, ""},
	{round.ErrSeatsTaken, http.StatusConflict, codeSeatsTaken, ""},
	{round.ErrDeclined, http.StatusConflict, codeDrawDeclined, "Emergo declines the draw"},
	{round.ErrNoAnalysis, http.StatusForbidden, codeAnalysisClosed, ""},
	{round.ErrInvited, http.StatusForbidden, codeInvited, ""},
	{enginework.ErrClientBusy, http.StatusTooManyRequests, codeAnalysisBusy, "you have as many analyses waiting as you may: wait for one to finish"},
	{enginework.ErrQueueFull, http.StatusServiceUnavailable, codeAnalysisFull, "the analysis queue is full, try again in a moment"},
	{errEngineGamesFull, http.StatusServiceUnavailable, codeEngineGamesFull, ""},
	{errInvitationsFull, http.StatusServiceUnavailable, codeInvitationsFull, ""},
	{game.ErrNotYourTurn, http.StatusConflict, codeNotYourTurn, "it is not your turn"},
	{game.ErrTimeOut, http.StatusConflict, codeTimeOut, "your time ran out"},
	{game.ErrNothingToTakeBack, http.StatusConflict, codeNothingToTake, "you have no move to take back"},
	{game.ErrTooLate, http.StatusConflict, codeTooLate, "both players have moved: the game can no longer be aborted"},
	{chat.ErrEmpty, http.StatusBadRequest, codeChatEmpty, "the line is empty"},
	{chat.ErrGuest, http.StatusForbidden, codeChatLogIn, "guests read the chat but do not write in it, block or report: log in first"},
	{chat.ErrNotPlayer, http.StatusForbidden, codeChatNotPlayer, "only the game's two players write in the players' room"},
	{chat.ErrPlaying, http.StatusForbidden, codeChatPlaying, "the players do not write in the spectators' room while the game goes on"},
	{chat.ErrSelf, http.StatusBadRequest, codeChatSelf, "you cannot block or report yourself"},
	{chat.ErrNoReason, http.StatusBadRequest, codeReportNoReason, "a report needs a reason"},
	{chat.ErrReportsFull, http.StatusServiceUnavailable, codeReportsFull, "the moderators have too many reports to read just now, try again later"},
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// moveError is the answer to a move that cannot be played: 400, the
// code and parameters of notation.MoveProblem, and the English message.
func moveError(e *notation.MoveError) *apiError { return refused(view.MoveRefusal(e)) }

// refused is the answer to a request the rules refuse (package view): a
// position that cannot be read, a move that cannot be played, a move
// after the end of the game. The request is at fault: 400, with the
// refusal's code, parameters and message, as the browser's engine gives
// them.
func refused(no *view.Refusal) *apiError {
	return &apiError{status: http.StatusBadRequest, code: no.Code, msg: no.Message, params: no.Params}
}

// nameError is the answer to a username or a name refused.
func nameError(e *account.NameError) *apiError {
	out := failure(http.StatusBadRequest, codeInvalid, e.Reason)
	switch e.Problem {
	case account.UsernameLength:
		out.code, out.params = "account.username_length", map[string]any{"min": account.MinUsername, "max": account.MaxUsername}
	case account.UsernameStart:
		out.code = "account.username_start"
	case account.UsernameReserved:
		out.code, out.params = "account.username_reserved", map[string]any{"name": e.Name}
	case account.UsernameChars:
		out.code = "account.username_chars"
	case account.NameEmpty:
		out.code = "name.empty"
	case account.NameTooLong:
		out.code, out.params = "name.too_long", map[string]any{"n": account.MaxName}
	case account.NameReserved:
		out.code, out.params = codeNameReserved, map[string]any{"name": e.Name}
	}
	return out
}

// passwordError is the answer to a password refused.
func passwordError(e *account.PasswordError) *apiError {
	out := failure(http.StatusBadRequest, codeInvalid, e.Reason)
	switch e.Problem {
	case account.PasswordText:
		out.code = "account.password_text"
	case account.PasswordShort:
		out.code, out.params = "account.password_short", map[string]any{"n": account.MinPassword}
	case account.PasswordLong:
		out.code, out.params = "account.password_long", map[string]any{"n": account.MaxPassword}
	}
	return out
}

// challengeError is the answer to a challenge that breaks a rule of the
// lobby.
func challengeError(e *lobby.Error) *apiError {
	out := failure(http.StatusBadRequest, codeInvalid, e.Reason)
	switch e.Problem {
	case lobby.ToGuest:
		out.code = codeChallengeGuest
	case lobby.ChallengeSelf:
		out.code = codeChallengeSelf
	}
	return out
}
