package engine

import (
	"fmt"
	"strconv"
	"strings"

	"emergo/player"
	"emergo/rules"
)

// optionDef is one option of the ugi answer: a spin (a number from min to
// max) or a combo (one of vars).
type optionDef struct {
	name     string
	def      int
	min, max int   // for a spin
	vars     []int // for a combo
	field    func(*Options) *int
	// rebuild says a change needs a new engine (a new table, new
	// threads or another level).
	rebuild bool
}

// optionDefs are the options in the order ugi announces them.
var optionDefs = [...]optionDef{
	{name: "Hash", def: 16, min: 1, max: 4096, rebuild: true,
		field: func(o *Options) *int { return &o.HashMiB }},
	{name: "Threads", def: 1, min: 1, max: 64, rebuild: true,
		field: func(o *Options) *int { return &o.Threads }},
	{name: "Level", def: player.MaxLevel, min: 1, max: player.MaxLevel, rebuild: true,
		field: func(o *Options) *int { return &o.Level }},
	{name: "Size", def: 9, vars: []int{9, 7},
		field: func(o *Options) *int { return &o.Size }},
	{name: "MultiPV", def: 1, min: 1, max: 16,
		field: func(o *Options) *int { return &o.MultiPV }},
}

func (d *optionDef) valid(v int) bool {
	if d.vars != nil {
		for _, x := range d.vars {
			if v == x {
				return true
			}
		}
		return false
	}
	return v >= d.min && v <= d.max
}

// want describes the valid values, for error messages.
func (d *optionDef) want() string {
	if d.vars != nil {
		s := make([]string, len(d.vars))
		for i, x := range d.vars {
			s[i] = strconv.Itoa(x)
		}
		return "one of " + strings.Join(s, ", ")
	}
	return fmt.Sprintf("a number from %d to %d", d.min, d.max)
}

// describe returns the option line of the ugi answer, announcing def as
// the default.
func (d *optionDef) describe(def int) string {
	if d.vars != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "option name %s type combo default %d", d.name, def)
		for _, x := range d.vars {
			fmt.Fprintf(&b, " var %d", x)
		}
		return b.String()
	}
	return fmt.Sprintf("option name %s type spin default %d min %d max %d", d.name, def, d.min, d.max)
}

// setOption serves "setoption name <name> value <value>". Option names
// are matched without regard to case, as in UCI. A search that is running
// keeps the settings it started with.
func (s *session) setOption(args []string) {
	if len(args) == 0 || args[0] != "name" {
		s.errorf("setoption: want setoption name <name> value <value>")
		return
	}
	vi := len(args)
	for i, a := range args {
		if a == "value" {
			vi = i
			break
		}
	}
	name := strings.Join(args[1:vi], " ")
	if name == "" {
		s.errorf("setoption: missing the option name")
		return
	}
	var d *optionDef
	for i := range optionDefs {
		if strings.EqualFold(optionDefs[i].name, name) {
			d = &optionDefs[i]
		}
	}
	if d == nil {
		s.errorf("setoption: unknown option %q", name)
		return
	}
	if vi == len(args) {
		s.errorf("setoption: %s: missing the value", d.name)
		return
	}
	text := strings.Join(args[vi+1:], " ")
	v, err := strconv.Atoi(text)
	if err != nil || !d.valid(v) {
		s.errorf("setoption: %s: value %q is not %s", d.name, text, d.want())
		return
	}
	p := d.field(&s.opts)
	if *p == v {
		return
	}
	*p = v
	if d.rebuild {
		s.eng = nil
	}
	if d.name == "Size" {
		s.game = rules.NewGame(rules.GeometryOf(v))
	}
}
