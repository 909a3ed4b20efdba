//! Peer cases for `dice`: BCDice's own 151 test cases for its common
//! commands (`test/data/None.toml`, in `tests/data/peer/`, BSD-3-Clause,
//! notice in that folder's README). Given BCDice's dice, our plain rule
//! must give BCDice's echo of the command, its total (or faces and success
//! count) and its 成功/失敗; commands BCDice rejects must be rejected.
//!
//! Deliberate differences: none. (`2b(2+4)` style cases that BCDice's
//! parser tags `add_dice` are xB commands all the same: the text shows
//! faces and 成功数.)

use std::collections::VecDeque;

use hantei::systems::dice::{self, Body};
use serde_json::Value;

use crate::common::peer_cases;

fn cases() -> Vec<Value> {
    peer_cases("bcdice-DiceBot-common.json")
}

/// Faces in the order BCDice asked for them; each request's sides are
/// checked against what the case recorded.
struct Queue(VecDeque<(i64, i64)>, String);

impl dice::roll::Faces for Queue {
    fn die(&mut self, sides: i64) -> i64 {
        let (s, v) = self
            .0
            .pop_front()
            .unwrap_or_else(|| panic!("{}: more dice asked for than BCDice rolled", self.1));
        assert_eq!(
            s, sides,
            "{}: a d{sides} asked for, BCDice rolled a d{s}",
            self.1
        );
        v
    }
}

#[test]
fn bcdice_common_commands() {
    let mut checked = 0;
    let mut rejected = 0;
    for case in cases() {
        let id = case["id"].as_str().unwrap().to_string();
        let command = case["command"].as_str().unwrap();
        let expected = case["expected_output"].as_str();
        let parsed = dice::parse(command);
        let Some(out) = expected.filter(|o| !o.contains("条件が間違っています")) else {
            assert!(
                parsed.is_err(),
                "{id}: BCDice rejects {command:?}, we accept it"
            );
            rejected += 1;
            continue;
        };
        let cmd = parsed.unwrap_or_else(|e| panic!("{id}: {command:?} does not parse: {e}"));
        let parts: Vec<&str> = out.split(" ＞ ").collect();
        // The echo, without the parentheses.
        let echo = parts[0].trim_start_matches('(').trim_end_matches(')');
        assert_eq!(cmd.to_string(), echo, "{id}: echo of {command:?}");
        assert_eq!(
            cmd.secret,
            case["expected_flags"]["secret"] == true,
            "{id}: secret"
        );

        let mut queue = Queue(
            case["rands"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| (r["sides"].as_i64().unwrap(), r["value"].as_i64().unwrap()))
                .collect(),
            id.clone(),
        );
        let rolled = cmd.roll(&mut queue);
        assert!(
            queue.0.is_empty(),
            "{id}: BCDice rolled dice we did not use"
        );
        let last = *parts.last().unwrap();
        match &cmd.body {
            Body::Add(a) => {
                let flags = &case["expected_flags"];
                let total_text = if a.target.is_some() {
                    assert_eq!(
                        rolled.success,
                        Some(flags["success"] == true),
                        "{id}: 成功/失敗 of {command:?}"
                    );
                    assert_eq!(last == "成功", flags["success"] == true, "{id}");
                    parts[parts.len() - 2]
                } else {
                    assert_eq!(rolled.success, None);
                    last
                };
                let total: i64 = total_text
                    .parse()
                    .unwrap_or_else(|_| panic!("{id}: total {total_text:?}"));
                assert_eq!(rolled.value, total, "{id}: total of {command:?}");
            }
            Body::Barabara(b) => {
                let faces: Vec<i64> = parts[1].split(',').map(|f| f.parse().unwrap()).collect();
                assert_eq!(rolled.faces, faces, "{id}: faces");
                if b.target.is_some() {
                    let n: i64 = last.trim_start_matches("成功数").parse().unwrap();
                    assert_eq!(rolled.value, n, "{id}: 成功数 of {command:?}");
                } else {
                    assert_eq!(
                        rolled.value,
                        faces.iter().sum::<i64>(),
                        "{id}: sum of faces"
                    );
                }
            }
            Body::Reroll(_) => {
                let n: i64 = last.trim_start_matches("成功数").parse().unwrap();
                assert_eq!(rolled.value, n, "{id}: 成功数 of {command:?}");
                let faces: Vec<i64> = parts[1]
                    .split(" + ")
                    .flat_map(|g| g.split(','))
                    .map(|f| f.parse().unwrap())
                    .collect();
                assert_eq!(rolled.faces, faces, "{id}: faces in BCDice's order");
            }
            Body::Upper(_) | Body::D66(_) => panic!("{id}: no such peer case expected"),
        }
        checked += 1;
    }
    assert_eq!(checked + rejected, 151, "every case is checked");
    assert_eq!(
        rejected, 5,
        "BCDice rejects 1D6/3x, 134, 1+2*3/4, 2R6, 2R6<=7"
    );
}

/// The CLI rejects what BCDice rejects, with exit code 2 and a caret.
/// (BCDice also rejects `(1D6)D6`; since issue 28 hantei reads it as a
/// pool whose size is rolled, `tests/chain.rs`.)
#[test]
fn rejected_commands_exit_2_with_a_caret() {
    for expr in [
        "1D6/3x",
        "134",
        "1+2*3/4",
        "2R6",
        "2R6<=7",
        "1D10>=2D6",
        "2D6>=?",
    ] {
        let out = crate::common::hantei()
            .args(["odds", "dice", expr])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{expr}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expr), "{expr}: the message quotes it: {err}");
        assert!(
            err.contains('^'),
            "{expr}: the message points at the fault: {err}"
        );
        assert_eq!(
            err.trim_end().lines().count(),
            3,
            "{expr}: message, expression, caret: {err}"
        );
    }
}
