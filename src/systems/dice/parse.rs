//! BCDice notation → [`Command`]: a lexer and a recursive-descent parser
//! following BCDice's grammars (`add_dice/parser.y`, `barabara_dice`,
//! `reroll_dice`, `upper_dice`, `d66_dice`).
//!
//! Every error quotes the expression, points at the position with a caret
//! and says what was expected there.

use super::ast::*;
use super::chained;
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
    /// `->` or `→`: a chain's first roll leads to its branches.
    Arrow,
    /// `;` between a chain's branches.
    Semi,
    /// `&` or `|` (read only inside a branch's condition: `&&`, `||`).
    Logic(char),
    /// A word in other scripts (`達成値`).
    Word(String),
    End,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    /// Character position in the expression.
    pos: usize,
}

/// Half-width ASCII for full-width input (`２Ｄ６＞＝７`), as BCDice does.
pub fn normalize_width(s: &str) -> std::borrow::Cow<'_, str> {
    let wide = |c: char| matches!(c, '\u{FF01}'..='\u{FF5E}' | '\u{3000}');
    // ASCII (nearly every command) is tested a word at a time.
    if s.is_ascii() || !s.contains(wide) {
        // Nothing to map (nearly every command): no copy.
        return std::borrow::Cow::Borrowed(s);
    }
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
    // A chain may be spaced for reading (`1D20+5 -> >=15: 1D8+4; 0`);
    // elsewhere a space ends a BCDice command.
    let chain = chained::is_chain(src);
    // At most a token a character, and the end.
    let mut out = Vec::with_capacity(chars.len() + 1);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        let tok = match c {
            c if c.is_whitespace() && chain => {
                i += 1;
                continue;
            }
            '-' if chars.get(i + 1) == Some(&'>') => {
                i += 2;
                out.push(Token {
                    tok: Tok::Arrow,
                    pos: start,
                });
                continue;
            }
            '→' => Tok::Arrow,
            ';' => Tok::Semi,
            '&' | '|' => Tok::Logic(c),
            c if c.is_alphabetic() && !c.is_ascii() => {
                let mut j = i;
                while j < chars.len() && chars[j].is_alphabetic() && !chars[j].is_ascii() {
                    j += 1;
                }
                out.push(Token {
                    tok: Tok::Word(chars[i..j].iter().collect()),
                    pos: start,
                });
                i = j;
                continue;
            }
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
                // The comparison read in place (its characters are ASCII),
                // its text made only for the error.
                let mut buf = [0u8; 3];
                for (b, c) in buf.iter_mut().zip(&chars[i..j]) {
                    *b = *c as u8;
                }
                let cmp = (j - i <= buf.len())
                    .then(|| std::str::from_utf8(&buf[..j - i]).ok())
                    .flatten()
                    .and_then(Cmp::from_text)
                    .ok_or_else(|| {
                        let text: String = chars[i..j].iter().collect();
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
    /// The game whose commands a chain's stages may be (`--game`).
    game: Option<&'static super::games::Game>,
    /// Inside a chain's follow-up: `result` and `natural` read the first roll.
    facts: bool,
}

/// Parse a BCDice command (case-insensitive; full-width characters are
/// read as half-width; a leading `S` (secret roll) is accepted and has no
/// effect on the odds).
pub fn parse(input: &str) -> Result<Command> {
    parse_in(input, None)
}

/// [`parse`] under a game: a chain's stages may be the game's commands
/// (`CC<=50 -> extreme: 1D8+8; success: 1D8; 0` under Cthulhu7th).
pub fn parse_in(input: &str, game: Option<&'static super::games::Game>) -> Result<Command> {
    let (src, toks) = tokens(
        input,
        "an empty expression: give one like 2D6+1>=7",
        "expression",
    )?;
    let mut p = Parser {
        src: &src,
        toks,
        i: 0,
        game,
        facts: false,
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
        game: None,
        facts: false,
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
fn tokens<'a>(
    input: &'a str,
    empty: &str,
    what: &str,
) -> Result<(std::borrow::Cow<'a, str>, Vec<Token>)> {
    let src = normalize_width(input.trim());
    if src.is_empty() {
        return Err(notation_error(&src, 0, empty));
    }
    // Its bytes bound its characters: counted only past the limit.
    if src.len() > MAX_LEN && src.chars().count() > MAX_LEN {
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
        let mut depth = 0i32;
        for (k, t) in toks.iter().enumerate() {
            match t.tok {
                Tok::LParen | Tok::LBrace => depth += 1,
                Tok::RParen | Tok::RBrace => depth -= 1,
                _ => {}
            }
            // A command in parentheses is a term (`(3B6>=4)D6`).
            if depth > 0 {
                continue;
            }
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
        let end = self.toks.len() - 1;
        if let Some(k) = self.depth0(self.i, end, |t| *t == Tok::Arrow) {
            let at = self.pos();
            let node = self.chain(self.i, k, end)?;
            self.i = end;
            if !node.has_dice() {
                return self.err_at(at, "no dice: a command rolls at least one die");
            }
            return Ok(Command {
                body: Body::Add(AddCommand {
                    expr: node,
                    target: None,
                }),
                secret: false,
            });
        }
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

    /// The first token in `[a, b)` that `is` holds for, outside any
    /// brackets.
    fn depth0(&self, a: usize, b: usize, is: impl Fn(&Tok) -> bool) -> Option<usize> {
        let mut depth = 0i32;
        for k in a..b {
            let tok = &self.toks[k].tok;
            if depth == 0 && is(tok) {
                return Some(k);
            }
            match tok {
                Tok::LParen | Tok::LBrace | Tok::LBracket => depth += 1,
                Tok::RParen | Tok::RBrace | Tok::RBracket => depth -= 1,
                _ => {}
            }
        }
        None
    }

    /// The index of the `)` closing the `(` at `a` (`None` when a `]` or
    /// `}` closes it: the caller's plain reading then says what is wrong).
    fn closing(&self, a: usize) -> Option<usize> {
        let mut depth = 0i32;
        for k in a..self.toks.len() {
            match self.toks[k].tok {
                Tok::LParen | Tok::LBrace | Tok::LBracket => depth += 1,
                Tok::RParen | Tok::RBrace | Tok::RBracket => {
                    depth -= 1;
                    if depth == 0 {
                        return (self.toks[k].tok == Tok::RParen).then_some(k);
                    }
                }
                Tok::End => return None,
                _ => {}
            }
        }
        None
    }

    /// The text of tokens `[a, b)` as written.
    fn text(&self, a: usize, b: usize) -> String {
        let (from, to) = (self.toks[a].pos, self.toks[b].pos);
        if self.src.is_ascii() {
            // Characters are bytes: sliced, not walked.
            return self.src[from..to].to_string();
        }
        self.src.chars().skip(from).take(to - from).collect()
    }

    /// A parser of tokens `[a, b)` alone (positions stay the expression's).
    fn sub(&self, a: usize, b: usize) -> Parser<'a> {
        let mut toks = self.toks[a..b].to_vec();
        toks.push(Token {
            tok: Tok::End,
            pos: self.toks[b].pos,
        });
        Parser {
            src: self.src,
            toks,
            i: 0,
            game: self.game,
            facts: self.facts,
        }
    }

    /// The game's own command written in `[a, b)`, if it is one.
    fn game_term(&self, a: usize, b: usize) -> Result<Option<chained::GameTerm>> {
        let Some(game) = self.game else {
            return Ok(None);
        };
        if a >= b {
            return Ok(None);
        }
        let text = self.text(a, b).trim().to_string();
        match game.own(&text) {
            Ok(Some(cmd)) => Ok(Some(chained::GameTerm::new(
                game,
                &text.to_ascii_uppercase(),
                cmd,
            )?)),
            Ok(None) => Ok(None),
            // Not the game's: read as a common command if it is one.
            Err(e) => {
                if self.sub(a, b).command().is_ok() {
                    Ok(None)
                } else {
                    Err(e)
                }
            }
        }
    }

    /// A whole command in `[a, b)`.
    fn command_in(&self, a: usize, b: usize) -> Result<Command> {
        let mut p = self.sub(a, b);
        p.command()
    }

    /// An expression in `[a, b)` (the follow-up of a branch, with facts).
    fn expr_in(&self, a: usize, b: usize, facts: bool) -> Result<Node> {
        if let Some(g) = self.game_term(a, b)? {
            return Ok(Node::Chain(Box::new(Chained::Game(g))));
        }
        let mut p = self.sub(a, b);
        p.facts = facts;
        if p.peek() == &Tok::End {
            return p.err("a branch needs a roll or a number after ':' (e.g. >=15: 1D8+4)");
        }
        let node = p.add(true)?;
        if p.peek() != &Tok::End {
            return p.err(match p.peek() {
                Tok::Cmp(_) => "a follow-up is a roll, not a check: to compare a chain's result, put the chain in parentheses and the comparison after it ((A -> B)>=10) or use --tier",
                _ => "unexpected text after the follow-up (branches are separated by ';')",
            });
        }
        Ok(node)
    }

    /// `FIRST -> COND: THEN; …; ELSE` in `[a, b)`, its arrow at `k`.
    fn chain(&self, a: usize, k: usize, b: usize) -> Result<Node> {
        let at = self.toks[a].pos;
        if a == k {
            return self.err_at(at, "a chain starts with the first roll: A -> COND: B; C");
        }
        let first = match self.game_term(a, k)? {
            Some(g) => chained::Stage::Game(g),
            None => chained::Stage::Command(self.command_in(a, k)?),
        };
        let (terms, units, flags) = first.names();
        let mut branches: Vec<chained::Branch> = Vec::new();
        let mut p = k + 1;
        if p >= b {
            return self.err_at(
                self.toks[k].pos,
                "the arrow leads nowhere: write the branches after it (A -> >=15: 1D8+4; 0)",
            );
        }
        while p < b {
            let q = self.depth0(p, b, |t| *t == Tok::Semi).unwrap_or(b);
            if branches.last().is_some_and(|br| br.cond.is_none()) {
                return self.err_at(
                    self.toks[p].pos,
                    "a branch without a condition takes the rest, so it must be the last",
                );
            }
            let (cond, then_at) = match self.depth0(p, q, |t| *t == Tok::Colon) {
                Some(c) => (
                    Some(self.branch_cond(p, c, &first, (&terms, &units, &flags))?),
                    c + 1,
                ),
                None => (None, p),
            };
            let then = self.expr_in(then_at, q, true)?;
            self.check_follow_up(&then, &first, self.toks[then_at].pos)?;
            branches.push(chained::Branch { cond, then });
            p = q + 1;
            if q < b && p >= b {
                return self.err_at(self.toks[q].pos, "a ';' with no branch after it");
            }
        }
        if branches.len() > super::MAX_TIERS {
            return self.err_at(
                at,
                format!(
                    "{} branches: a chain has at most {}",
                    branches.len(),
                    super::MAX_TIERS
                ),
            );
        }
        Ok(Node::Chain(Box::new(Chained::Branch(chained::Branching {
            first,
            branches,
        }))))
    }

    /// A branch's condition in `[a, c)`, read against the first roll.
    fn branch_cond(
        &self,
        a: usize,
        c: usize,
        first: &chained::Stage,
        (terms, units, flags): (&[String], &[String], &[String]),
    ) -> Result<super::cond::Expr> {
        let raw = self.text(a, c);
        let lead = raw.len() - raw.trim_start().len();
        let offset = self.toks[a].pos + raw[..lead].chars().count();
        let text = raw.trim();
        let mut e = match super::cond::parse_with(text, flags) {
            Ok(e) => e,
            Err(Error::Notation { pos, message, .. }) => {
                return self.err_at(offset + pos, format!("in a branch's condition: {message}"))
            }
            Err(e) => return Err(e),
        };
        if !e.is_bool() {
            return self.err_at(offset, format!("the condition '{text}' is a number, not true or false: compare it (>=15, natural==20)"));
        }
        e.resolve(terms, units, text)
            .map_err(|err| notation_error(self.src, offset, err.to_string()))?;
        for s in e.stats() {
            let flag = matches!(&s, pool::Stat::Named(n) if !first.term_names().iter().any(|t| **t == **n));
            let ok = match &s {
                pool::Stat::Total => true,
                _ if flag => true,
                pool::Stat::Pushed => false,
                _ => first.has_dice_facts(),
            };
            if !ok {
                return self.err_at(
                    offset,
                    format!(
                        "the first roll ({first}) gives its result{} to the branches, not {s}",
                        if first.has_dice_facts() {
                            " and its dice's statistics"
                        } else {
                            " and its flags"
                        }
                    ),
                );
            }
        }
        Ok(e)
    }

    /// A follow-up reads only what its first roll gives, and names no term.
    fn check_follow_up(&self, then: &Node, first: &chained::Stage, at: usize) -> Result<()> {
        let mut bad: Option<String> = None;
        let mut facts = Vec::new();
        chained::facts_of(then, &mut facts);
        for s in facts {
            if s == pool::Stat::Natural && !first.has_dice_facts() {
                bad = Some(format!("'natural' reads the dice of a 加算ダイス first roll; {first} gives only its result"));
            }
        }
        if let Some(n) = pool::term_names(then).first() {
            bad = Some(format!("the term name [{n}] inside a follow-up is never read (a chain's statistics are its dice's): drop it"));
        }
        match bad {
            Some(m) => self.err_at(at, m),
            None => Ok(()),
        }
    }

    /// `(…)` at token `a`: a chain, a whole command, a game command, or an
    /// expression in parentheses.
    fn paren(&mut self, dice: bool) -> Result<Node> {
        let a = self.i;
        let Some(b) = self.closing(a) else {
            self.i += 1;
            let inner = self.add(dice)?;
            self.expect(&Tok::RParen, "')'")?;
            return Ok(Node::Paren(Box::new(inner)));
        };
        if dice {
            if let Some(k) = self.depth0(a + 1, b, |t| *t == Tok::Arrow) {
                let node = self.chain(a + 1, k, b)?;
                self.i = b + 1;
                return Ok(node);
            }
            if let Some(g) = self.game_term(a + 1, b)? {
                self.i = b + 1;
                return Ok(Node::Chain(Box::new(Chained::Game(g))));
            }
            // A whole command: xB/xR/xU, or a compared sum (1 or 0).
            let inner = self.sub(a + 1, b);
            let compared = self
                .depth0(a + 1, b, |t| matches!(t, Tok::Cmp(_)))
                .is_some();
            if !matches!(inner.kind(), Kind::Add) || compared {
                let cmd = self.command_in(a + 1, b)?;
                self.i = b + 1;
                return Ok(Node::Chain(Box::new(Chained::Command(cmd))));
            }
        }
        self.i += 1;
        let inner = self.add(dice)?;
        self.expect(&Tok::RParen, "')'")?;
        Ok(Node::Paren(Box::new(inner)))
    }

    /// A word at a term's start: `result` (`total`, `達成値`), `natural`
    /// inside a follow-up; `max(…)`, `min(…)`.
    fn word(&mut self) -> Result<Option<Node>> {
        let at = self.pos();
        let mut w = String::new();
        let mut k = 0;
        match self.peek() {
            Tok::Word(x) => {
                w = x.clone();
                k = 1;
            }
            _ => {
                while let Some(Tok::Letter(c)) = self.peek_at(k) {
                    w.push(*c);
                    k += 1;
                }
            }
        }
        let fact = match w.as_str() {
            "RESULT" | "TOTAL" | "達成値" | "結果" => Some(pool::Stat::Total),
            "NATURAL" | "出目" => Some(pool::Stat::Natural),
            _ => None,
        };
        if let Some(s) = fact {
            if !self.facts {
                return self.err_at(at, format!("'{}' reads the first roll of a chain: use it after a branch's ':' (A -> >=15: (result/10+1)D10)", w.to_lowercase()));
            }
            self.i += k;
            return Ok(Some(Node::Chain(Box::new(Chained::Fact(s)))));
        }
        let high = match w.as_str() {
            "MAX" => true,
            "MIN" => false,
            _ => return Ok(None),
        };
        if self.peek_at(k) != Some(&Tok::LParen) {
            return self.err_at(
                at,
                format!(
                    "{w} as a function takes its values in parentheses: {}(0, 2D6-3)",
                    w.to_lowercase()
                ),
            );
        }
        self.i += k + 1;
        let mut items = Vec::new();
        loop {
            items.push(self.add(true)?);
            if self.eat(&Tok::Comma) {
                continue;
            }
            self.expect(&Tok::RParen, "',' or ')' (max(0, 2D6-3))")?;
            break;
        }
        if items.len() < 2 || items.len() > MAX_GROUP_ITEMS {
            return self.err_at(
                at,
                format!(
                    "{}(…) takes 2 to {MAX_GROUP_ITEMS} values, got {}",
                    w.to_lowercase(),
                    items.len()
                ),
            );
        }
        if !items.iter().any(Node::has_dice) {
            let v = items.iter().filter_map(Node::eval_const);
            let v = if high { v.max() } else { v.min() }.unwrap_or(0);
            // As the parser reads the number it echoes as (`-1`).
            return Ok(Some(if v < 0 {
                Node::Neg(Box::new(Node::Num(v.saturating_neg())))
            } else {
                Node::Num(v)
            }));
        }
        let filter = if high {
            Filter::KeepHighest
        } else {
            Filter::KeepLowest
        };
        Ok(Some(Node::Group(Box::new(GroupTerm {
            items,
            filter: Some((filter, 1)),
            name: None,
        }))))
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
        // A count that rolls: one pool of that many dice, or that many
        // rolls of an expression (`(3B6>=4)D6`, `(1D3)D(…)`).
        let rolled = times.as_ref().is_some_and(Node::has_dice);
        let count = match &times {
            Some(t) if !rolled => self.count(t, start)?,
            _ => 1,
        };
        let repeat = |body: Node, pool: bool| {
            Node::Chain(Box::new(Chained::Repeat(chained::Repeat {
                count: times.clone().unwrap_or(Node::Num(1)),
                body,
                pool,
            })))
        };
        // Sides: a term, `F` (Fate), `{faces}`, or implicit (6, BCDice's
        // DiceBot default) before a filter or at the end of a term.
        let sides_pos = self.pos();
        let mut faces = None;
        let sides = match self.peek() {
            Tok::Num(_) | Tok::LParen => {
                let t = self.term(true)?;
                if t.has_dice() {
                    // `3D(EXPR)`: the expression rolled 3 times, added.
                    let count_node = times.clone().unwrap_or(Node::Num(1));
                    if !rolled {
                        self.count(&count_node, start)?;
                    }
                    return Ok(repeat(t, false));
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
        let listed = faces.is_some();
        let faces = if let Some(f) = faces {
            f
        } else if sides == 66 {
            DieFaces::D66
        } else if (1..=MAX_SIDES).contains(&sides) {
            DieFaces::Standard(sides)
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
        let plain = !listed && scores.is_empty() && mods.is_empty() && name.is_none();
        if plain {
            let node = Node::dice(count, faces, filter);
            return Ok(if rolled { repeat(node, true) } else { node });
        }
        if faces == DieFaces::D66 {
            return self.err_at(
                d_pos,
                "D66 takes no face scores, modifiers or name (roll D6s instead)",
            );
        }
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
        let node = Node::Pool(Box::new(term));
        Ok(if rolled { repeat(node, true) } else { node })
    }

    /// `{item,item,…}KHn[name]`.
    fn group(&mut self) -> Result<Node> {
        let start = self.pos();
        self.i += 1;
        let mut items = Vec::new();
        loop {
            items.push(self.add(true)?);
            if self.eat(&Tok::Comma) {
                continue;
            }
            self.expect(&Tok::RBrace, "',' or '}' (a group is {1D8!,1D6!}KH1)")?;
            break;
        }
        if !items.iter().any(Node::has_dice) {
            return self.err_at(
                start,
                "a group rolls dice in at least one item ({1D8!,1D6!}KH1, {0,2D6-3}KH1)",
            );
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
        if let Tok::Name(n) = self.peek() {
            let at = self.pos();
            if pool::RESERVED.iter().any(|r| r.eq_ignore_ascii_case(n)) {
                return self.err_at(
                    at,
                    format!(
                        "'{n}' is a statistic's name; name the term otherwise (reserved: {})",
                        pool::RESERVED.join(", ")
                    ),
                );
            }
            let n = n.clone();
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
                    let first = self.is_letter("I");
                    let once = first || self.is_letter("O");
                    if once {
                        self.i += 1;
                    }
                    let cond = self.face_cond()?;
                    DieMod::Reroll { cond, once, first }
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
                "here the number of dice cannot roll dice (a pool whose size is rolled is written (1D6)D6 or (3B6>=4)D6)",
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
            Tok::LParen => self.paren(dice),
            Tok::Letter(_) | Tok::Word(_) if dice => match self.word()? {
                Some(n) => Ok(n),
                None => self.err("expected a number, a die (xDy) or '('"),
            },
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
