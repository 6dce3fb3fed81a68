// Package bot connects an engine of the protocol (docs/protocol.md) to an
// Emergo site as a bot account: the site's bot API (docs/bots.md) read
// and spoken over HTTP (Client), and a runner (Run) that accepts or sends
// challenges and plays each game with an engine process of its own,
// reconnecting after a dropped stream or a restarted site without losing
// a game. The command `emergo bot` wires it to flags.
package bot

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Client speaks to a site's API with an account's token. The token goes
// in the Authorization header alone, never in a URL, so that no log of
// the site or of a proxy holds it.
type Client struct {
	URL   string // the site, such as https://emergo.example
	Token string
	// HTTP makes the requests; nil is one without a timeout, which the
	// streams need (each request has its context).
	HTTP *http.Client
}

// APIError is a refusal of the site: its status and its error's code and
// message (docs/api.md).
type APIError struct {
	Status  int
	Code    string
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("bot: the site answers %d %s: %s", e.Status, e.Code, e.Message)
}

// Final reports whether retrying the request cannot help: a refusal of
// the request itself (4xx), but a throttle (429), which passes.
func (e *APIError) Final() bool {
	return e.Status >= 400 && e.Status < 500 && e.Status != http.StatusTooManyRequests
}

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// request sends method path with body as JSON (none if nil) and returns
// the response of a success, or an *APIError.
func (c *Client) request(ctx context.Context, method, path string, body any) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.URL, "/")+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		e := &APIError{Status: resp.StatusCode}
		var msg struct{ Error, Code string }
		if json.Unmarshal(data, &msg) == nil {
			e.Code, e.Message = msg.Code, msg.Error
		} else {
			e.Message = strings.TrimSpace(string(data))
		}
		return nil, e
	}
	return resp, nil
}

