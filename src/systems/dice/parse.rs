//! BCDice notation → [`Command`]: a lexer and a recursive-descent parser
//! following BCDice's grammars (`add_dice/parser.y`, `barabara_dice`,
//! `reroll_dice`, `upper_dice`, `d66_dice`).
//!
//! Every error quotes the expression, points at the position with a caret
//! and says what was expected there.

use super::ast::*;
use super::pool;
use crate::error::{Error, Result};

/// Most dice in one term (`xDy`, `xBy`, `xRy`, `xUy`).
pub const MAX_DICE: i64 = 1000;
/// Most sides of a die.
pub const MAX_SIDES: i64 = 10_000;
/// Most dice in a keep/drop term (`xDyKHn`…): the order-statistics law is
/// quadratic in the number of dice.
pub const MAX_FILTER_DICE: i64 = 200;
/// Largest magnitude of a constant or a target.
pub const MAX_CONST: i64 = 1_000_000_000;
/// Longest expression, in characters.
pub const MAX_LEN: usize = 500;
/// Most faces listed on one die (`D{…}`) or rules in a score map.
pub const MAX_CUSTOM_FACES: usize = 100;
/// Most items in a group (`{A,B,…}`).
pub const MAX_GROUP_ITEMS: usize = 20;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(i64),
    Letter(char),
    Plus,
    Minus,
    Star,
    Slash,
    LParen,
    RParen,
    LBracket,
    RBracket,
    At,
    Question,
    Cmp(Cmp),
    /// `{`, `}`, `,`, `:`, `.`
    LBrace,
    RBrace,
    Comma,
    Colon,
    Dot,
    /// `!` (explode) and `!!` (compound).
    Bang,
    BangBang,
    /// `[name]`: a term's name (raw text).
    Name(String),
    End,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    /// Character position in the expression.
    pos: usize,
}

/// Half-width ASCII for full-width input (`２Ｄ６＞＝７`), as BCDice does.
pub fn normalize_width(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            _ => c,
        })
        .collect()
}

/// The caret error for `src` at character `pos`.
pub fn notation_error(src: &str, pos: usize, message: impl Into<String>) -> Error {
    Error::Notation {
        expr: src.to_string(),
        pos,
        message: message.into(),
    }
}

fn lex(src: &str) -> Result<Vec<Token>> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        let tok = match c {
            '0'..='9' => {
                let mut v: i64 = 0;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    v = v
                        .checked_mul(10)
                        .and_then(|v| v.checked_add(chars[i] as i64 - '0' as i64))
                        .filter(|v| *v <= MAX_CONST)
                        .ok_or_else(|| {
                            notation_error(
                                src,
                                start,
                                format!("number too large (at most {MAX_CONST})"),
                            )
                        })?;
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Num(v),
                    pos: start,
                });
                continue;
            }
            'A'..='Z' => Tok::Letter(c),
            'a'..='z' => Tok::Letter(c.to_ascii_uppercase()),
            '+' => Tok::Plus,
            '-' => Tok::Minus,
            '*' => Tok::Star,
            '/' => Tok::Slash,
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '[' if chars
                .get(i + 1)
                .is_some_and(|c| c.is_alphabetic() || *c == '_') =>
            {
                let Some(len) = chars[i + 1..].iter().position(|c| *c == ']') else {
                    return Err(notation_error(src, start, "a name '[' has no closing ']'"));
                };
                let name: String = chars[i + 1..i + 1 + len].iter().collect();
                if !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
                    return Err(notation_error(
                        src,
                        start,
                        format!("'{name}' is no name: a term's name uses letters, digits, _ and - (e.g. 1D12[hope])"),
                    ));
                }
                i += len + 2;
                out.push(Token {
                    tok: Tok::Name(name),
                    pos: start,
                });
                continue;
            }
            '[' => Tok::LBracket,
            ']' => Tok::RBracket,
            '@' => Tok::At,
            '?' => Tok::Question,
            '!' if chars.get(i + 1) == Some(&'!') => {
                i += 2;
                out.push(Token {
                    tok: Tok::BangBang,
                    pos: start,
                });
                continue;
            }
            '!' if chars.get(i + 1) != Some(&'=') => Tok::Bang,
            '{' => Tok::LBrace,
            '}' => Tok::RBrace,
            ',' => Tok::Comma,
            ':' => Tok::Colon,
            '.' => Tok::Dot,
            '<' | '>' | '=' | '!' => {
                let mut j = i;
                while j < chars.len()
                    && (matches!(chars[j], '<' | '>' | '=')
                        || (chars[j] == '!' && j == i)
                        || (chars[j] == '!' && j == i + 1 && chars[i] == '='))
                {
                    j += 1;
                }
                let text: String = chars[i..j].iter().collect();
                let cmp = Cmp::from_text(&text).ok_or_else(|| {
                    notation_error(
                        src,
                        start,
                        format!(
                            "{} is no comparison (allowed >= > <= < = == != <>)",
                            crate::error::quote(&text)
                        ),
                    )
                })?;
                i = j;
                out.push(Token {
                    tok: Tok::Cmp(cmp),
                    pos: start,
                });
                continue;
            }
            c if c.is_whitespace() => {
                return Err(notation_error(
                    src,
                    start,
                    "a space: BCDice reads a command only up to its first space (the rest is a comment); write the expression without spaces",
                ))
            }
            _ => {
                return Err(notation_error(
                    src,
                    start,
                    format!("unexpected '{c}' (a dice expression uses digits, letters, + - * / ( ) [ ] {{ }} , : . ! @ and comparisons)"),
                ))
            }
        };
        i += 1;
        out.push(Token { tok, pos: start });
    }
    out.push(Token {
        tok: Tok::End,
        pos: chars.len(),
    });
    Ok(out)
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    i: usize,
}

