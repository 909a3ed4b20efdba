//! `dice` under random input: any string is parsed or refused with a
//! message (never a panic), and random valid commands have laws that sum to
//! one, echo as commands that parse back to themselves, and hold every
//! value the plain rule rolls.

use hantei::systems::dice::{self, law, roll::Faces};
use hantei::Weight;
use proptest::prelude::*;

/// A small deterministic die source (SplitMix64) for the plain rule.
struct Mix(u64);

impl Faces for Mix {
    fn die(&mut self, sides: i64) -> i64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        1 + (z % sides as u64) as i64
    }
}

/// Strings over the notation's own alphabet (and a few strangers), so that
/// many are near-commands.
fn notation_soup() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("D"),
            Just("B"),
            Just("R"),
            Just("U"),
            Just("K"),
            Just("H"),
            Just("L"),
            Just("M"),
            Just("A"),
            Just("X"),
            Just("I"),
            Just("N"),
            Just("S"),
            Just("@"),
            Just("["),
            Just("]"),
            Just("("),
            Just(")"),
            Just("+"),
            Just("-"),
            Just("*"),
            Just("/"),
            Just(">"),
            Just("<"),
            Just("="),
            Just("!"),
            Just("66"),
            Just("0"),
            Just("1"),
            Just("2"),
            Just("6"),
            Just("10"),
            Just("20"),
            Just("999999999999"),
            Just(" "),
            Just("Ｄ"),
            Just("＞"),
            Just("ダ"),
            Just("\u{0}"),
            Just("?"),
            Just("{"),
            Just("}"),
            Just(","),
            Just(":"),
            Just(".."),
            Just("!!"),
            Just("F"),
            Just("RO"),
            Just("[a]"),
            Just("s"),
        ],
        0..24,
    )
    .prop_map(|parts| parts.concat())
}

/// A random valid 加算ダイス term.
fn add_term() -> impl Strategy<Value = String> {
    let die = (
        1..5i64,
        prop_oneof![Just(2i64), Just(3), Just(4), Just(6), Just(10)],
    );
    prop_oneof![
        die.clone().prop_map(|(n, s)| format!("{n}D{s}")),
        (
            die.clone(),
            0..4i64,
            prop_oneof![Just("KH"), Just("KL"), Just("DH"), Just("DL")]
        )
            .prop_map(|((n, s), k, f)| format!("{n}D{s}{f}{k}")),
        die.clone()
            .prop_flat_map(|(n, s)| (Just((n, s)), prop_oneof![Just("MAX"), Just("MIN")]))
            .prop_map(|((n, s), f)| format!("{n}D{s}{f}")),
        (0..20i64).prop_map(|c| c.to_string()),
        Just("1D66".to_string()),
        engine_term(),
    ]
}

/// A random term of the pool engine's own constructs.
fn engine_term() -> impl Strategy<Value = String> {
    let faces = prop_oneof![
        prop_oneof![Just(4i64), Just(6), Just(8)].prop_map(|s| s.to_string()),
        Just("F".to_string()),
        // At least two faces, 0 and 3, so no modifier meets every face.
        proptest::collection::vec(-2..4i64, 0..4).prop_map(|v| format!(
            "{{0,3{}}}",
            v.iter().map(|x| format!(",{x}")).collect::<String>()
        )),
        Just("{0,1,s,2s,a,s+a}".to_string()),
    ];
    let modifier = prop_oneof![
        Just(""),
        Just("ro1"),
        Just("r2"),
        Just("!"),
        Just("!!"),
        Just("!!KH1"),
        Just("KH1"),
        Just("DL1"),
    ];
    prop_oneof![
        (1..4i64, faces, modifier).prop_map(|(n, f, m)| format!("{n}D{f}{m}")),
        (1..4i64, 1..6i64).prop_map(|(n, k)| format!("{n}D6{{1:2,<={k}:1,6:-1}}")),
        (1..3i64, 1..3i64).prop_map(|(a, b)| format!("{{{a}D6!,{b}D4!}}KH1")),
    ]
}