// do sends a request and decodes its answer into out (nil: discarded).
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	resp, err := c.request(ctx, method, path, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil {
		io.Copy(io.Discard, resp.Body)
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// ErrStreamEnded is the end of a stream the site closed: the game over,
// or the site stopping.
var ErrStreamEnded = errors.New("bot: the stream ended")

// stream reads the NDJSON stream at path, giving each object's line to
// f, until the stream ends (ErrStreamEnded), ctx ends, or f fails. The
// keep-alive lines are skipped.
func (c *Client) stream(ctx context.Context, path string, f func(line []byte) error) error {
	resp, err := c.request(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := f(line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return ErrStreamEnded
}

// Account is the token's account.
type Account struct {
	Name string `json:"name"`
	Bot  bool   `json:"bot"`
}

// Me returns the token's account.
func (c *Client) Me(ctx context.Context) (*Account, error) {
	var a *Account
	if err := c.do(ctx, http.MethodGet, "/api/account/me", nil, &a); err != nil {
		return nil, err
	}
	if a == nil {
		return nil, errors.New("bot: the site knows no account of this token")
	}
	return a, nil
}

// Upgrade makes the token's account a bot's, for good.
func (c *Client) Upgrade(ctx context.Context) (*Account, error) {
	var a Account
	return &a, c.do(ctx, http.MethodPost, "/api/bot/account/upgrade", nil, &a)
}

// Clock is a time control in seconds, as the API gives it.
type Clock struct {
	Initial   float64 `json:"initial"`
	Increment float64 `json:"increment"`
}

// Challenge is a challenge as the event stream tells of it.
type Challenge struct {
	ID     string `json:"id"`
	From   string `json:"from"`
	To     string `json:"to"`
	Size   int    `json:"size"`
	Clock  *Clock `json:"clock"`
	Days   int    `json:"days"`
	Rated  bool   `json:"rated"`
	Mine   bool   `json:"mine"`
	ForYou bool   `json:"forYou"`
	Status string `json:"status"`
}

// Offer is a challenge to send: to the account To, on a board of Size,
// with a Clock or Days per move; Color is the challenger's ("white",
// "black" or "random").
type Offer struct {
	To    string `json:"to"`
	Size  int    `json:"size"`
	Clock *Clock `json:"clock,omitempty"`
	Days  int    `json:"days,omitempty"`
	Rated bool   `json:"rated"`
	Color string `json:"color,omitempty"`
}

// Challenge sends o and returns the challenge's ID.
func (c *Client) Challenge(ctx context.Context, o Offer) (string, error) {
	var out Challenge
	if err := c.do(ctx, http.MethodPost, "/api/challenges", o, &out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// Accept accepts the challenge id and returns the game it made.
func (c *Client) Accept(ctx context.Context, id string) (string, error) {
	var out struct{ Game string }
	err := c.do(ctx, http.MethodPost, "/api/challenges/"+url.PathEscape(id)+"/accept", nil, &out)
	return out.Game, err
}

// Decline declines the challenge id.
func (c *Client) Decline(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPost, "/api/challenges/"+url.PathEscape(id)+"/decline", nil, nil)
}

// Move plays move in the game id.
func (c *Client) Move(ctx context.Context, id, move string) error {
	return c.do(ctx, http.MethodPost, "/api/bot/game/"+url.PathEscape(id)+"/move/"+url.PathEscape(move), nil, nil)
}

// Resign resigns the game id.
func (c *Client) Resign(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPost, "/api/bot/game/"+url.PathEscape(id)+"/resign", nil, nil)
}

// Abort aborts the game id, which must not have begun.
func (c *Client) Abort(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPost, "/api/bot/game/"+url.PathEscape(id)+"/abort", nil, nil)
}

// Draw offers or accepts a draw in the game id (yes), or declines the
// one offered.
func (c *Client) Draw(ctx context.Context, id string, yes bool) error {
	answer := "no"
	if yes {
		answer = "yes"
	}
	return c.do(ctx, http.MethodPost, "/api/bot/game/"+url.PathEscape(id)+"/draw/"+answer, nil, nil)
}

// Event is a line of the event stream.
type Event struct {
	Type      string     `json:"type"`
	Challenge *Challenge `json:"challenge"`
	Game      *GameEvent `json:"game"`
}

// GameEvent is a game as the event stream tells of its start and end.
type GameEvent struct {
	ID     string `json:"id"`
	Color  string `json:"color"`
	Size   int    `json:"size"`
	Rated  bool   `json:"rated"`
	Result string `json:"result"`
	Reason string `json:"reason"`
}

// Events reads the account's event stream, giving each event to f, until
// it ends (ErrStreamEnded), ctx ends or f fails.
func (c *Client) Events(ctx context.Context, f func(Event) error) error {
	return c.stream(ctx, "/api/stream/event", func(line []byte) error {
		var e Event
		if err := json.Unmarshal(line, &e); err != nil {
			return fmt.Errorf("bot: event stream: %w", err)
		}
		return f(e)
	})
}

// Player is a side of a game as its stream tells.
type Player struct {
	Name   string `json:"name"`
	Bot    bool   `json:"bot"`
	Rating string `json:"rating"`
}

// GameState is a game as it stands: its moves separated by spaces, the
// time left of each side and the increments in milliseconds, its status
// ("started" while it goes on, else how it ended) and the draw offered.
type GameState struct {
	Type   string `json:"type"`
	Moves  string `json:"moves"`
	WTime  int64  `json:"wtime"`
	BTime  int64  `json:"btime"`
	WInc   int64  `json:"winc"`
	BInc   int64  `json:"binc"`
	Status string `json:"status"`
	Result string `json:"result"`
	Reason string `json:"reason"`
	Winner string `json:"winner"`
	WDraw  bool   `json:"wdraw"`
	BDraw  bool   `json:"bdraw"`
}

// GameFull is the first line of a game's stream.
type GameFull struct {
	ID         string    `json:"id"`
	Size       int       `json:"size"`
	Rated      bool      `json:"rated"`
	Clock      *Clock    `json:"clock"`
	Days       int       `json:"days"`
	White      Player    `json:"white"`
	Black      Player    `json:"black"`
	InitialFen string    `json:"initialFen"`
	State      GameState `json:"state"`
}

// Game reads the stream of the game id: full gets its first line, state
// every state after, until the game ends (ErrStreamEnded), ctx ends or
// one of them fails.
func (c *Client) Game(ctx context.Context, id string, full func(GameFull) error, state func(GameState) error) error {
	return c.stream(ctx, "/api/bot/game/stream/"+url.PathEscape(id), func(line []byte) error {
		var head struct{ Type string }
		if err := json.Unmarshal(line, &head); err != nil {
			return fmt.Errorf("bot: game stream: %w", err)
		}
		switch head.Type {
		case "gameFull":
			var g GameFull
			if err := json.Unmarshal(line, &g); err != nil {
				return fmt.Errorf("bot: game stream: %w", err)
			}
			return full(g)
		case "gameState":
			var s GameState
			if err := json.Unmarshal(line, &s); err != nil {
				return fmt.Errorf("bot: game stream: %w", err)
			}
			return state(s)
		}
		return nil // a line of a later version, such as chat
	})
}
