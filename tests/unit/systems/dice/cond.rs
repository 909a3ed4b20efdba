//! Tests of `src/systems/dice/cond.rs` (`hantei::systems::dice::cond`).

use hantei::systems::dice::ast::{Cmp, FaceCond};
use hantei::systems::dice::pool::Stat;

use hantei::systems::dice::cond::*;

fn get(s: &Stat) -> i64 {
    match s {
        Stat::Total => 12,
        Stat::Max => 6,
        Stat::Count(FaceCond::Cmp(Cmp::Eq, 6), None) => 2,
        Stat::Named(n) if &**n == "hope" => 7,
        Stat::Named(n) if &**n == "fear" => 5,
        Stat::AllEqual => 0,
        _ => 0,
    }
}

#[test]
fn reads_and_evaluates() {
    for (text, want) in [
        (">=10", true),
        (">=13", false),
        ("total>=10 and max==6", true),
        ("count(==6)>=2", true),
        ("count(6)>=3", false),
        ("hope>fear", true),
        ("hope>fear and not doubles", true),
        ("(hope-fear)*2==4", true),
        ("max<6 or total==12", true),
        ("!(max==6)", false),
        ("total/5==2", true),
        ("-3<total-14", true),
    ] {
        let e = parse(text).unwrap();
        assert_eq!(e.holds(&get), want, "{text}");
        // Echo re-parses to the same condition.
        let again = parse(&e.to_string()).unwrap();
        assert_eq!(again, e, "{text} → {e}");
    }
}

#[test]
fn refuses_with_a_caret() {
    for text in [
        "",
        "total",
        "max>=",
        "count(==6",
        ">=10 )",
        "1+",
        "max ≥ 3",
        "count()",
    ] {
        assert!(parse(text).is_err(), "{text}");
    }
}

#[test]
fn a_misspelt_count_is_named() {
    let e = parse("cuont(6)>=2").unwrap_err().to_string();
    assert!(e.contains("'cuont(' is no statistic"), "{e}");
    assert!(e.contains("did you mean count?"), "{e}");
    let e = parse("hope(1)>=2").unwrap_err().to_string();
    assert!(!e.contains("did you mean"), "{e}");
}

/// Rows read column by column (`Slotted::mark_rows`) set exactly the bits
/// the tuples read one by one (`Slotted::holds`) do: every comparison,
/// operands that are columns, columns plus a number, or numbers, on small
/// values (read by the sign of a difference, in whole vectors) up to the
/// edge of that path (±2⁶¹, its sums and differences at their largest),
/// and on values past it and at i64's ends (read saturating, one by one).
#[test]
fn rows_marked_by_columns_equal_each_tuple_judged() {
    use hantei::systems::dice::pool::product::Rows;
    let big = 1i64 << 62;
    let values: Vec<i64> = vec![-3, 0, 1, 2, 5, 7, 7, 12, -1, 3];
    let quarter = 1i64 << 61;
    let near: Vec<i64> = vec![
        quarter - 1,
        -quarter,
        0,
        quarter - 2,
        -quarter + 1,
        3,
        -1,
        quarter - 1,
        -quarter,
        1,
    ];
    let edges: Vec<i64> = vec![
        big - 1,
        big,
        -big,
        -big - 1,
        i64::MAX,
        i64::MIN,
        0,
        5,
        i64::MAX - 2,
        -7,
    ];
    let plus = [
        0i64,
        2,
        -3,
        quarter - 1,
        -quarter,
        quarter,
        big - 1,
        -big,
        big,
        i64::MIN,
    ];
    // Within ±2⁶² but past ±2⁶¹: their sums with such numbers are near
    // i64's ends, and so would be their differences.
    let near_ends: Vec<i64> = vec![big - 1, -big, 0, big - 2, -big + 1, 3, -1, big - 1, -big, 1];
    for column in [&values, &near, &near_ends, &edges] {
        let other: Vec<i64> = column.iter().rev().copied().collect();
        // Slot 0 and 1 differ by row; slot 2 is shared (the base).
        let cols = vec![(0usize, column.clone()), (1usize, other)];
        for shared in [
            4i64,
            quarter - 1,
            -quarter,
            big - 1,
            -big,
            big + 5,
            i64::MIN,
        ] {
            let base = [0, 0, shared];
            let rows = Rows {
                base: &base,
                cols: &cols,
            };
            let mut operands = vec![Operand::Slot(2)];
            for p in plus {
                operands.extend([
                    Operand::Num(p),
                    Operand::SlotPlus(0, p),
                    Operand::SlotPlus(2, p),
                ]);
            }
            operands.extend([Operand::Slot(0), Operand::Slot(1)]);
            for c in [Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge, Cmp::Eq, Cmp::Ne] {
                for x in &operands {
                    for y in &operands {
                        let atom = Slotted::CmpOperands(c, *x, *y);
                        let mut masks = vec![0u64; column.len()];
                        atom.mark_rows(&rows, 3, &mut masks, &mut RowBuffers::default());
                        let mut tuple = Vec::new();
                        for (j, m) in masks.iter().enumerate() {
                            rows.write(j, &mut tuple);
                            let want = u64::from(atom.holds(&tuple)) << 3;
                            assert_eq!(*m, want, "{c:?} {x:?} {y:?} row {j}: {tuple:?}");
                        }
                    }
                }
            }
        }
    }
}
