//! `hantei odds dice EXPR`: flags for [`crate::systems::dice`].
use serde::{Deserialize, Serialize};

use crate::report::Report;
use crate::rounds::{Negative, MAX_ROUNDS};
use crate::systems::dice::per_roll::RoundStat;
use crate::systems::dice::until::{self, Until};
use crate::systems::dice::{self, Check, TieBreak};
use crate::weight::Weight;

use super::de;

/// A check typed in BCDice notation: the flags of `hantei odds dice`, and
/// the same fields (snake_case) in a request.
///
/// ```
/// use hantei::Weight as _;
/// use hantei::request::Request;
/// use serde_json::json;
///
/// // PbtA: 2D6+1, 10+ strong hit, 7–9 weak hit. P(2D6 ≥ 6) = 26/36.
/// let req = Request::from_json(&json!({
///     "system": "dice", "expr": "2D6+1",
///     "tier": ["strong hit:>=10", "weak hit:>=7", "miss"]
/// }))?;
/// let report = hantei::odds::<hantei::Exact>(&req)?;
/// assert_eq!(report.p_success, hantei::Exact::ratio(26, 36));
/// assert_eq!(report.outcome("strong hit"), Some(&hantei::Exact::ratio(10, 36)));
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(clap::Args, Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Params {
    /// The BCDice command (ダイスコマンド), quoted in a shell when it holds a
    /// comparison: "2D6+1>=7", "1D20+5>=15", 4D6DL1, "5B6>=4", "10R6>=5@6",
    /// "3U6>=10@6", D66; the pool engine's "{1D8!,1D6!}KH1", "4DF+2",
    /// named terms; chained rolls (連続ロール) "1D20+5 -> natural==20:
    /// 2D8+4; >=15: 1D8+4; 0", "(3B6>=4)D6", "2D(…)", "max(0,1D8-3)".
    /// Case-insensitive. Required (only --list-games goes without it).
    // `required` (not `required_unless_present`) so that the help shows
    // `<EXPR>`: clap draws an argument that is not `required` as `[EXPR]`.
    // `--list-games` still goes alone as it conflicts with EXPR (clap lets a
    // required argument be missing when a conflicting one is given). The
    // hidden empty default is only what the derive reads then.
    #[arg(
        value_name = "EXPR",
        allow_hyphen_values = true,
        required = true,
        default_value = "",
        hide_default_value = true
    )]
    pub expr: String,
    /// A house-rule tier NAME:COND, NAME:COND:fail or NAME:COND:success (repeatable, best first;
    /// the first that holds wins), quoted in a shell. COND reads the result
    /// (--tier "hit:>=10"), the natural dice ("crit:natural>=19"), max, min,
    /// count(6), named terms ("hope>fear"), named scores, doubles, pushed,
    /// width, height, with and / or / not and arithmetic. ":fail" marks a
    /// tier that is not a success. A last NAME alone takes the rest.
    #[serde(default, deserialize_with = "de::strings")]
    #[arg(long = "tier", value_name = "NAME:COND")]
    pub tier: Vec<String>,
    /// The tiers that count as success for p_success (comma list; default:
    /// the tiers marked :success and every unmarked tier but the last;
    /// tiers marked :fail never count).
    #[serde(default, deserialize_with = "de::comma_strings")]
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub success_tiers: Vec<String>,
    /// Contest (対決): the opposing roll, compared with this one.
    #[serde(default)]
    #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
    pub vs: Option<String>,
    /// Contest: who takes a tie (default: ties stand, reported as p_tie).
    #[serde(
        default,
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub tie_rule: Option<TieBreak>,
    /// Contest: the lower result wins (roll-under).
    #[serde(default, deserialize_with = "de::switch")]
    #[arg(long)]
    pub lower_wins: bool,
    /// Push (プッシュ): the tiers whose first roll is pushed (comma list):
    /// the dice --push-dice names are rerolled once and the check judged
    /// again (Year Zero, Dragonbane).
    #[serde(default, deserialize_with = "de::comma_strings")]
    #[arg(long, value_delimiter = ',', value_name = "TIER,...")]
    pub push: Vec<String>,
    /// Push: the dice rerolled, FACE or TERM:FACE (repeatable): 2..5, <6,
    /// base:2..5 (in the term named base).
    #[serde(default, deserialize_with = "de::strings")]
    #[arg(long = "push-dice", value_name = "[TERM:]FACE")]
    pub push_dice: Vec<String>,
    /// Largest probability mass dropped when cutting exploding dice (xR, xU,
    /// !, !!; allowed above 0 and below 0.001).
    #[serde(default = "default_tail_eps", deserialize_with = "de::float")]
    #[arg(
        long,
        default_value_t = dice::DEFAULT_TAIL_EPS,
        value_parser = super::float_flag("above 0 and below 0.001")
    )]
    pub tail_eps: f64,
    /// Over several rolls: roll again and again, adding up the result (or
    /// --until-stat), until it reaches N; reports p_done_by, expected_rolls,
    /// rolls, tail_mass.
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub until: Option<i64>,
    /// With --until: at most K rolls (default: until less than --tail-eps
    /// is still rolling).
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    pub rounds: Option<i64>,
    /// With --until: what is added up each roll: result (default: the
    /// total, or the successes of counting commands), natural (the dice
    /// before arithmetic), success (1 per successful roll).
    #[serde(default)]
    #[arg(long, value_name = "STAT")]
    pub until_stat: Option<String>,
    /// With --until: tiers (of --tier) that end the test at once, failed
    /// (comma list), e.g. fumble.
    #[serde(default, deserialize_with = "de::comma_strings")]
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub until_fail_tier: Vec<String>,
    /// With --until: tiers (of --tier) that end the test at once, done
    /// (comma list), e.g. critical.
    #[serde(default, deserialize_with = "de::comma_strings")]
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub until_success_tier: Vec<String>,
    /// With --until: a tier (of --tier) whose rolls add a bonus, NAME=+2 or
    /// NAME=-1 (repeatable).
    #[serde(default, deserialize_with = "de::strings")]
    #[arg(long, value_name = "NAME=BONUS", allow_hyphen_values = true)]
    pub until_bonus: Vec<String>,
    /// With --until: a roll below 0 adds 0 (zero, default) or subtracts
    /// (subtract).
    #[serde(
        default,
        deserialize_with = "de::opt_option",
        serialize_with = "de::ser_opt_option"
    )]
    #[arg(long, value_enum)]
    pub until_negative: Option<Negative>,
    /// Race (with --vs and --until): the opposing side's threshold (default:
    /// the same N).
    #[serde(default, deserialize_with = "de::opt_int")]
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub vs_until: Option<i64>,
    /// A BCDice game system (ゲームシステム) whose commands EXPR is read in:
    /// Cthulhu7th (CC(1)<=50), SwordWorld2.5 (K20+5@10), DoubleCross
    /// (10DX7+4), … (case-insensitive; --list-games lists them).
    #[serde(default)]
    #[arg(long, value_name = "ID")]
    pub game: Option<String>,
    /// Outcomes by the values of a statistic (repeatable): one outcome per
    /// value, or tuple of values, the roll shows, greatest first, in place
    /// of --tier: width and height (One-Roll Engine sets: --outcomes-by
    /// width --outcomes-by height), count(6), max, result.
    #[serde(default, deserialize_with = "de::strings")]
    #[arg(long = "outcomes-by", value_name = "STAT")]
    pub outcomes_by: Vec<String>,
    /// Only the outcomes: the tiers' probabilities and p_success, with no
    /// distribution, mean or sd, so the law of the result is never built
    /// and the tiers' law carries only what they read (quicker for sweeps
    /// and ladders). Needs --tier or --outcomes-by; not with --vs, --until
    /// or a game's own command.
    #[serde(default, deserialize_with = "de::switch")]
    #[arg(long)]
    pub outcomes_only: bool,
    /// Judge the tiers at every value of a placeholder (判定の掃引): NAME=LO..HI
    /// (dc=5..25), NAME=A,B,C or both; each {NAME} in a --tier condition
    /// takes each value in turn ("success:total>={dc}"). The dice's law is
    /// built once; the report gains a table by_NAME, a row per value (each
    /// tier's probability and p_success). In the dice ("{n}D6", "1D{s}!")
    /// each value is written into the roll: the report is the table alone,
    /// one die's pools by size built in one pass. Not with --vs, --until,
    /// --push, --outcomes-by or a game's own command.
    #[serde(default)]
    #[arg(long, value_name = "NAME=LO..HI")]
    pub sweep: Option<String>,
    /// List the game systems --game takes, with their commands.
    #[serde(skip)]
    #[arg(long, conflicts_with = "expr")]
    pub list_games: bool,
}

