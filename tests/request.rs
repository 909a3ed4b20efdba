//! The typed request model: a report's `params` block, sent back as a
//! request, reproduces the report exactly (every system and mode); the CLI,
//! JSON and analysis fronts build the same request.

use hantei::request::Request;
use hantei::{Exact, Report};
use serde_json::Value;

/// Every system and mode: checks, contests, extended tests, teamwork, Edge,
/// fate dice, level bidding.
const CASES: &[(&str, &str)] = &[
    // multiplier (seed 000)
    ("multiplier", "--ability 12"),
    ("multiplier", "--kind ability --ability 12 --supporter 8,9 --multiplier 4 --modifier -1 --modifier 2"),
    ("multiplier", "--ability 3 --multiplier -1 --no-guarantee"),
    ("multiplier", "--ability 12 --skill-level 3,2 --modifier -2"),
    ("multiplier", "--ability 12 --required-level none"),
    ("multiplier", "--kind skill --ability 12 --skill-level 1 --required-level 3"),
    ("multiplier", "--rate 125 --hundred-is-doubles false"),
    ("multiplier", "--ability 12 --vs-ability 10 --vs-supporter 6"),
    ("multiplier", "--ability 12 --vs-kind skill --vs-ability 12 --vs-required-level none"),
    ("multiplier", "--ability 12 --perception --vs-rate 30"),
    ("multiplier", "--ability 12 --perception-needs-success --vs-kind skill --vs-ability 9 --vs-skill-level 2"),
    ("multiplier", "--ability 12 --perception-rule higher-tier --vs-rate 40"),
    ("multiplier", "--ability 12 --successes 3"),
    ("multiplier", "--ability 12 --co-ability 8 --supporter 6"),
    ("multiplier", "--ability 12 --vs-ability 10 --side ability=11,multiplier=4 --side rate=40"),
    ("multiplier", "--kind skill --ability 14 --skill-level 2 --successes 4 --attempts 6 --degrees"),
    // d20 (seed 001)
    ("d20", "--modifier 5 --dc 15"),
    ("d20", "--score 14 --level 5 --dc 15 --bonus 1"),
    ("d20", "--modifier 3 --proficiency 2 --dc 12 --advantage"),
    ("d20", "--modifier 3 --dc 12 --disadvantage --crit-on 19"),
    ("d20", "--modifier 3 --dc 12 --advantage --disadvantage"),
    ("d20", "--modifier 2 --dc 16 --fate 2"),
    ("d20", "--modifier 2 --dc 16 --fate 3 --policy boost-only"),
    ("d20", "--modifier 2 --dc 16 --fate 1 --policy reroll-only"),
    ("d20", "--modifier 2 --dc 16 --fate 0 --policy none"),
    ("d20", "--modifier 1 --vs-score 12 --advantage"),
    ("d20", "--modifier 1 --vs-modifier 1 --vs-level 3 --vs-disadvantage --tie-rule reroll"),
    ("d20", "--score 16 --vs-modifier 5 --vs-proficiency 5 --vs-advantage --tie-rule attacker"),
    // keep-highest (seed 002)
    ("keep-highest", "--ability 5 --dice 2 --difficulty 6"),
    ("keep-highest", "--ability 2 --difficulty 4"),
    ("keep-highest", "--ability 9 --dice 3 --difficulty 8 --advantage --advantage"),
    ("keep-highest", "--ability 9 --dice 3 --difficulty 8 --advantage --disadvantage"),
    ("keep-highest", "--ability 9 --difficulty 8 --disadvantage"),
    ("keep-highest", "--ability 5 --vs-ability 3"),
    ("keep-highest", "--ability 7 --dice 2 --vs-ability 6 --vs-dice 2 --vs-advantage --tie-rule active"),
    ("keep-highest", "--ability 4 --vs-cannot-roll --tie-rule passive"),
    // levels (seed 003)
    ("levels", "--skill 50,30,15 --difficulty 2"),
    ("levels", "--skill 50,30,15 --level 1 --difficulty 2"),
    ("levels", "--skill 80,40,16,8 --prior 1,2,1"),
    ("levels", "--from-brp 70 --difficulty 1 --critical top5"),
    ("levels", "--from-ability 12 --difficulty 3"),
    ("levels", "--skill 50,30,15,10 --vs-skill 70,40,30"),
    ("levels", "--skill 50,30,15,10 --level 2 --vs-from-brp 60 --vs-level 1"),
    ("levels", "--from-ability 15 --vs-from-ability 10 --critical top5"),
    // hit-pool (seed 004)
    ("hit-pool", "--pool 8 --threshold 2"),
    ("hit-pool", "--pool 8"),
    ("hit-pool", "--pool 0"),
    ("hit-pool", "--pool 10 --threshold 3 --glitch-rule more-than-half --limit 4"),
    ("hit-pool", "--pool 12 --buy --threshold 2"),
    ("hit-pool", "--pool 8 --threshold 2 --edge 2"),
    ("hit-pool", "--pool 8 --threshold 2 --edge 2 --limit 2 --edge-limit apply"),
    ("hit-pool", "--pool 8 --threshold 3 --edge 3 --edge-use push-after --explode-glitch original-pool"),
    ("hit-pool", "--pool 8 --threshold 3 --edge 3 --edge-use push --explode-glitch bcdice --tail-eps 1e-12"),
    ("hit-pool", "--pool 8 --threshold 3 --edge 2 --edge-use second-chance"),
    ("hit-pool", "--pool 8 --threshold 3 --edge 2 --edge-use negate-glitch --negate-critical downgrade"),
    ("hit-pool", "--pool 0 --threshold 1 --edge 3"),
    ("hit-pool", "--pool 8 --threshold 3 --helper 4 --helper 3 --team-cap 2"),
    ("hit-pool", "--pool 8 --vs-pool 6"),
    ("hit-pool", "--pool 8 --vs-pool 6 --vs-limit 2 --vs-edge 2 --vs-edge-use second-chance --tie-rule attacker"),
    ("hit-pool", "--pool 6 --vs-pool 5 --vs-helper 3 --vs-helper 2 --vs-team-cap 2"),
    ("hit-pool", "--pool 8 --threshold 6 --extended"),
    ("hit-pool", "--pool 6 --threshold 5 --extended --max-rolls 4 --shrink --critical-glitch-ends"),
    // dice (notation)
    ("dice", "2d6+1>=7"),
    ("dice", "1D20+5 --tier critical:natural>=19 --tier hit:>=15 --tier miss"),
    ("dice", "3D6 --tier crit:natural<=4 --tier ok:<=12-2 --tier fail --success-tiers crit,ok"),
    ("dice", "2D6+1 --vs 2D6 --tie-rule reroll"),
    ("dice", "1D20 --vs 1D20+2 --lower-wins --tie-rule defender"),
    ("dice", "3R6[6]>=5 --tail-eps 1e-12"),
    ("dice", "2U6[6]"),
    ("dice", "5B6>=4 --tier many:>=3 --tier few"),
    ("dice", "D66A"),
];

