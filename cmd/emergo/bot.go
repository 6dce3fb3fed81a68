package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"emergo/bot"
)

func init() {
	register("bot", "connect an engine of the protocol to a site as a bot account", runBot)
}

func runBot(args []string, _ io.Reader, _, stderr io.Writer) error {
	fs := newFlags("bot", "",
		"Plays on an Emergo site as a bot account (docs/bots.md) with any engine that\n"+
			"speaks the protocol of docs/protocol.md: CMD is one command line, run by the\n"+
			"shell, such as \"emergo engine\" or \"./my-engine --uci\"; each game has an\n"+
			"engine process of its own, told the board (setoption name Size value 7) and\n"+
			"the game's clock. Without -challenge it accepts challenges (all of them, or\n"+
			"those -accept names) until it is stopped; with -challenge it challenges\n"+
			"NAME until it has played -games games, then exits. It reconnects after a\n"+
			"dropped stream or a restarted site. Ctrl-C (SIGINT) or SIGTERM stops it:\n"+
			"no more games, and those under way finished or resigned as -on-stop says;\n"+
			"a second Ctrl-C stops at once. The token may come from $EMERGO_TOKEN\n"+
			"instead of -token, out of the process list.", stderr)
	url := fs.String("url", "", "the site, such as https://emergo.example")
	token := fs.String("token", "", "an API token of the bot's account, with bot:play and challenge:write (default $EMERGO_TOKEN)")
	engine := fs.String("engine", "", "the engine's `CMD`")
	upgrade := fs.Bool("upgrade", false, "first make the token's account a bot account (for good; only an account that has played no game)")
	accept := fs.String("accept", "", "the challenges to accept, comma-separated: boards (9, 7), rated or casual, clocks (M+S, live, days); default every one")
	challenge := fs.String("challenge", "", "challenge the account `NAME` instead of accepting challenges")
	size := fs.Int("size", 9, "the board of -challenge: 9 or 7")
	clock := fs.String("clock", "", "the clock of -challenge, M+S: minutes and seconds added per move, as the lobby shows clocks (such as 1+1)")
	days := fs.Int("days", 0, "the days per move of -challenge, instead of -clock")
	rated := fs.Bool("rated", false, "-challenge's games are rated")
	color := fs.String("color", "random", "the bot's colour in -challenge's games: white, black or random")
	games := fs.Int("games", 1, "the games -challenge plays before it exits")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	onStop := fs.String("on-stop", bot.Finish, "what a stop does to the games under way: finish or resign")
	verbose := fs.Bool("v", false, "log more")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *token == "" {
		*token = os.Getenv("EMERGO_TOKEN")
	}
	switch {
	case *url == "" || *token == "" || *engine == "":
		return usageError{"bot needs -url, -token (or $EMERGO_TOKEN) and -engine"}
	case *onStop != bot.Finish && *onStop != bot.Resign:
		return usageError{fmt.Sprintf("-on-stop %q: want finish or resign", *onStop)}
	case *concurrency < 1:
		return usageError{fmt.Sprintf("-concurrency %d: at least one game", *concurrency)}
	}
	filter, err := bot.ParseAccept(*accept)
	if err != nil {
		return usageError{err.Error()}
	}
	cfg := bot.Config{
		Client: &bot.Client{URL: *url, Token: *token},
		Engine: bot.ShellEngine(*engine, stderr), Accept: filter,
		Concurrency: *concurrency, OnStop: *onStop, Logger: serviceLog(stderr, *verbose),
	}
	if *challenge != "" {
		o := bot.Offer{To: *challenge, Size: *size, Days: *days, Rated: *rated, Color: *color}
		switch {
		case *games < 1:
			return usageError{fmt.Sprintf("-games %d: at least one game", *games)}
		case (*clock == "") == (*days == 0):
			return usageError{"-challenge needs -clock M+S or -days N"}
		case *clock != "":
			k, err := bot.ParseClock(*clock)
			if err != nil {
				return usageError{err.Error()}
			}
			o.Clock = &k
		}
		cfg.Send, cfg.Games = &o, *games
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	cfg.Stop = stop
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	go func() {
		select {
		case <-signals:
			close(stop)
		case <-ctx.Done():
			return
		}
		select {
		case <-signals:
			cancel()
		case <-ctx.Done():
		}
	}()
	if *upgrade {
		a, err := cfg.Client.Upgrade(ctx)
		if err != nil {
			return err
		}
		cfg.Logger.Info("upgraded to a bot account", "account", a.Name)
	}
	return bot.Run(ctx, cfg)
}