fn default_tail_eps() -> f64 {
    dice::DEFAULT_TAIL_EPS
}

impl Params {
    /// The parameters as a [`Check`].
    pub fn check(&self) -> crate::Result<Check> {
        self.check_of(&self.expr)
    }

    /// The command `expr`, read as these flags read theirs.
    fn command_of(&self, expr: &str) -> crate::Result<dice::Command> {
        match &self.game {
            // A chain under a game reads its stages as the game does.
            Some(id) if dice::chained::is_chain(expr) => {
                dice::parse::parse_in(expr, Some(dice::games::find(id)?))
            }
            _ => dice::parse(expr).map_err(|e| placeholder_hint(expr, self.sweep.is_some(), e)),
        }
    }

    /// The parameters as a [`Check`] of the command `expr` (a sweep over
    /// the dice reads one for each value).
    fn check_of(&self, expr: &str) -> crate::Result<Check> {
        let mut check = Check::of(self.command_of(expr)?);
        check.tiers = self
            .tier
            .iter()
            .map(|t| dice::parse_tier(t))
            .collect::<crate::Result<_>>()?;
        if !self.success_tiers.is_empty() {
            check.success_tiers = Some(
                self.success_tiers
                    .iter()
                    .map(|s| s.trim().to_string())
                    .collect(),
            );
        }
        if let Some(vs) = &self.vs {
            check.vs = Some(dice::parse(vs)?);
        } else if let Some(t) = self.tie_rule {
            return Err(crate::Error::param(
                "--tie-rule",
                t.key(),
                "a tie rule applies only to a contest: give the opposing roll with --vs EXPR",
            ));
        }
        if !self.push.is_empty() || !self.push_dice.is_empty() {
            if self.push.is_empty() {
                return Err(crate::Error::Conflict(
                    "--push-dice names the dice a push rerolls: give the tiers that push with --push TIER".into(),
                ));
            }
            check.push = Some(dice::Push {
                tiers: self.push.iter().map(|s| s.trim().to_string()).collect(),
                rules: self
                    .push_dice
                    .iter()
                    .map(|r| dice::parse_push_rule(r))
                    .collect::<crate::Result<_>>()?,
            });
        }
        check.tie = self.tie_rule.unwrap_or_default();
        check.lower_wins = self.lower_wins;
        check.tail_eps = self.tail_eps;
        let by = self
            .outcomes_by
            .iter()
            .map(|t| {
                dice::cond::parse_stat(t).ok_or_else(|| {
                    crate::Error::param(
                        "--outcomes-by",
                        t,
                        "allowed: one statistic (result, natural, max, min, count(6), width, height, a named term or score)",
                    )
                })
            })
            .collect::<crate::Result<Vec<_>>>()?;
        check.outcomes_by(by)?;
        check.outcomes_only = self.outcomes_only;
        Ok(check)
    }