fn cli_request(system: &str, args: &str) -> Request {
    #[derive(clap::Parser)]
    struct Odds {
        #[command(subcommand)]
        request: Request,
    }
    let argv = ["odds", system].into_iter().chain(args.split_whitespace());
    <Odds as clap::Parser>::try_parse_from(argv)
        .unwrap_or_else(|e| panic!("{system} {args}: {e}"))
        .request
}

fn params_of<W: hantei::Weight>(r: &Report<W>) -> serde_json::Map<String, Value> {
    r.params.iter().cloned().collect()
}

#[test]
fn params_block_sent_back_reproduces_the_report() {
    for (system, args) in CASES {
        let req = cli_request(system, args);
        assert_eq!(req.system(), *system);
        let exact: Report<Exact> = hantei::odds(&req).unwrap_or_else(|e| panic!("{args}: {e}"));
        let again = Request::from_report_params(system, &params_of(&exact))
            .unwrap_or_else(|e| panic!("{system} {args}: params block rejected: {e}"));
        let exact2: Report<Exact> = hantei::odds(&again).unwrap();
        assert_eq!(
            exact.to_json(),
            exact2.to_json(),
            "{system} {args}: the params block {:?} does not reproduce the report",
            exact.params
        );
        let float: Report<f64> = hantei::odds(&req).unwrap();
        let float2: Report<f64> = hantei::odds(&again).unwrap();
        assert_eq!(float, float2, "{system} {args} (f64)");
    }
}

#[test]
fn serialized_request_reads_back_as_the_same_request() {
    for (system, args) in CASES {
        let req = cli_request(system, args);
        let json = serde_json::to_value(&req).unwrap();
        assert_eq!(json["system"], *system);
        let back = Request::from_json(&json).unwrap_or_else(|e| panic!("{args}: {json}: {e}"));
        assert_eq!(back, req, "{system} {args}");
        let via_serde: Request = serde_json::from_value(json).unwrap();
        assert_eq!(via_serde, req, "{system} {args}");
    }
}

#[test]
fn json_and_flags_build_the_same_request() {
    use serde_json::json;
    let pairs = [
        (
            json!({"system": "d20", "modifier": 5, "dc": 15}),
            "d20",
            "--modifier 5 --dc 15",
        ),
        (
            json!({"system": "keep-highest", "ability": 9, "dice": 3, "difficulty": 8, "advantage": true}),
            "keep-highest",
            "--ability 9 --dice 3 --difficulty 8 --advantage",
        ),
        (
            json!({"system": "levels", "skill": "50,30,15", "difficulty": 2}),
            "levels",
            "--skill 50,30,15 --difficulty 2",
        ),
        (
            json!({"system": "levels", "skill": [50, 30, 15], "difficulty": 2}),
            "levels",
            "--skill 50,30,15 --difficulty 2",
        ),
        (
            json!({"system": "hit-pool", "pool": 8, "helper": [4, 3], "edge": 2, "edge_use": "push-after"}),
            "hit-pool",
            "--pool 8 --helper 4 --helper 3 --edge 2 --edge-use push-after",
        ),
        (
            json!({"system": "multiplier", "ability": 12, "skill-level": "3,2", "required_level": "none"}),
            "multiplier",
            "--ability 12 --skill-level 3,2 --required-level none",
        ),
    ];
    for (json, system, args) in pairs {
        assert_eq!(
            Request::from_json(&json).unwrap(),
            cli_request(system, args),
            "{json}"
        );
    }
}