/// A random valid command of any kind.
fn command() -> impl Strategy<Value = String> {
    let cmp = prop_oneof![
        Just(">="),
        Just(">"),
        Just("<="),
        Just("<"),
        Just("="),
        Just("<>")
    ];
    let ops = prop_oneof![
        Just("+"),
        Just("-"),
        Just("*"),
        Just("/"),
        Just("/2U"),
        Just("/3R")
    ];
    prop_oneof![
        // 加算ダイス with arithmetic and an optional comparison.
        (
            add_term(),
            proptest::collection::vec((ops, add_term()), 0..3),
            proptest::option::of((cmp.clone(), -5..30i64)),
        )
            .prop_map(|(first, rest, target)| {
                let mut s = first;
                for (op, t) in rest {
                    // BCDice's rounding suffixes follow a number.
                    if op.len() > 1 {
                        s.push_str(op);
                    } else {
                        s.push_str(op);
                        s.push_str(&t);
                    }
                }
                if !s.contains('D') {
                    s.push_str("+1D6");
                }
                if let Some((c, t)) = target {
                    s.push_str(&format!("{c}{t}"));
                }
                s
            }),
        // バラバラダイス.
        (
            1..6i64,
            2..11i64,
            proptest::option::of((cmp.clone(), 1..11i64))
        )
            .prop_map(|(n, s, t)| match t {
                Some((c, t)) => format!("{n}B{s}{c}{t}"),
                None => format!("{n}B{s}"),
            }),
        // 個数振り足しダイス: reroll on the top face or two.
        (1..4i64, 4..11i64, 0..2i64, 1..11i64)
            .prop_map(|(n, s, k, t)| format!("{n}R{s}[>={}]>={t}", s - k)),
        // 上方無限ロール.
        (1..4i64, 4..11i64, proptest::option::of(1..25i64)).prop_map(|(n, s, t)| match t {
            Some(t) => format!("{n}U{s}[{s}]>={t}"),
            None => format!("{n}U{s}[{s}]"),
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_string_is_parsed_or_refused_without_panic(s in notation_soup()) {
        match dice::parse(&s) {
            Ok(cmd) => {
                // Whatever parses has a law or a refusal naming the limit.
                let _ = law::law::<f64>(&cmd, dice::DEFAULT_TAIL_EPS);
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(!msg.is_empty());
            }
        }
    }
}

/// Random conditions over the roll's statistics.
/// One to three comparisons `one` joined by `and`, `or`, `and not`.
fn joined(one: impl Strategy<Value = String> + Clone) -> impl Strategy<Value = String> {
    (
        one.clone(),
        proptest::collection::vec(
            (
                prop_oneof![Just(" and "), Just(" or "), Just(" and not ")],
                one,
            ),
            0..3,
        ),
    )
        .prop_map(|(first, rest)| {
            let mut s = first;
            for (op, c) in rest {
                s.push_str(op);
                s.push_str(&c);
            }
            s
        })
}

fn condition() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        Just("total"),
        Just("natural"),
        Just("max"),
        Just("min"),
        Just("count(6)"),
        Just("count(2..4)"),
        Just("count(>=5)"),
        Just("width"),
        Just("height"),
    ];
    let cmp = prop_oneof![Just(">="), Just("<"), Just("=="), Just("!=")];
    let one = (atom, cmp, -2..20i64).prop_map(|(a, c, v)| format!("{a}{c}{v}"));
    joined(one)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn conditions_echo_and_their_tiers_sum_to_one(cond in condition(), n in 1..5i64) {
        let e = dice::cond::parse(&cond).map_err(|e| TestCaseError::fail(format!("{cond}: {e}")))?;
        let again = dice::cond::parse(&e.to_string()).map_err(|x| TestCaseError::fail(format!("{cond} → {e}: {x}")))?;
        prop_assert_eq!(&again, &e);
        let mut c = dice::Check::new(&format!("{n}D6")).unwrap();
        c.tiers = vec![dice::parse_tier(&format!("yes:{cond}")).unwrap(), dice::parse_tier("no").unwrap()];
        let r = dice::report::<f64>(&c).map_err(|x| TestCaseError::fail(format!("{cond}: {x}")))?;
        let total: f64 = r.outcomes.iter().map(|o| o.p).sum();
        prop_assert!((total - 1.0).abs() < 1e-9, "{}: {}", cond, total);
    }

    #[test]
    fn condition_soup_is_parsed_or_refused(s in "[a-z()<>=!0-9 .,&|+*/-]{0,30}") {
        match dice::cond::parse(&s) {
            Ok(e) => prop_assert!(e.is_bool()),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn valid_commands_have_laws_that_hold_every_roll(expr in command(), seed in any::<u64>()) {
        let cmd = dice::parse(&expr).map_err(|e| TestCaseError::fail(format!("{expr}: {e}")))?;
        // The echo is a command that parses back to the same command.
        let echo = cmd.to_string();
        let again = dice::parse(&echo).map_err(|e| TestCaseError::fail(format!("{expr} → {echo}: {e}")))?;
        prop_assert_eq!(&again, &cmd, "{} → {}", expr, echo);
        let l = match law::law::<f64>(&cmd, dice::DEFAULT_TAIL_EPS) {
            Ok(l) => l,
            // A refusal (a limit) is a message, not a panic.
            Err(e) => { prop_assert!(!e.to_string().is_empty()); return Ok(()); }
        };
        let total: f64 = l.value.iter().map(|(_, p)| *p).sum();
        prop_assert!((total + l.tail - 1.0).abs() < 1e-9, "{}: total {} tail {}", expr, total, l.tail);
        prop_assert!(l.value.iter().all(|(_, p)| (0.0..=1.0 + 1e-12).contains(p)));
        let mut faces = Mix(seed);
        for _ in 0..30 {
            let r = cmd.roll(&mut faces);
            prop_assert!(l.value.p(r.value) > 0.0, "{}: rolled {} which the law says is impossible", expr, r.value);
        }
    }
}

/// A random small check the engine answers by any of its paths (fold,
/// die-by-die combination, group product, total-free facts, a push taken
/// in two passes): a few named terms of d4/d6/listed faces, with rerolls
/// and keep/drop, tiers over counts, maxima, names and (or not) the total,
/// and maybe a push.
/// (expression, tiers, push: (tier, rules)).
type SmallCheck = (String, Vec<String>, Option<(String, Vec<String>)>);

fn small_check() -> impl Strategy<Value = SmallCheck> {
    let term = prop_oneof![
        (
            1..3i64,
            prop_oneof![Just("4"), Just("6"), Just("{0,1,1,3}")],
            prop_oneof![Just(""), Just("ro1"), Just("KH1"), Just("DL1")]
        )
            .prop_map(|(n, f, m)| format!("{n}D{f}{m}")),
        Just("{1D4,1D3+1}KH1".to_string()),
    ];
    let expr = (term.clone(), proptest::option::of(term)).prop_map(|(a, b)| match b {
        Some(b) => format!("{a}[a]+{b}[b]"),
        None => format!("{a}[a]"),
    });
    let atom = prop_oneof![
        Just("count(1)>=1"),
        Just("count(>=4)>=2"),
        Just("max>=4"),
        Just("min<=2"),
        Just("a>=4"),
        Just("doubles"),
        Just("total>=6"),
        Just("natural<=4"),
    ];
    let tier = (atom.clone(), proptest::option::of(atom)).prop_map(|(x, y)| match y {
        Some(y) => format!("{x} and not {y}"),
        None => x.to_string(),
    });
    let tiers = proptest::collection::vec(tier, 1..3).prop_map(|v| {
        let mut out: Vec<String> = v
            .iter()
            .enumerate()
            .map(|(i, c)| format!("t{i}:{c}"))
            .collect();
        out.push("rest".to_string());
        out
    });
    let push = proptest::option::of(prop_oneof![Just("<=2"), Just("a:1..3"), Just(">=1")]);
    (expr, tiers, push).prop_map(|(e, t, p)| {
        // A push names the last tier (the rest) and rerolls single dice:
        // not with keep/drop groups.
        let p = p
            .filter(|_| !e.contains('{'))
            .map(|rule| ("rest".to_string(), vec![rule.to_string()]));
        (e, t, p)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// The whole report, whichever path the engine takes, against the
    /// enumeration of the plain rule over every sequence of faces: each
    /// tier and each value of the total, exactly.
    #[test]
    fn small_checks_equal_enumeration((expr, tiers, push) in small_check()) {
        let tiers: Vec<&str> = tiers.iter().map(String::as_str).collect();
        let rules: Vec<&str> = push.as_ref().map(|(_, r)| r.iter().map(String::as_str).collect()).unwrap_or_default();
        let push = push.as_ref().map(|(w, _)| (w.as_str(), &rules[..]));
        let mut c = hantei::verify::notation::check_with_push(&expr, &tiers, push);
        c.tail_eps = 1e-12;
        let r = match dice::report::<hantei::Exact>(&c) {
            Ok(r) => r,
            // A refusal (a construct a push does not take) is a message.
            Err(e) => { prop_assert!(!e.to_string().is_empty()); return Ok(()); }
        };
        let mut v = c.clone();
        v.validate().unwrap();
        let names = v.tier_names();
        let (brute, cut) = crate::common::walk::walk(16, 1, |w| {
            let f = v.roll_facts(w).unwrap();
            (v.tier_of_facts(&f), f.stat(&dice::pool::Stat::Total))
        });
        prop_assert!(cut.is_zero(), "{}: the walk was cut", expr);
        let mut tier_p = vec![hantei::Exact::zero(); names.len()];
        let mut total: std::collections::BTreeMap<i64, hantei::Exact> = Default::default();
        for ((t, x), p) in &brute {
            tier_p[*t] += p.clone();
            *total.entry(*x).or_insert_with(hantei::Exact::zero) += p.clone();
        }
        for (name, p) in names.iter().zip(&tier_p) {
            let got = r.outcome(name).cloned().unwrap_or_else(hantei::Exact::zero);
            prop_assert_eq!(&got, p, "{} {:?}: tier {}", expr, tiers, name);
        }
        let dist = r.to_json()["distribution"].clone();
        for (x, p) in &total {
            prop_assert_eq!(&dist[x.to_string()], &hantei::report::prob_json(p), "{} {:?}: P(total = {})", expr, tiers, x);
        }
        // The tiers alone (--outcomes-only), whose law carries only what
        // they read (a push's first rolls that are not pushed read from
        // its pairs), equal the enumeration too.
        let mut o = c.clone();
        o.outcomes_only = true;
        let r = dice::report::<hantei::Exact>(&o).unwrap();
        for (name, p) in names.iter().zip(&tier_p) {
            let got = r.outcome(name).cloned().unwrap_or_else(hantei::Exact::zero);
            prop_assert_eq!(&got, p, "{} {:?} --outcomes-only: tier {}", expr, tiers, name);
        }
    }
}

/// Random conditions mixing statistics, names and arithmetic (sides of a
/// comparison that are a slot plus or minus a number, and others).
fn slotted_condition() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        Just("total".to_string()),
        Just("max".to_string()),
        Just("count(6)".to_string()),
        Just("hope".to_string()),
        Just("fear".to_string()),
        Just("absent".to_string()),
        (-3..12i64).prop_map(|v| v.to_string()),
    ];
    let side = (
        atom.clone(),
        prop_oneof![Just(""), Just("+"), Just("-"), Just("*"), Just("/")],
        atom,
    )
        .prop_map(|(a, op, b)| {
            if op.is_empty() {
                a
            } else {
                format!("{a}{op}{b}")
            }
        });
    let cmp = prop_oneof![
        Just(">="),
        Just(">"),
        Just("<="),
        Just("<"),
        Just("=="),
        Just("!=")
    ];
    let one = (side.clone(), cmp, side).prop_map(|(a, c, b)| format!("{a}{c}{b}"));
    joined(one)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// A condition resolved to a layout's slots reads every tuple as the
    /// condition itself does through a lookup by statistic (a statistic
    /// the layout lacks reads 0), saturating at the ends of i64 alike.
    #[test]
    fn slotted_conditions_read_tuples_as_the_condition_does(
        cond in slotted_condition(),
        values in proptest::collection::vec(
            prop_oneof![-20..20i64, Just(i64::MIN), Just(i64::MAX), Just(i64::MIN + 1)],
            4,
        ),
    ) {
        use hantei::systems::dice::pool::Stat;
        let e = dice::cond::parse(&cond).map_err(|x| TestCaseError::fail(format!("{cond}: {x}")))?;
        // `absent` is not in the layout.
        let layout = [
            Stat::Total,
            Stat::Max,
            Stat::Count(dice::cond::parse_face("6").unwrap(), None),
            Stat::Named("hope".into()),
            Stat::Named("fear".into()),
        ];
        let k: Vec<i64> = std::iter::once(3).chain(values).collect();
        let slot = |s: &Stat| layout.iter().position(|x| x == s);
        let by_stat = e.eval(&|s| slot(s).map_or(0, |i| k[i]));
        prop_assert_eq!(e.slotted(&slot).eval(&k), by_stat, "{}", cond);
    }
}