    /// The rules over several rolls (`None` without `--until`); refuses the
    /// `--until-*`, `--rounds` and `--vs-until` flags without it.
    pub fn until(&self) -> crate::Result<Option<Until>> {
        let Some(n) = self.until else {
            let given = [
                ("--rounds", self.rounds.is_some()),
                ("--until-stat", self.until_stat.is_some()),
                ("--until-fail-tier", !self.until_fail_tier.is_empty()),
                ("--until-success-tier", !self.until_success_tier.is_empty()),
                ("--until-bonus", !self.until_bonus.is_empty()),
                ("--until-negative", self.until_negative.is_some()),
                ("--vs-until", self.vs_until.is_some()),
            ];
            if let Some((flag, _)) = given.iter().find(|(_, g)| *g) {
                return Err(crate::Error::Conflict(format!(
                    "{flag} applies over several rolls: give the threshold with --until N"
                )));
            }
            return Ok(None);
        };
        let rounds = match self.rounds {
            None => None,
            Some(k) if (1..=MAX_ROUNDS as i64).contains(&k) => Some(k as usize),
            Some(k) => {
                return Err(crate::Error::param(
                    "--rounds",
                    k,
                    format!("allowed 1..={MAX_ROUNDS}"),
                ))
            }
        };
        Ok(Some(Until {
            until: n,
            rounds,
            stat: match &self.until_stat {
                Some(s) => RoundStat::parse(s)?,
                None => RoundStat::default(),
            },
            fail_tiers: trimmed(&self.until_fail_tier),
            success_tiers: trimmed(&self.until_success_tier),
            bonus: self
                .until_bonus
                .iter()
                .map(|b| until::parse_bonus(b))
                .collect::<crate::Result<_>>()?,
            negative: self.until_negative.unwrap_or_default(),
            vs_until: self.vs_until,
        }))
    }