#[test]
fn bad_requests_name_the_field_and_what_is_allowed() {
    use serde_json::json;
    for (json, needles) in [
        (
            json!({"system": "d20", "dc": "1e9"}),
            &["dc", "'1e9' is not an integer"][..],
        ),
        (
            json!({"system": "d20", "modifier": 5, "dc": 15, "dcc": 3}),
            &["unknown field 'dcc'"],
        ),
        (json!({"system": "d20x"}), &["'d20x'", "keep-highest"]),
        (json!({"system": "hit-pool"}), &["missing field 'pool'"]),
        (
            json!({"system": "hit-pool", "pool": 5, "edge_use": "shove", "edge": 1}),
            &["edge_use", "'shove'", "push-after"],
        ),
        (
            json!({"system": "hit-pool", "pool": 100000}),
            &["--pool", "100000"],
        ),
        (json!([1, 2]), &["request"]),
    ] {
        let msg = match Request::from_json(&json).and_then(|r| hantei::odds::<f64>(&r)) {
            Ok(_) => panic!("{json} accepted"),
            Err(e) => e.to_string(),
        };
        assert!(!msg.contains('\n'), "{msg}");
        for n in needles {
            assert!(msg.contains(n), "{json}: '{msg}' lacks '{n}'");
        }
    }
}

#[test]
fn a_hundred_pushed_dice_in_exact_fractions_agree_with_floating_point() {
    use hantei::Weight;
    // 96 dice + Edge 4, every six exploding: the closed form lets --exact
    // take 100 dice (it allowed 30 when the law was built die by die).
    let request = Request::from_json(&serde_json::json!({
        "system": "hit-pool", "pool": 96, "edge": 4, "edge_use": "push", "threshold": 40
    }))
    .unwrap();
    let exact = hantei::odds::<hantei::Exact>(&request).unwrap();
    let float = hantei::odds::<f64>(&request).unwrap();
    let (pe, pf) = (exact.p_success.to_f64(), float.p_success);
    assert!(pe > 0.3 && pe < 0.7, "{pe}");
    assert!((pe - pf).abs() < 1e-12, "{pe} vs {pf}");
}

/// `reads_outcomes_alone` (what the ladders ask before they set
/// `outcomes_only`) says yes exactly where `--outcomes-only` is accepted:
/// each request below is reported with the flag set, and is refused as
/// the flag's conflict exactly where the answer is no; where it is
/// accepted, its outcomes and p_success are the whole report's.
#[test]
fn outcomes_alone_are_read_exactly_where_the_flag_is_accepted() {
    let cases = [
        ("3D6 --tier hit:>=10 --tier miss", true),
        ("3D6 --outcomes-by max", true),
        ("2D6[a]+1D6[b] --tier a:a>b --tier rest", true),
        ("3D6", false),
        ("3D6 --tier hit:>=10 --vs 2D6", false),
        ("3D6 --tier hit:>=10 --until 30", false),
        ("3D6 --game Cthulhu7th --tier hit:>=10 --tier miss", true),
        (
            "2D6 --game SwordWorld2.5 --tier hit:>=10 --tier miss",
            false,
        ),
    ];
    for (args, alone) in cases {
        let Request::Dice(p) = cli_request("dice", args) else {
            panic!("{args}: not a dice request")
        };
        assert_eq!(p.reads_outcomes_alone(), alone, "{args}");
        let mut only = p.clone();
        only.outcomes_only = true;
        match only.report::<f64>() {
            Ok(r) => {
                assert!(alone, "{args}: accepted where it reads more than its tiers");
                let whole = p.report::<f64>().unwrap();
                assert!((r.p_success - whole.p_success).abs() < 1e-12, "{args}");
                assert_eq!(r.outcomes.len(), whole.outcomes.len(), "{args}");
                for (a, b) in r.outcomes.iter().zip(&whole.outcomes) {
                    assert_eq!(a.key, b.key, "{args}");
                    assert!((a.p - b.p).abs() < 1e-12, "{args}: {}", a.key);
                }
            }
            Err(e) => {
                assert!(!alone, "{args}: refused: {e}");
                assert!(e.to_string().contains("outcomes-only"), "{args}: {e}");
            }
        }
    }
}