/// Parse a BCDice command (case-insensitive; full-width characters are
/// read as half-width; a leading `S` (secret roll) is accepted and has no
/// effect on the odds).
pub fn parse(input: &str) -> Result<Command> {
    let (src, toks) = tokens(
        input,
        "an empty expression: give one like 2D6+1>=7",
        "expression",
    )?;
    let mut p = Parser {
        src: &src,
        toks,
        i: 0,
    };
    // A leading S is BCDice's secret roll: no other command starts with S.
    let secret = p.is_letter("S");
    if secret {
        p.i += 1;
    }
    let mut cmd = p.command()?;
    cmd.secret = secret;
    Ok(cmd)
}

/// A constant arithmetic expression (`12`, `12-2`, `(3+1)*2`, `7/2U`): the
/// target of a house-rule tier, with BCDice's arithmetic and rounding.
pub fn parse_constant(input: &str) -> Result<i64> {
    let (src, toks) = tokens(input, "expected a number", "number")?;
    let mut p = Parser {
        src: &src,
        toks,
        i: 0,
    };
    let value = p.arith()?;
    if *p.peek() != Tok::End {
        return p.err(
            "expected the end of the number (a comparison target is arithmetic without dice)",
        );
    }
    Ok(value)
}

/// The text read (trimmed, half-width) and its tokens; `empty` is the
/// message for no text, `what` names it in the length limit's message.
fn tokens(input: &str, empty: &str, what: &str) -> Result<(String, Vec<Token>)> {
    let src = normalize_width(input.trim());
    if src.is_empty() {
        return Err(notation_error(&src, 0, empty));
    }
    if src.chars().count() > MAX_LEN {
        return Err(notation_error(
            &src,
            MAX_LEN,
            format!("the {what} is too long (at most {MAX_LEN} characters)"),
        ));
    }
    let toks = lex(&src)?;
    Ok((src, toks))
}

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok {
        &self.toks[self.i].tok
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.i + k).map(|t| &t.tok)
    }
    fn pos(&self) -> usize {
        self.toks[self.i].pos
    }
    fn is_letter(&self, s: &str) -> bool {
        let c = s.chars().next().unwrap_or(' ');
        self.peek() == &Tok::Letter(c)
    }
    fn is_letter_at(&self, k: usize, c: char) -> bool {
        self.peek_at(k) == Some(&Tok::Letter(c))
    }
    fn err<T>(&self, message: impl Into<String>) -> Result<T> {
        Err(notation_error(self.src, self.pos(), message))
    }
    fn err_at<T>(&self, pos: usize, message: impl Into<String>) -> Result<T> {
        Err(notation_error(self.src, pos, message))
    }
    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == t {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &Tok, what: &str) -> Result<()> {
        if self.eat(t) {
            Ok(())
        } else {
            self.err(format!("expected {what}"))
        }
    }

    /// Which command the expression is: the dice letter between two terms
    /// decides (B, R, U), `D66` alone is the D66 command, else 加算ダイス.
    fn kind(&self) -> Kind {
        let toks = &self.toks[self.i..];
        if toks.len() >= 3 {
            if let (Tok::Letter('D'), Tok::Num(66)) = (&toks[0].tok, &toks[1].tok) {
                let rest = &toks[2..];
                let sort_letter = matches!(rest[0].tok, Tok::Letter('A' | 'S' | 'D' | 'N'));
                if rest[0].tok == Tok::End
                    || (sort_letter && rest.get(1).map(|t| &t.tok) == Some(&Tok::End))
                {
                    return Kind::D66;
                }
            }
        }
        for (k, t) in toks.iter().enumerate() {
            if let Tok::Letter(c @ ('B' | 'R' | 'U')) = t.tok {
                let before = k > 0
                    && matches!(toks[k - 1].tok, Tok::Num(_) | Tok::RParen)
                    && !(k >= 2 && toks[k - 2].tok == Tok::Letter('D'));
                let after = matches!(
                    toks.get(k + 1).map(|t| &t.tok),
                    Some(Tok::Num(_) | Tok::LParen)
                );
                // `/2R` and `/2U` are rounding suffixes: nothing follows them.
                if before && after {
                    return match c {
                        'B' => Kind::Barabara,
                        'R' => Kind::Reroll,
                        _ => Kind::Upper,
                    };
                }
            }
        }
        Kind::Add
    }

    fn command(&mut self) -> Result<Command> {
        let body = match self.kind() {
            Kind::D66 => {
                self.i += 2;
                let sort = match self.peek() {
                    Tok::Letter('A') | Tok::Letter('S') => D66Sort::Ascending,
                    Tok::Letter('D') => D66Sort::Descending,
                    _ => D66Sort::None,
                };
                if self.peek() != &Tok::End {
                    self.i += 1;
                }
                Body::D66(sort)
            }
            Kind::Add => self.add_command()?,
            Kind::Barabara => self.barabara()?,
            Kind::Reroll => self.reroll()?,
            Kind::Upper => self.upper()?,
        };
        if self.peek() != &Tok::End {
            return self.err("unexpected text after the command");
        }
        Ok(Command {
            body,
            secret: false,
        })
    }

    // ---- 加算ダイス ------------------------------------------------------

    fn add_command(&mut self) -> Result<Body> {
        let start = self.pos();
        let expr = self.add(true)?;
        if !expr.has_dice() {
            return self.err_at(
                start,
                "no dice: a command rolls at least one die (xDy, xBy, xRy, xUy or D66)",
            );
        }
        let target = self.target()?;
        Ok(Body::Add(AddCommand { expr, target }))
    }

    fn target(&mut self) -> Result<Option<(Cmp, i64)>> {
        let Tok::Cmp(cmp) = *self.peek() else {
            return Ok(None);
        };
        self.i += 1;
        if self.peek() == &Tok::Question {
            return self.err("'?' (an undecided target) has no odds: give the target as a number");
        }
        let at = self.pos();
        let node = self.add(true)?;
        if node.has_dice() {
            return self.err_at(at, "a target cannot roll dice (BCDice: 1D10>=2D6 is not a command); compare two rolls with --vs");
        }
        Ok(Some((cmp, self.constant(&node, at)?)))
    }

    fn constant(&self, node: &Node, at: usize) -> Result<i64> {
        match node.eval_const() {
            Some(v) if v.abs() <= MAX_CONST => Ok(v),
            _ => self.err_at(
                at,
                format!("the value is too large (at most {MAX_CONST} in magnitude)"),
            ),
        }
    }

    /// `add: add (+|-) mul | mul`, with BCDice's negate folding.
    fn add(&mut self, dice: bool) -> Result<Node> {
        let mut lhs = self.mul(dice)?;
        loop {
            let op = match self.peek() {
                Tok::Plus => Op::Add,
                Tok::Minus => Op::Sub,
                _ => return Ok(lhs),
            };
            self.i += 1;
            let rhs = self.mul(dice)?;
            lhs = match (op, rhs) {
                (Op::Add, Node::Neg(body)) => Node::Bin(Op::Sub, Box::new(lhs), body),
                (Op::Sub, Node::Neg(body)) => Node::Bin(Op::Add, Box::new(lhs), body),
                (op, rhs) => Node::Bin(op, Box::new(lhs), Box::new(rhs)),
            };
        }
    }

    fn mul(&mut self, dice: bool) -> Result<Node> {
        let mut lhs = self.unary(dice)?;
        loop {
            match self.peek() {
                Tok::Star => {
                    self.i += 1;
                    let rhs = self.unary(dice)?;
                    lhs = Node::Bin(Op::Mul, Box::new(lhs), Box::new(rhs));
                }
                Tok::Slash => {
                    self.i += 1;
                    let rhs = self.unary(dice)?;
                    let rounding = match self.peek() {
                        Tok::Letter('F') => Rounding::Floor,
                        Tok::Letter('U') | Tok::Letter('C') => Rounding::Ceil,
                        Tok::Letter('R') => Rounding::Round,
                        _ => Rounding::Default,
                    };
                    if rounding != Rounding::Default {
                        self.i += 1;
                    }
                    lhs = Node::Bin(Op::Div(rounding), Box::new(lhs), Box::new(rhs));
                }
                _ => return Ok(lhs),
            }
        }
    }

    fn unary(&mut self, dice: bool) -> Result<Node> {
        match self.peek() {
            Tok::Plus => {
                self.i += 1;
                self.unary(dice)
            }
            Tok::Minus => {
                self.i += 1;
                Ok(match self.unary(dice)? {
                    Node::Neg(body) => *body,
                    body => Node::Neg(Box::new(body)),
                })
            }
            _ if dice => self.dice(),
            _ => self.term(false),
        }
    }

    /// `dice: term D sides [scores] [mods] [filter] [name] | group | term`.
    fn dice(&mut self) -> Result<Node> {
        let start = self.pos();
        if self.peek() == &Tok::LBrace {
            return self.group();
        }
        let times = if self.is_letter("D") {
            None
        } else {
            Some(self.term(true)?)
        };
        if !self.is_letter("D") {
            return Ok(times.expect("a term was read"));
        }
        let d_pos = self.pos();
        self.i += 1;
        let count = match &times {
            Some(t) => self.count(t, start)?,
            None => 1,
        };
        // Sides: a term, `F` (Fate), `{faces}`, or implicit (6, BCDice's
        // DiceBot default) before a filter or at the end of a term.
        let sides_pos = self.pos();
        let mut faces = None;
        let sides = match self.peek() {
            Tok::Num(_) | Tok::LParen => {
                let t = self.term(true)?;
                if t.has_dice() {
                    return self.err_at(
                        sides_pos,
                        "the sides cannot roll dice (BCDice: (1D6)D6 is not a command)",
                    );
                }
                let s = self.constant(&t, sides_pos)?;
                if times.is_none() && matches!(t, Node::Num(66)) {
                    return self.err_at(d_pos, "D66 is a command of its own (D66, D66A, D66D, D66N); roll 1D66 inside an expression");
                }
                s
            }
            Tok::Letter('F') if !self.is_letter_at(1, 'F') => {
                self.i += 1;
                faces = Some(DieFaces::Fate);
                3
            }
            Tok::LBrace => {
                let list = self.custom_faces()?;
                let n = list.len() as i64;
                faces = Some(DieFaces::Custom(list));
                n
            }
            _ if times.is_none() => {
                return self.err("expected the number of sides after D (e.g. D6, DF, D{0,1,2})");
            }
            _ => 6,
        };
        let sides = if faces.is_some() {
            Sides::N(sides)
        } else if sides == 66 {
            Sides::D66
        } else if (1..=MAX_SIDES).contains(&sides) {
            Sides::N(sides)
        } else {
            return self.err_at(
                sides_pos,
                format!("{sides} sides: a die has 1..={MAX_SIDES} sides"),
            );
        };
        let scores_pos = self.pos();
        let scores = if self.peek() == &Tok::LBrace {
            self.score_map()?
        } else {
            Vec::new()
        };
        let mods_pos = self.pos();
        let mods = self.die_mods()?;
        let filter = self.filter()?;
        if let Some((_, n)) = filter {
            if count > MAX_FILTER_DICE {
                return self.err_at(start, format!("{count} dice with keep/drop: at most {MAX_FILTER_DICE} dice in a KH/KL/DH/DL term"));
            }
            if n < 0 {
                return self.err_at(
                    start,
                    format!("keep/drop {n} dice: the number must be 0 or more"),
                );
            }
        }
        let name = self.opt_name()?;
        let plain = faces.is_none() && scores.is_empty() && mods.is_empty() && name.is_none();
        if plain {
            return Ok(Node::Dice(DiceTerm {
                count,
                sides,
                filter,
            }));
        }
        let faces = match (faces, sides) {
            (Some(f), _) => f,
            (None, Sides::N(s)) => DieFaces::Standard(s),
            (None, Sides::D66) => {
                return self.err_at(
                    d_pos,
                    "D66 takes no face scores, modifiers or name (roll D6s instead)",
                )
            }
        };
        if !scores.is_empty() && matches!(faces, DieFaces::Custom(_)) {
            return self.err_at(
                scores_pos,
                "a die with listed faces needs no score map: write the scores as its faces (D{0,s,2s})",
            );
        }
        let term = PoolTerm {
            count,
            faces,
            scores,
            mods,
            filter,
            name,
        };
        if let Some((_, false)) = term.explosion() {
            if term.filter.is_some() {
                return self.err_at(mods_pos, "keep/drop on dice that explode with ! (each explosion a new die): use !! (compounding: each die keeps its total) or a group {1D8!,1D6!}KH1");
            }
        }
        pool::check_term(&term).map_err(|m| notation_error(self.src, start, m))?;
        Ok(Node::Pool(Box::new(term)))
    }

    /// `{item,item,…}KHn[name]`.
    fn group(&mut self) -> Result<Node> {
        let start = self.pos();
        self.i += 1;
        let mut items = Vec::new();
        loop {
            let at = self.pos();
            let item = self.add(true)?;
            if !item.has_dice() {
                return self.err_at(at, "a group's item rolls dice ({1D8!,1D6!}KH1)");
            }
            items.push(item);
            if self.eat(&Tok::Comma) {
                continue;
            }
            self.expect(&Tok::RBrace, "',' or '}' (a group is {1D8!,1D6!}KH1)")?;
            break;
        }
        if items.len() > MAX_GROUP_ITEMS {
            return self.err_at(
                start,
                format!(
                    "{} items: a group holds at most {MAX_GROUP_ITEMS}",
                    items.len()
                ),
            );
        }
        let filter = self.filter()?;
        if let Some((_, n)) = filter {
            if n < 0 {
                return self.err_at(
                    start,
                    format!("keep/drop {n} items: the number must be 0 or more"),
                );
            }
        }
        let name = self.opt_name()?;
        Ok(Node::Group(Box::new(GroupTerm {
            items,
            filter,
            name,
        })))
    }

    fn opt_name(&mut self) -> Result<Option<String>> {
        if let Tok::Name(n) = self.peek().clone() {
            let at = self.pos();
            if pool::RESERVED.contains(&n.to_ascii_lowercase().as_str()) {
                return self.err_at(
                    at,
                    format!(
                        "'{n}' is a statistic's name; name the term otherwise (reserved: {})",
                        pool::RESERVED.join(", ")
                    ),
                );
            }
            self.i += 1;
            return Ok(Some(n));
        }
        Ok(None)
    }

    /// `{a,b,c}`: faces, each a score (`0`, `-1`, `s`, `2s+a`).
    fn custom_faces(&mut self) -> Result<Vec<Score>> {
        let start = self.pos();
        self.i += 1;
        let mut out = Vec::new();
        loop {
            out.push(self.score()?);
            if self.eat(&Tok::Comma) {
                continue;
            }
            self.expect(
                &Tok::RBrace,
                "',' or '}' (faces are listed as D{0,0,1,1,2,3})",
            )?;
            break;
        }
        if out.len() > MAX_CUSTOM_FACES {
            return self.err_at(
                start,
                format!(
                    "{} faces: a die lists at most {MAX_CUSTOM_FACES}",
                    out.len()
                ),
            );
        }
        Ok(out)
    }

    /// `{COND:SCORE,…}`: what each face scores (first rule that holds; 0
    /// otherwise).
    fn score_map(&mut self) -> Result<Vec<ScoreRule>> {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let cond = self.face_cond()?;
            self.expect(
                &Tok::Colon,
                "':' then the score (as in 5D10{1:2,<=6:1,10:-1})",
            )?;
            let score = self.score()?;
            out.push(ScoreRule { cond, score });
            if self.eat(&Tok::Comma) {
                continue;
            }
            self.expect(
                &Tok::RBrace,
                "',' or '}' (a score map is {1:2,<=6:1,10:-1})",
            )?;
            break;
        }
        if out.len() > MAX_CUSTOM_FACES {
            return self.err(format!(
                "a score map holds at most {MAX_CUSTOM_FACES} rules"
            ));
        }
        Ok(out)
    }

    /// A signed whole number.
    fn signed(&mut self, what: &str) -> Result<i64> {
        let neg = self.eat(&Tok::Minus);
        if !neg {
            self.eat(&Tok::Plus);
        }
        match *self.peek() {
            Tok::Num(v) => {
                self.i += 1;
                Ok(if neg { -v } else { v })
            }
            _ => self.err(format!("expected {what}")),
        }
    }

    /// A face condition: `6`, `==6`, `>=5`, `!=1`, `2..5`.
    fn face_cond(&mut self) -> Result<FaceCond> {
        if let Tok::Cmp(c) = *self.peek() {
            self.i += 1;
            let v = self.signed("a face after the comparison (>=5)")?;
            return Ok(FaceCond::Cmp(c, v));
        }
        let lo = self.signed("a face condition (6, >=5, <3, !=1, 2..5)")?;
        if self.peek() == &Tok::Dot && self.peek_at(1) == Some(&Tok::Dot) {
            self.i += 2;
            let hi = self.signed("the range's last face (2..5)")?;
            if hi < lo {
                return self.err(format!(
                    "the range {lo}..{hi} is empty: write the smaller face first"
                ));
            }
            return Ok(FaceCond::Range(lo, hi));
        }
        Ok(FaceCond::Cmp(Cmp::Eq, lo))
    }

    /// A score: a number and named scores (`2`, `-1`, `s`, `2s+a`, `-s`).
    fn score(&mut self) -> Result<Score> {
        let mut score = Score::default();
        let mut first = true;
        loop {
            let neg = match self.peek() {
                Tok::Minus => {
                    self.i += 1;
                    true
                }
                Tok::Plus if !first => {
                    self.i += 1;
                    false
                }
                _ if first => false,
                _ => break,
            };
            let k = match *self.peek() {
                Tok::Num(v) => {
                    self.i += 1;
                    Some(v)
                }
                _ => None,
            };
            let mut name = String::new();
            while let Tok::Letter(c) = *self.peek() {
                name.push(c.to_ascii_lowercase());
                self.i += 1;
            }
            let k = match (k, name.is_empty()) {
                (None, true) => {
                    return self.err("expected a score: a number, a name or both (2, s, 2s+a, -1)")
                }
                (k, _) => k.unwrap_or(1),
            };
            let k = if neg { -k } else { k };
            if name.is_empty() {
                score.value += k;
            } else {
                if pool::RESERVED.contains(&name.as_str()) {
                    return self.err(format!(
                        "'{name}' is a statistic's name; name the score otherwise (reserved: {})",
                        pool::RESERVED.join(", ")
                    ));
                }
                match score.units.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, v)) => *v += k,
                    None => score.units.push((name, k)),
                }
            }
            first = false;
        }
        score.units.retain(|(_, v)| *v != 0);
        score.units.sort();
        Ok(score)
    }

    /// Per-die modifiers: `r`/`ro` + face condition, `!`/`!!` [+ face
    /// condition]; at most one of each kind.
    fn die_mods(&mut self) -> Result<Vec<DieMod>> {
        let mut mods: Vec<DieMod> = Vec::new();
        loop {
            let at = self.pos();
            let m = match self.peek() {
                Tok::Letter('R') => {
                    self.i += 1;
                    let once = self.is_letter("O");
                    if once {
                        self.i += 1;
                    }
                    let cond = self.face_cond()?;
                    DieMod::Reroll { cond, once }
                }
                Tok::Bang | Tok::BangBang => {
                    let compound = self.peek() == &Tok::BangBang;
                    self.i += 1;
                    // A face or a range (`!6`, `!9..10`); a comparison
                    // after `!` is the command's target, as in BCDice.
                    let cond = match self.peek() {
                        Tok::Num(_) => Some(self.face_cond()?),
                        _ => None,
                    };
                    DieMod::Explode { cond, compound }
                }
                _ => return Ok(mods),
            };
            let same = mods
                .iter()
                .any(|x| std::mem::discriminant(x) == std::mem::discriminant(&m));
            if same {
                return self.err_at(at, "one reroll (r, ro) and one explosion (!, !!) per term");
            }
            mods.push(m);
        }
    }

    fn count(&self, t: &Node, at: usize) -> Result<i64> {
        if t.has_dice() {
            return self.err_at(
                at,
                "the number of dice cannot roll dice (BCDice: (1D6)D6 is not a command)",
            );
        }
        let n = self.constant(t, at)?;
        if !(0..=MAX_DICE).contains(&n) {
            return self.err_at(at, format!("{n} dice: a term rolls 0..={MAX_DICE} dice"));
        }
        Ok(n)
    }

    fn filter(&mut self) -> Result<Option<(Filter, i64)>> {
        let two = |a, b| (Tok::Letter(a), Tok::Letter(b));
        let next = (
            self.peek().clone(),
            self.peek_at(1).cloned().unwrap_or(Tok::End),
        );
        let filter = if next == two('K', 'H') {
            Filter::KeepHighest
        } else if next == two('K', 'L') {
            Filter::KeepLowest
        } else if next == two('D', 'H') {
            Filter::DropHighest
        } else if next == two('D', 'L') {
            Filter::DropLowest
        } else if next == two('M', 'A') && self.is_letter_at(2, 'X') {
            self.i += 3;
            return Ok(Some((Filter::KeepHighest, 1)));
        } else if next == two('M', 'I') && self.is_letter_at(2, 'N') {
            self.i += 3;
            return Ok(Some((Filter::KeepLowest, 1)));
        } else {
            return Ok(None);
        };
        self.i += 2;
        let at = self.pos();
        let n = match self.peek() {
            Tok::Num(_) | Tok::LParen => {
                let t = self.term(true)?;
                if t.has_dice() {
                    return self.err_at(at, "the number of dice to keep or drop cannot roll dice");
                }
                self.constant(&t, at)?
            }
            _ => 1,
        };
        Ok(Some((filter, n)))
    }

    /// `term: ( add ) | NUMBER`.
    fn term(&mut self, dice: bool) -> Result<Node> {
        match *self.peek() {
            Tok::LBrace if dice => self.group(),
            Tok::Num(v) => {
                self.i += 1;
                Ok(Node::Num(v))
            }
            Tok::LParen => {
                self.i += 1;
                let inner = self.add(dice)?;
                self.expect(&Tok::RParen, "')'")?;
                Ok(Node::Paren(Box::new(inner)))
            }
            Tok::End => self.err("the expression ends here: expected a number, a die (xDy) or '('"),
            _ => self.err("expected a number, a die (xDy) or '('"),
        }
    }

    /// A constant arithmetic expression (no dice).
    fn arith(&mut self) -> Result<i64> {
        let at = self.pos();
        let node = self.add(false)?;
        self.constant(&node, at)
    }

    fn notations(&mut self, letter: char) -> Result<Vec<Group>> {
        let mut groups = Vec::new();
        loop {
            let at = self.pos();
            let t = self.term(false)?;
            let count = self.count(&t, at)?;
            if !self.is_letter(&letter.to_string()) {
                return self.err(format!("expected '{letter}' (as in 2{letter}6)"));
            }
            self.i += 1;
            let sides_at = self.pos();
            let s = self.term(false)?;
            let sides = self.constant(&s, sides_at)?;
            if !(1..=MAX_SIDES).contains(&sides) {
                return self.err_at(
                    sides_at,
                    format!("{sides} sides: a die has 1..={MAX_SIDES} sides"),
                );
            }
            groups.push(Group { count, sides });
            // Another group follows `+` when a term and the letter come next.
            if self.peek() == &Tok::Plus && self.group_follows(letter) {
                self.i += 1;
                continue;
            }
            return Ok(groups);
        }
    }

    fn group_follows(&self, letter: char) -> bool {
        let mut k = self.i + 1;
        let mut depth = 0;
        while k < self.toks.len() {
            match self.toks[k].tok {
                Tok::LParen => depth += 1,
                Tok::RParen => {
                    if depth == 0 {
                        return false;
                    }
                    depth -= 1;
                    if depth == 0 {
                        return self.toks.get(k + 1).map(|t| &t.tok) == Some(&Tok::Letter(letter));
                    }
                }
                Tok::Num(_) if depth == 0 => {
                    return self.toks.get(k + 1).map(|t| &t.tok) == Some(&Tok::Letter(letter));
                }
                Tok::End => return false,
                _ if depth == 0 => return false,
                _ => {}
            }
            k += 1;
        }
        false
    }

    fn barabara(&mut self) -> Result<Body> {
        let groups = self.notations('B')?;
        let target = match *self.peek() {
            Tok::Cmp(cmp) => {
                self.i += 1;
                Some((cmp, self.arith()?))
            }
            _ => None,
        };
        Ok(Body::Barabara(CountCommand { groups, target }))
    }

    fn opt_cmp(&mut self) -> Option<Cmp> {
        if let Tok::Cmp(c) = *self.peek() {
            self.i += 1;
            Some(c)
        } else {
            None
        }
    }

    fn reroll(&mut self) -> Result<Body> {
        let start = self.pos();
        let groups = self.notations('R')?;
        let mut bracket = None;
        if self.eat(&Tok::LBracket) {
            let op = self.opt_cmp();
            let v = self.arith()?;
            self.expect(&Tok::RBracket, "']'")?;
            bracket = Some((op, v));
        }
        let target = match self.opt_cmp() {
            Some(cmp) => Some((cmp, self.arith()?)),
            None => None,
        };
        let mut at = None;
        if bracket.is_none() && self.eat(&Tok::At) {
            let op = self.opt_cmp();
            at = Some((op, self.arith()?));
        }
        let given = bracket.or(at);
        let reroll_cmp = given
            .and_then(|(op, _)| op)
            .or(target.map(|(c, _)| c))
            .unwrap_or(Cmp::Ge);
        let threshold = given.map(|(_, v)| v).or(target.map(|(_, v)| v));
        let invalid = || {
            notation_error(
                self.src,
                start,
                "条件が間違っています: give the reroll condition as 2R6>=5 or 2R6[5] (振り足し目標値), one that some face fails",
            )
        };
        let threshold = threshold.ok_or_else(invalid)?;
        let reroll = Condition {
            cmp: reroll_cmp,
            value: threshold,
        };
        for g in &groups {
            let valid = match reroll_cmp {
                Cmp::Le => threshold < g.sides,
                Cmp::Lt => threshold <= g.sides,
                Cmp::Ge => threshold > 1,
                Cmp::Gt => threshold >= 1,
                Cmp::Ne => (1..=g.sides).contains(&threshold),
                Cmp::Eq => true,
            };
            let always = (1..=g.sides).all(|f| reroll.holds(f));
            if !valid || always {
                return Err(invalid());
            }
        }
        Ok(Body::Reroll(RerollCommand {
            groups,
            reroll,
            target: target.map(|(cmp, value)| Condition { cmp, value }),
        }))
    }

    fn upper(&mut self) -> Result<Body> {
        let start = self.pos();
        let groups = self.notations('U')?;
        let mut threshold = None;
        if self.eat(&Tok::LBracket) {
            threshold = Some(self.arith()?);
            self.expect(&Tok::RBracket, "']'")?;
        }
        let modifier = match self.peek() {
            Tok::Plus => {
                self.i += 1;
                self.arith()?
            }
            // BCDice negates the whole modifier expression: 3U6[6]-2+1 is −3.
            Tok::Minus => {
                self.i += 1;
                -self.arith()?
            }
            _ => 0,
        };
        let target = match self.opt_cmp() {
            Some(cmp) => Some(Condition {
                cmp,
                value: self.arith()?,
            }),
            None => None,
        };
        if threshold.is_none() && self.eat(&Tok::At) {
            threshold = Some(self.arith()?);
        }
        let threshold = threshold.ok_or_else(|| {
            notation_error(
                self.src,
                start,
                "無限ロールの条件がまちがっています: give the reroll threshold as 2U6[6] or 2U6>=10@6",
            )
        })?;
        if threshold <= 1 {
            return self.err_at(
                start,
                format!("無限ロールの条件がまちがっています: threshold {threshold} rerolls every face (allowed 2 or more)"),
            );
        }
        Ok(Body::Upper(UpperCommand {
            groups,
            threshold,
            modifier,
            target,
        }))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Add,
    Barabara,
    Reroll,
    Upper,
    D66,
}