    /// Everything refused without computing, in a few milliseconds: the
    /// command (or the game's command), the tiers and flags, and the
    /// estimated work of the law in the weight the report is computed in
    /// ([`dice::law::check_work`], exact fractions with `exact`, else
    /// floating point). `hantei serve` checks this before a request waits
    /// for a worker, so a bad request is refused at once. `Ok` does not
    /// promise the report: what the estimate does not cover is checked as
    /// the law is built (today `check_work` estimates only exact work; its
    /// floating-point limits are met as the law is built, in the worker).
    pub fn preflight(&self, exact: bool) -> crate::Result<()> {
        if let Some(id) = &self.game {
            if self.until.is_some() {
                return Err(crate::Error::Conflict(
                    "--until with --game: rounds of a game command are not yet computed; roll the plain command with --until".into(),
                ));
            }
            let game = dice::games::find(id)?;
            return match game.parse(&self.first_expr()?)? {
                dice::games::Parsed::Game(_) => self.common_flags_only(game.id),
                dice::games::Parsed::Plain(_) => self.preflight_check(exact),
            };
        }
        self.preflight_check(exact)
    }

    fn preflight_check(&self, exact: bool) -> crate::Result<()> {
        if let Some((sweep, check, commands)) = self.dice_sweep()? {
            dice::sweep::validate_dice(&check, &commands, &sweep)?;
            for c in &commands {
                if exact {
                    dice::law::check_work::<crate::weight::Exact>(c)?;
                } else {
                    dice::law::check_work::<f64>(c)?;
                }
            }
            return Ok(());
        }
        let mut check = self.check()?;
        self.outcomes_only_alone()?;
        match (self.until()?, self.sweep()?) {
            (Some(_), Some(_)) => return Err(sweep_with_until()),
            (Some(u), None) => u.validate(&check)?,
            (None, Some(s)) => dice::sweep::validate(&mut check, &s)?,
            (None, None) => check.validate()?,
        }
        if exact {
            check_work::<crate::weight::Exact>(&check)
        } else {
            check_work::<f64>(&check)
        }
    }

    /// Whether these flags can report their tiers alone
    /// (`--outcomes-only`, 結果のみ): tiers (`--tier` or `--outcomes-by`)
    /// on one roll, with no `--vs`, no `--until` and no game's own command.
    /// A caller that reads only `p_success` or the outcomes (the ladders)
    /// asks this, and sets `outcomes_only` where it holds.
    pub fn reads_outcomes_alone(&self) -> bool {
        let tiers = !self.tier.is_empty() || !self.outcomes_by.is_empty();
        let own_command = self.game.as_deref().is_some_and(|id| {
            dice::games::find(id)
                .and_then(|g| g.parse(&self.first_expr()?))
                .map_or(true, |p| matches!(p, dice::games::Parsed::Game(_)))
        });
        tiers && self.vs.is_none() && self.until.is_none() && !own_command
    }

    /// A game's own command with flags that apply to common commands
    /// alone, refused (`--tier`, `--success-tiers`, `--vs`,
    /// `--outcomes-only`): the game's report reads BCDice's own words.
    fn common_flags_only(&self, game: &str) -> crate::Result<()> {
        if !self.tier.is_empty()
            || !self.success_tiers.is_empty()
            || self.vs.is_some()
            || self.outcomes_only
            || self.sweep.is_some()
        {
            return Err(crate::Error::Conflict(format!(
                "--tier, --success-tiers, --vs, --outcomes-only and --sweep apply to common commands; {game} commands report BCDice's own words"
            )));
        }
        Ok(())
    }

    /// `--outcomes-only` with a flag it cannot go with (`--until`: a
    /// rounds report has no tiers' outcomes to keep alone).
    fn outcomes_only_alone(&self) -> crate::Result<()> {
        if self.outcomes_only && self.until.is_some() {
            return Err(crate::Error::Conflict(
                "--outcomes-only reports the tiers of one roll; --until reports rounds (p_done_by): leave out one of the two".into(),
            ));
        }
        Ok(())
    }

    /// `--sweep`, read.
    fn sweep(&self) -> crate::Result<Option<dice::sweep::Sweep>> {
        self.sweep.as_deref().map(str::parse).transpose()
    }

    /// The command as typed, its sweep's first value written in where the
    /// placeholder stands in the dice (what a game reads to tell its own
    /// commands from plain ones).
    fn first_expr(&self) -> crate::Result<String> {
        Ok(match self.sweep()? {
            Some(s) if dice::sweep::in_text(&self.expr, &s.name) => {
                dice::sweep::substitute(&self.expr, &s.name, s.values[0])
            }
            _ => self.expr.clone(),
        })
    }

    /// A sweep over the dice (`{n}D6 --sweep n=1..6`): the sweep, the
    /// check of its first value (the tiers read once, as typed), and each
    /// value's command, what a sweep cannot go with refused; `None` where
    /// no placeholder stands in the dice.
    #[allow(clippy::type_complexity)]
    fn dice_sweep(&self) -> crate::Result<Option<(dice::sweep::Sweep, Check, Vec<dice::Command>)>> {
        let Some(sweep) = self.sweep()? else {
            return Ok(None);
        };
        if !dice::sweep::in_text(&self.expr, &sweep.name) {
            return Ok(None);
        }
        let text = |v: i64| dice::sweep::substitute(&self.expr, &sweep.name, v);
        let check = self.check_of(&text(sweep.values[0]))?;
        let commands = sweep
            .values
            .iter()
            .map(|&v| self.command_of(&text(v)))
            .collect::<crate::Result<Vec<_>>>()?;
        self.outcomes_only_alone()?;
        if self.until.is_some() {
            return Err(sweep_with_until());
        }
        Ok(Some((sweep, check, commands)))
    }

    /// The report for these flags.
    pub fn report<W: Weight>(&self) -> crate::Result<Report<W>> {
        if let Some(id) = &self.game {
            if self.until.is_some() {
                return Err(crate::Error::Conflict(
                    "--until with --game: rounds of a game command are not yet computed; roll the plain command with --until".into(),
                ));
            }
            return game_report(id, self);
        }
        if let Some((sweep, check, commands)) = self.dice_sweep()? {
            return dice::sweep::report_dice(check, &self.expr, commands, &sweep);
        }
        let check = self.check()?;
        self.outcomes_only_alone()?;
        if let Some(sweep) = self.sweep()? {
            if self.until.is_some() {
                return Err(sweep_with_until());
            }
            return dice::sweep::report(check, &sweep);
        }
        match self.until()? {
            Some(u) => until::report(&check, &u),
            None => dice::report_of(check),
        }
    }
}

/// A command that does not parse and holds a placeholder (`{n}D6`)
/// without `--sweep`: the error says how to give its values.
fn placeholder_hint(expr: &str, swept: bool, e: crate::Error) -> crate::Error {
    if swept {
        return e;
    }
    let names: Vec<&str> = expr
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .filter(|name| dice::sweep::is_name(name))
        .collect();
    match names.first() {
        Some(name) => crate::Error::param(
            "EXPR",
            expr,
            format!("{{{name}}} is a placeholder: give its values with --sweep {name}=LO..HI (a table by value, each value written into the dice), or write a number"),
        ),
        None => e,
    }
}

/// `--sweep` with `--until`, refused.
fn sweep_with_until() -> crate::Error {
    crate::Error::Conflict(
        "--sweep with --until: rounds read one roll's tiers; run one report per value".into(),
    )
}

/// The estimated work of a check's laws (its command's and its opponent's)
/// in weight `W`, before any is done.
fn check_work<W: Weight>(check: &Check) -> crate::Result<()> {
    dice::law::check_work::<W>(&check.command)?;
    if let Some(vs) = &check.vs {
        dice::law::check_work::<W>(vs)?;
    }
    Ok(())
}

/// The report of `hantei odds dice EXPR --game ID`: the game's own law
/// for its commands, the common check (with these flags' tiers) for the
/// plain ones.
fn game_report<W: Weight>(id: &str, p: &Params) -> crate::Result<Report<W>> {
    let game = dice::games::find(id)?;
    match game.parse(&p.first_expr()?)? {
        dice::games::Parsed::Game(cmd) => {
            p.common_flags_only(game.id)?;
            dice::games::report(game, &cmd, &p.expr, p.tail_eps)
        }
        dice::games::Parsed::Plain(_) => {
            if let Some((sweep, check, commands)) = p.dice_sweep()? {
                let report = dice::sweep::report_dice::<W>(check, &p.expr, commands, &sweep)?;
                return Ok(report.param("game", game.id));
            }
            let check = p.check()?;
            let report = match p.sweep()? {
                Some(sweep) => dice::sweep::report::<W>(check, &sweep)?,
                None => dice::report_of::<W>(check)?,
            };
            Ok(report.param("game", game.id))
        }
    }
}

fn trimmed(names: &[String]) -> Vec<String> {
    names.iter().map(|s| s.trim().to_string()).collect()
}
