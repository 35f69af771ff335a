//! The expressions of run-case files (`-- LET:`, `-- ARG:`, `-- BLOCKS:`, `-- EXPECT:`,
//! docs/testing.md "Run cases"): a small array language, numpy-like, evaluated here in Rust
//! independently of loomc. Values are arrays or scalars of one element type; arithmetic rounds
//! (floats) or wraps (integers) in that type after every operation, so a reference written in
//! `Float32` gives the bits Rust's `f32` would.

use super::support::Rng;
use std::collections::HashMap;

/// An element type, by its LOOM name's short form (`f32`, `i32`, `u8`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Ty {
    pub fn parse(word: &str) -> Option<Ty> {
        Some(match word {
            "i8" => Ty::I8,
            "u8" => Ty::U8,
            "i16" => Ty::I16,
            "u16" => Ty::U16,
            "i32" => Ty::I32,
            "u32" => Ty::U32,
            "i64" => Ty::I64,
            "u64" => Ty::U64,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            _ => return None,
        })
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }

    pub fn size(self) -> usize {
        match self {
            Ty::I8 | Ty::U8 => 1,
            Ty::I16 | Ty::U16 => 2,
            Ty::I32 | Ty::U32 | Ty::F32 => 4,
            Ty::I64 | Ty::U64 | Ty::F64 => 8,
        }
    }

    /// `v` wrapped into this integer type (sign- or zero-extended back to 64 bits).
    fn wrap(self, v: i64) -> i64 {
        match self {
            Ty::I8 => v as i8 as i64,
            Ty::U8 => v as u8 as i64,
            Ty::I16 => v as i16 as i64,
            Ty::U16 => v as u16 as i64,
            Ty::I32 => v as i32 as i64,
            Ty::U32 => v as u32 as i64,
            _ => v,
        }
    }

    /// `v` rounded to this float type.
    fn round(self, v: f64) -> f64 {
        match self {
            Ty::F32 => v as f32 as f64,
            _ => v,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    I(Vec<i64>),
    F(Vec<f64>),
}

/// An array or a scalar; `ty` is `None` for literals and sizes, which take the type of what
/// they meet.
#[derive(Debug, Clone, PartialEq)]
pub struct Val {
    pub ty: Option<Ty>,
    pub data: Data,
    pub scalar: bool,
}

impl Val {
    /// An untyped integer scalar (a size).
    pub fn int(v: i64) -> Val {
        Val {
            ty: None,
            data: Data::I(vec![v]),
            scalar: true,
        }
    }

    pub fn float(v: f64) -> Val {
        Val {
            ty: None,
            data: Data::F(vec![v]),
            scalar: true,
        }
    }

    fn ints(ty: Option<Ty>, v: Vec<i64>) -> Val {
        Val {
            ty,
            data: Data::I(v),
            scalar: false,
        }
    }

    fn floats(ty: Option<Ty>, v: Vec<f64>) -> Val {
        Val {
            ty,
            data: Data::F(v),
            scalar: false,
        }
    }

    pub fn len(&self) -> usize {
        match &self.data {
            Data::I(v) => v.len(),
            Data::F(v) => v.len(),
        }
    }

    pub fn as_f64s(&self) -> Vec<f64> {
        match &self.data {
            Data::I(v) => v.iter().map(|x| *x as f64).collect(),
            Data::F(v) => v.clone(),
        }
    }

    /// The one integer of a scalar (a size, a count, a bound).
    pub fn as_usize(&self, what: &str) -> Result<usize, String> {
        match (&self.data, self.scalar) {
            (Data::I(v), true) if v[0] >= 0 => Ok(v[0] as usize),
            _ => Err(format!(
                "{what} must be a non-negative integer, not {self:?}"
            )),
        }
    }

    fn as_scalar_f64(&self, what: &str) -> Result<f64, String> {
        if !self.scalar {
            return Err(format!("{what} must be a scalar"));
        }
        Ok(self.as_f64s()[0])
    }

    /// This value as `ty`: Rust's `as` between numbers (floats to integers truncate and
    /// saturate; integers wrap; `f64` to `f32` rounds to nearest).
    pub fn cast(&self, ty: Ty) -> Val {
        let data = match (&self.data, ty.is_float()) {
            (Data::I(v), false) => Data::I(v.iter().map(|x| ty.wrap(*x)).collect()),
            // Rounded once, from the integer (through `f64` first, 2^60 + 2^36 + 1 would round
            // to 2^60 + 2^36, then to 2^60 as a tie); a `u64` is its bits read unsigned.
            (Data::I(v), true) => Data::F(
                v.iter()
                    .map(|x| match (ty, self.ty == Some(Ty::U64)) {
                        (Ty::F32, false) => *x as f32 as f64,
                        (Ty::F32, true) => *x as u64 as f32 as f64,
                        (_, false) => *x as f64,
                        (_, true) => *x as u64 as f64,
                    })
                    .collect(),
            ),
            (Data::F(v), true) => Data::F(v.iter().map(|x| ty.round(*x)).collect()),
            // Saturating at the type's own bounds (`1e10 as i8` is 127), NaN to 0.
            (Data::F(v), false) => Data::I(
                v.iter()
                    .map(|x| match ty {
                        Ty::I8 => *x as i8 as i64,
                        Ty::U8 => *x as u8 as i64,
                        Ty::I16 => *x as i16 as i64,
                        Ty::U16 => *x as u16 as i64,
                        Ty::I32 => *x as i32 as i64,
                        Ty::U32 => *x as u32 as i64,
                        Ty::U64 => *x as u64 as i64,
                        _ => *x as i64,
                    })
                    .collect(),
            ),
        };
        Val {
            ty: Some(ty),
            data,
            scalar: self.scalar,
        }
    }

    /// Broadcast a scalar to `len` elements.
    pub fn spread(&self, len: usize) -> Result<Val, String> {
        if !self.scalar {
            if self.len() != len {
                return Err(format!("{} elements where {len} are needed", self.len()));
            }
            return Ok(self.clone());
        }
        let data = match &self.data {
            Data::I(v) => Data::I(vec![v[0]; len]),
            Data::F(v) => Data::F(vec![v[0]; len]),
        };
        Ok(Val {
            ty: self.ty,
            data,
            scalar: false,
        })
    }

    /// The bytes of this value as a kernel argument of type `ty`.
    pub fn bytes(&self, ty: Ty) -> Vec<u8> {
        let v = self.cast(ty);
        let mut out = Vec::with_capacity(v.len() * ty.size());
        match &v.data {
            Data::F(xs) => {
                for x in xs {
                    match ty {
                        Ty::F32 => out.extend((*x as f32).to_le_bytes()),
                        _ => out.extend(x.to_le_bytes()),
                    }
                }
            }
            Data::I(xs) => {
                for x in xs {
                    out.extend(&x.to_le_bytes()[..ty.size()]);
                }
            }
        }
        out
    }

    /// An array of `ty` read back from kernel memory.
    pub fn from_bytes(ty: Ty, bytes: &[u8]) -> Val {
        let chunks = bytes.chunks_exact(ty.size());
        if ty.is_float() {
            let v = chunks
                .map(|c| match ty {
                    Ty::F32 => f32::from_le_bytes(c.try_into().unwrap()) as f64,
                    _ => f64::from_le_bytes(c.try_into().unwrap()),
                })
                .collect();
            Val::floats(Some(ty), v)
        } else {
            let v = chunks
                .map(|c| {
                    let mut wide = [0u8; 8];
                    wide[..c.len()].copy_from_slice(c);
                    ty.wrap(i64::from_le_bytes(wide))
                })
                .collect();
            Val::ints(Some(ty), v)
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Int(i64),
    Float(f64),
    Name(String),
    Call(String, Vec<Expr>),
    Unary(char, Box<Expr>),
    Binary(String, Box<Expr>, Box<Expr>),
}

/// Parses one expression.
pub fn parse(text: &str) -> Result<Expr, String> {
    let tokens = tokenize(text)?;
    let mut p = Parser { tokens, at: 0 };
    let e = p.expr(0)?;
    match p.tokens.get(p.at) {
        None => Ok(e),
        Some(t) => Err(format!("unexpected `{t}` in `{text}`")),
    }
}

fn tokenize(text: &str) -> Result<Vec<String>, String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || chars[i] == '.'
                    || chars[i] == '_'
                    || ((chars[i] == '-' || chars[i] == '+') && matches!(chars[i - 1], 'e' | 'E')))
            {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else if c.is_ascii_alphabetic() || c == '_' {
            // A record argument's field is one name: `p.x`, `r.start`.
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.')
            {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            if ["==", "!=", "<=", ">=", "&&", "||"].contains(&two.as_str()) {
                tokens.push(two);
                i += 2;
            } else if "+-*/%<>(),!".contains(c) {
                tokens.push(c.to_string());
                i += 1;
            } else {
                return Err(format!("unexpected character `{c}` in `{text}`"));
            }
        }
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<String>,
    at: usize,
}

fn precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "==" | "!=" | "<" | "<=" | ">" | ">=" => 3,
        "+" | "-" => 4,
        "*" | "/" | "%" => 5,
        _ => return None,
    })
}

impl Parser {
    fn next(&mut self) -> Option<String> {
        let t = self.tokens.get(self.at).cloned();
        self.at += 1;
        t
    }

    fn expect(&mut self, want: &str) -> Result<(), String> {
        match self.next() {
            Some(t) if t == want => Ok(()),
            other => Err(format!("expected `{want}`, found {other:?}")),
        }
    }

    fn expr(&mut self, min: u8) -> Result<Expr, String> {
        let mut left = self.unary()?;
        while let Some(op) = self.tokens.get(self.at).cloned() {
            let Some(p) = precedence(&op).filter(|p| *p > min) else {
                break;
            };
            self.at += 1;
            let right = self.expr(p)?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        let t = self.next().ok_or("an expression ends early")?;
        match t.as_str() {
            "-" | "!" => Ok(Expr::Unary(
                t.chars().next().unwrap(),
                Box::new(self.unary()?),
            )),
            "(" => {
                let e = self.expr(0)?;
                self.expect(")")?;
                Ok(e)
            }
            _ if t.starts_with(|c: char| c.is_ascii_digit() || c == '.') => {
                let clean = t.replace('_', "");
                if let Ok(v) = clean.parse::<i64>() {
                    Ok(Expr::Int(v))
                } else {
                    clean
                        .parse::<f64>()
                        .map(Expr::Float)
                        .map_err(|_| format!("bad number `{t}`"))
                }
            }
            _ if t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') => {
                if self.tokens.get(self.at).is_some_and(|n| n == "(") {
                    self.at += 1;
                    let mut args = Vec::new();
                    if self.tokens.get(self.at).is_some_and(|n| n == ")") {
                        self.at += 1;
                    } else {
                        loop {
                            args.push(self.expr(0)?);
                            match self.next().as_deref() {
                                Some(",") => continue,
                                Some(")") => break,
                                other => {
                                    return Err(format!("expected `,` or `)`, found {other:?}"))
                                }
                            }
                        }
                    }
                    Ok(Expr::Call(t, args))
                } else {
                    Ok(Expr::Name(t))
                }
            }
            _ => Err(format!("unexpected `{t}`")),
        }
    }
}

/// What expressions are evaluated against: named values, the random source of the inputs, and,
/// while an `ARG` is generated, its type and length (what `uniform`, `int`, `bits` and `iota`
/// without a length give).
pub struct Env<'a> {
    pub names: HashMap<String, Val>,
    pub rng: &'a mut Rng,
    /// The type of the `ARG` being drawn, and its length (`None`: a scalar).
    pub target: Option<(Ty, Option<usize>)>,
    /// The arrays as the launches so far left them (what `result(name)` reads).
    pub results: HashMap<String, Val>,
}

/// The type two operands combine in.
fn unify(a: &Val, b: &Val) -> Result<Option<Ty>, String> {
    match (a.ty, b.ty) {
        (Some(x), Some(y)) if x != y => Err(format!(
            "{x:?} and {y:?} do not mix: convert one (`f64(x)`, `i32(x)`, ...)"
        )),
        (Some(x), _) | (_, Some(x)) => Ok(Some(x)),
        (None, None) => Ok(None),
    }
}

/// Elementwise over `vals` (scalars broadcast), in `ty`: floats if any operand is one (or `ty`
/// is a float type), integers otherwise.
fn zip(
    vals: &[&Val],
    ty: Option<Ty>,
    fi: &dyn Fn(&[i64]) -> Result<i64, String>,
    ff: &dyn Fn(&[f64]) -> f64,
) -> Result<Val, String> {
    let len = vals.iter().filter(|v| !v.scalar).map(|v| v.len()).max();
    if let Some(len) = len {
        if let Some(v) = vals.iter().find(|v| !v.scalar && v.len() != len) {
            return Err(format!("arrays of {} and {len} elements", v.len()));
        }
    }
    let scalar = len.is_none();
    let len = len.unwrap_or(1);
    let floats = ty.is_some_and(Ty::is_float)
        || (ty.is_none() && vals.iter().any(|v| matches!(v.data, Data::F(_))));
    let at = |v: &Val, i: usize| if v.scalar { 0 } else { i };
    if floats {
        let cols: Vec<Vec<f64>> = vals.iter().map(|v| v.as_f64s()).collect();
        let out = (0..len)
            .map(|i| {
                let xs: Vec<f64> = cols.iter().zip(vals).map(|(c, v)| c[at(v, i)]).collect();
                ty.map_or(ff(&xs), |t| t.round(ff(&xs)))
            })
            .collect();
        Ok(Val {
            ty,
            data: Data::F(out),
            scalar,
        })
    } else {
        let cols: Vec<&Vec<i64>> = vals
            .iter()
            .map(|v| match &v.data {
                Data::I(c) => c,
                Data::F(_) => unreachable!(),
            })
            .collect();
        let mut out = Vec::with_capacity(len);
        for i in 0..len {
            let xs: Vec<i64> = cols.iter().zip(vals).map(|(c, v)| c[at(v, i)]).collect();
            let r = fi(&xs)?;
            out.push(ty.map_or(r, |t| t.wrap(r)));
        }
        Ok(Val {
            ty,
            data: Data::I(out),
            scalar,
        })
    }
}

fn truth(b: bool) -> i64 {
    b as i64
}

/// `a op b` for a comparison operator (`>=` for any other).
fn holds<T: PartialOrd>(op: &str, a: &T, b: &T) -> bool {
    match op {
        "==" => a == b,
        "!=" => a != b,
        "<" => a < b,
        "<=" => a <= b,
        ">" => a > b,
        _ => a >= b,
    }
}

fn compare(op: &str, a: &Val, b: &Val) -> Result<Val, String> {
    unify(a, b)?;
    let floats = matches!(a.data, Data::F(_)) || matches!(b.data, Data::F(_));
    let (oi, of) = (op.to_string(), op.to_string());
    let r = zip(
        &[a, b],
        if floats { Some(Ty::F64) } else { None },
        &move |x| Ok(truth(holds(&oi, &x[0], &x[1]))),
        &move |x| holds(&of, &x[0], &x[1]) as i64 as f64,
    )?;
    // A truth value: an untyped integer 0 or 1.
    let data = match r.data {
        Data::F(v) => Data::I(v.iter().map(|x| *x as i64).collect()),
        d => d,
    };
    Ok(Val {
        ty: None,
        data,
        scalar: r.scalar,
    })
}

fn arith(op: &str, a: &Val, b: &Val) -> Result<Val, String> {
    let ty = unify(a, b)?;
    let op = op.to_string();
    let (oi, of) = (op.clone(), op);
    zip(
        &[a, b],
        ty,
        &move |x| match oi.as_str() {
            "+" => Ok(x[0].wrapping_add(x[1])),
            "-" => Ok(x[0].wrapping_sub(x[1])),
            "*" => Ok(x[0].wrapping_mul(x[1])),
            "/" | "%" if x[1] == 0 => Err("integer division by zero".to_string()),
            "/" => Ok(x[0].wrapping_div(x[1])),
            _ => Ok(x[0].wrapping_rem(x[1])),
        },
        &move |x| match of.as_str() {
            "+" => x[0] + x[1],
            "-" => x[0] - x[1],
            "*" => x[0] * x[1],
            "/" => x[0] / x[1],
            _ => x[0] % x[1],
        },
    )
}

fn unary_float(name: &str, v: &Val) -> Result<Val, String> {
    let f: fn(f64) -> f64 = match name {
        "sqrt" => f64::sqrt,
        "exp" => f64::exp,
        "ln" => f64::ln,
        "sin" => f64::sin,
        "cos" => f64::cos,
        "floor" => f64::floor,
        "ceil" => f64::ceil,
        _ => return Err(format!("unknown function `{name}`")),
    };
    if matches!(v.data, Data::I(_)) {
        return Err(format!("`{name}` takes floats"));
    }
    // In `f32`, the function of the `f32` value, as Rust's `f32` methods compute it.
    let f32_version: Option<fn(f32) -> f32> = match name {
        "sqrt" => Some(f32::sqrt),
        "exp" => Some(f32::exp),
        "ln" => Some(f32::ln),
        "sin" => Some(f32::sin),
        "cos" => Some(f32::cos),
        "floor" => Some(f32::floor),
        "ceil" => Some(f32::ceil),
        _ => None,
    };
    match (v.ty, f32_version) {
        (Some(Ty::F32), Some(g)) => zip(&[v], v.ty, &|x| Ok(x[0]), &|x| g(x[0] as f32) as f64),
        _ => zip(&[v], v.ty, &|x| Ok(x[0]), &|x| f(x[0])),
    }
}

/// Consecutive chunks of `k` elements (the last may be shorter), each folded to one value.
fn rows(
    v: &Val,
    k: usize,
    fi: fn(&[i64]) -> i64,
    ff: fn(&[f64], Option<Ty>) -> f64,
) -> Result<Val, String> {
    if k == 0 {
        return Err("a row length of 0".to_string());
    }
    Ok(match &v.data {
        Data::I(xs) => Val::ints(
            v.ty,
            xs.chunks(k)
                .map(|c| v.ty.map_or(fi(c), |t| t.wrap(fi(c))))
                .collect(),
        ),
        Data::F(xs) => Val::floats(v.ty, xs.chunks(k).map(|c| ff(c, v.ty)).collect()),
    })
}

/// How a scan or a row combines two elements: `Sum` wraps (integers) or rounds (floats) in the
/// type; `First` keeps the first non-zero element (zero when there is none).
#[derive(Clone, Copy, PartialEq)]
enum Op {
    Sum,
    Max,
    Min,
    First,
}

impl Op {
    fn ints(self, a: i64, b: i64) -> i64 {
        match self {
            Op::Sum => a.wrapping_add(b),
            Op::Max => a.max(b),
            Op::Min => a.min(b),
            Op::First => {
                if a != 0 {
                    a
                } else {
                    b
                }
            }
        }
    }

    fn floats(self, a: f64, b: f64) -> f64 {
        match self {
            Op::Sum => a + b,
            Op::Max => a.max(b),
            Op::Min => a.min(b),
            Op::First => {
                if a != 0.0 {
                    a
                } else {
                    b
                }
            }
        }
    }
}

/// Inclusive scans within consecutive chunks of `k`, left to right (`acc op x`) or (`reverse`)
/// right to left (`x op acc`). A sum starts from zero; the others from the row's first element.
fn scan_rows(v: &Val, k: usize, reverse: bool, op: Op) -> Result<Val, String> {
    if k == 0 {
        return Err("a row length of 0".to_string());
    }
    let order = |len: usize| -> Vec<usize> {
        if reverse {
            (0..len).rev().collect()
        } else {
            (0..len).collect()
        }
    };
    let combine = |acc: Option<(i64, f64)>, xi: i64, xf: f64| -> (i64, f64) {
        let acc = match (acc, op) {
            (Some(a), _) => a,
            (None, Op::Sum) => (0, 0.0),
            (None, _) => return (xi, xf),
        };
        let (ai, af) = if reverse {
            (op.ints(xi, acc.0), op.floats(xf, acc.1))
        } else {
            (op.ints(acc.0, xi), op.floats(acc.1, xf))
        };
        (
            v.ty.map_or(ai, |t| t.wrap(ai)),
            v.ty.map_or(af, |t| t.round(af)),
        )
    };
    Ok(match &v.data {
        Data::I(xs) => {
            let mut out = xs.clone();
            for (c, o) in xs.chunks(k).zip(out.chunks_mut(k)) {
                let mut acc = None;
                for i in order(c.len()) {
                    let a = combine(acc, c[i], 0.0);
                    o[i] = a.0;
                    acc = Some(a);
                }
            }
            Val::ints(v.ty, out)
        }
        Data::F(xs) => {
            let mut out = xs.clone();
            for (c, o) in xs.chunks(k).zip(out.chunks_mut(k)) {
                let mut acc = None;
                for i in order(c.len()) {
                    let a = combine(acc, 0, c[i]);
                    o[i] = a.1;
                    acc = Some(a);
                }
            }
            Val::floats(v.ty, out)
        }
    })
}

fn sum_f(c: &[f64], ty: Option<Ty>) -> f64 {
    c.iter()
        .fold(0.0, |acc, x| ty.map_or(acc + x, |t| t.round(acc + x)))
}

fn max_f(c: &[f64], _: Option<Ty>) -> f64 {
    c.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

fn min_f(c: &[f64], _: Option<Ty>) -> f64 {
    c.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Elements of `v` picked by `f(i)` for `i` in `0..len` (`None`: zero).
fn pick(v: &Val, len: usize, f: impl Fn(usize) -> Option<usize>) -> Val {
    match &v.data {
        Data::I(xs) => Val::ints(v.ty, (0..len).map(|i| f(i).map_or(0, |j| xs[j])).collect()),
        Data::F(xs) => Val::floats(
            v.ty,
            (0..len).map(|i| f(i).map_or(0.0, |j| xs[j])).collect(),
        ),
    }
}

impl Env<'_> {
    fn target(&self, what: &str) -> Result<(Ty, Option<usize>), String> {
        self.target
            .ok_or(format!("`{what}` draws an input: only in an `ARG:`"))
    }

    pub fn eval(&mut self, e: &Expr) -> Result<Val, String> {
        match e {
            Expr::Int(v) => Ok(Val::int(*v)),
            Expr::Float(v) => Ok(Val::float(*v)),
            Expr::Name(n) => match n.as_str() {
                "nan" => Ok(Val::float(f64::NAN)),
                "inf" => Ok(Val::float(f64::INFINITY)),
                _ => self
                    .names
                    .get(n)
                    .cloned()
                    .ok_or(format!("unknown name `{n}`")),
            },
            Expr::Unary(op, inner) => {
                let v = self.eval(inner)?;
                match op {
                    '-' => arith("-", &Val::int(0), &v),
                    _ => compare("==", &v, &Val::int(0)),
                }
            }
            Expr::Binary(op, a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                match op.as_str() {
                    "&&" | "||" => {
                        let (x, y) = (
                            compare("!=", &a, &Val::int(0))?,
                            compare("!=", &b, &Val::int(0))?,
                        );
                        let and = op == "&&";
                        zip(
                            &[&x, &y],
                            None,
                            &move |v| {
                                Ok(truth(if and {
                                    v[0] & v[1] != 0
                                } else {
                                    v[0] | v[1] != 0
                                }))
                            },
                            &|_| 0.0,
                        )
                    }
                    "==" | "!=" | "<" | "<=" | ">" | ">=" => compare(op, &a, &b),
                    _ => arith(op, &a, &b),
                }
            }
            Expr::Call(name, args) => self.call(name, args),
        }
    }

    fn call(&mut self, name: &str, args: &[Expr]) -> Result<Val, String> {
        // Functions that draw inputs consume the random source in the order they are called.
        match name {
            "uniform" | "int" | "bits" | "iota" | "sparse" | "perm" => {
                return self.draw(name, args)
            }
            // An array as a launch left it (only in an `EXPECT` after a `LAUNCH`).
            "result" => {
                return match args {
                    [Expr::Name(n)] => self.results.get(n).cloned().ok_or(format!(
                        "`result({n})`: no array `{n}` after a launch (only in an `EXPECT`)"
                    )),
                    _ => Err("`result` takes the name of an array".to_string()),
                }
            }
            _ => {}
        }
        let vals: Vec<Val> = args
            .iter()
            .map(|a| self.eval(a))
            .collect::<Result<_, _>>()?;
        let arity = |n: usize| -> Result<(), String> {
            if vals.len() == n {
                Ok(())
            } else {
                Err(format!("`{name}` takes {n} arguments, not {}", vals.len()))
            }
        };
        if let Some(ty) = Ty::parse(name) {
            arity(1)?;
            return Ok(vals[0].cast(ty));
        }
        match name {
            "sqrt" | "exp" | "ln" | "sin" | "cos" | "floor" | "ceil" => {
                arity(1)?;
                unary_float(name, &vals[0])
            }
            "abs" => {
                arity(1)?;
                zip(
                    &[&vals[0]],
                    vals[0].ty,
                    &|x| Ok(x[0].wrapping_abs()),
                    &|x| x[0].abs(),
                )
            }
            "pow" => {
                arity(2)?;
                let ty = unify(&vals[0], &vals[1])?;
                zip(
                    &[&vals[0], &vals[1]],
                    ty.or(Some(Ty::F64)),
                    &|_| Err("`pow` takes floats".into()),
                    &|x| x[0].powf(x[1]),
                )
            }
            // `min`/`max` of two operands, elementwise; a NaN loses to a number (Rust's `max`).
            "min" | "max" => {
                arity(2)?;
                let ty = unify(&vals[0], &vals[1])?;
                let is_max = name == "max";
                zip(
                    &[&vals[0], &vals[1]],
                    ty,
                    &move |x| {
                        Ok(if is_max {
                            x[0].max(x[1])
                        } else {
                            x[0].min(x[1])
                        })
                    },
                    &move |x| {
                        if is_max {
                            x[0].max(x[1])
                        } else {
                            x[0].min(x[1])
                        }
                    },
                )
            }
            "clamp" => {
                arity(3)?;
                let ty = unify(&vals[0], &vals[1])?;
                zip(
                    &[&vals[0], &vals[1], &vals[2]],
                    ty,
                    &|x| Ok(x[0].clamp(x[1], x[2])),
                    &|x| x[0].clamp(x[1], x[2]),
                )
            }
            // `a * b + c` with one rounding (Rust's `mul_add`).
            "fma" => {
                arity(3)?;
                let ty = unify(&vals[0], &vals[1])?;
                let ty = unify(
                    &Val {
                        ty,
                        ..vals[0].clone()
                    },
                    &vals[2],
                )?;
                match ty {
                    Some(Ty::F32) => zip(
                        &[&vals[0], &vals[1], &vals[2]],
                        ty,
                        &|_| Err("`fma` takes floats".into()),
                        &|x| (x[0] as f32).mul_add(x[1] as f32, x[2] as f32) as f64,
                    ),
                    _ => zip(
                        &[&vals[0], &vals[1], &vals[2]],
                        ty,
                        &|_| Err("`fma` takes floats".into()),
                        &|x| x[0].mul_add(x[1], x[2]),
                    ),
                }
            }
            "where" => {
                arity(3)?;
                let ty = unify(&vals[1], &vals[2])?;
                let floats =
                    matches!(vals[1].data, Data::F(_)) || matches!(vals[2].data, Data::F(_));
                let c = if floats {
                    vals[0].cast(Ty::F64)
                } else {
                    vals[0].clone()
                };
                let (a, b) = if floats {
                    (
                        vals[1].cast(ty.unwrap_or(Ty::F64)),
                        vals[2].cast(ty.unwrap_or(Ty::F64)),
                    )
                } else {
                    (vals[1].clone(), vals[2].clone())
                };
                let mut r = zip(
                    &[&c, &a, &b],
                    ty.or(if floats { Some(Ty::F64) } else { None }),
                    &|x| Ok(if x[0] != 0 { x[1] } else { x[2] }),
                    &|x| if x[0] != 0.0 { x[1] } else { x[2] },
                )?;
                if ty.is_none() {
                    r.ty = None;
                }
                Ok(r)
            }
            "len" => {
                arity(1)?;
                Ok(Val::int(vals[0].len() as i64))
            }
            "cdiv" => {
                arity(2)?;
                let (a, b) = (
                    vals[0].as_usize("cdiv's first argument")?,
                    vals[1].as_usize("cdiv's second argument")?,
                );
                Ok(Val::int(a.div_ceil(b.max(1)) as i64))
            }
            // Row reductions: consecutive chunks of `k` (the last may be shorter).
            "rowsum" | "rowmax" | "rowmin" => {
                arity(2)?;
                let k = vals[1].as_usize("a row length")?;
                match name {
                    "rowsum" => rows(
                        &vals[0],
                        k,
                        |c| c.iter().fold(0i64, |a, x| a.wrapping_add(*x)),
                        sum_f,
                    ),
                    "rowmax" => rows(
                        &vals[0],
                        k,
                        |c| c.iter().copied().max().unwrap_or(i64::MIN),
                        max_f,
                    ),
                    _ => rows(
                        &vals[0],
                        k,
                        |c| c.iter().copied().min().unwrap_or(i64::MAX),
                        min_f,
                    ),
                }
            }
            "sum" | "maxof" | "minof" => {
                arity(1)?;
                let k = vals[0].len().max(1);
                let mut r = match name {
                    "sum" => rows(
                        &vals[0],
                        k,
                        |c| c.iter().fold(0i64, |a, x| a.wrapping_add(*x)),
                        sum_f,
                    )?,
                    "maxof" => rows(
                        &vals[0],
                        k,
                        |c| c.iter().copied().max().unwrap_or(i64::MIN),
                        max_f,
                    )?,
                    _ => rows(
                        &vals[0],
                        k,
                        |c| c.iter().copied().min().unwrap_or(i64::MAX),
                        min_f,
                    )?,
                };
                r.scalar = true;
                Ok(r)
            }
            // Inclusive scans within rows, from the left or (`r...`) from the right.
            "scan" | "rscan" | "scanmax" | "rscanmax" | "scanmin" | "rscanmin" | "scanfirst"
            | "rscanfirst" => {
                arity(2)?;
                let reverse = name.starts_with('r');
                let op = match name.trim_start_matches('r').trim_start_matches("scan") {
                    "max" => Op::Max,
                    "min" => Op::Min,
                    "first" => Op::First,
                    _ => Op::Sum,
                };
                scan_rows(&vals[0], vals[1].as_usize("a row length")?, reverse, op)
            }
            // The first non-zero element of each row (zero when there is none).
            "rowfirst" => {
                arity(2)?;
                rows(
                    &vals[0],
                    vals[1].as_usize("a row length")?,
                    |c| c.iter().copied().find(|x| *x != 0).unwrap_or(0),
                    |c, _| c.iter().copied().find(|x| *x != 0.0).unwrap_or(0.0),
                )
            }
            // Each row of `k` summed in the order loomc's `sum /.` adds a vector of run-time
            // length at block size `bs` (src/codegen/reduce.rs; the language leaves the order
            // unspecified, a float sum's bits depend on it): thread `t` adds the row's elements
            // `t, t + bs, ...` in turn, from -0.0; then a shuffle-down tree within each warp of
            // `min(bs, 32)` threads; then one over the warps' results.
            "blocksum" => {
                arity(3)?;
                let k = vals[1].as_usize("a row length")?.max(1);
                let bs = vals[2].as_usize("a block size")?.max(1);
                let Data::F(xs) = &vals[0].data else {
                    return Err("`blocksum` takes floats (an integer sum is `rowsum`)".to_string());
                };
                let round = |x: f64| vals[0].ty.map_or(x, |t| t.round(x));
                // Lane 0's value after `v[i] += v[i + d]` for d = 1, 2, 4, ... (all lanes at
                // once: ascending, `v[i + d]` still holds its value from before the step).
                let tree = |lanes: &[f64]| -> f64 {
                    let mut v = lanes.to_vec();
                    let mut d = 1;
                    while d < v.len() {
                        for i in 0..v.len() - d {
                            v[i] = round(v[i] + v[i + d]);
                        }
                        d *= 2;
                    }
                    v[0]
                };
                let sums = xs
                    .chunks(k)
                    .map(|row| {
                        let threads: Vec<f64> = (0..bs)
                            .map(|t| {
                                (t..row.len())
                                    .step_by(bs)
                                    .fold(-0.0, |acc, j| round(acc + row[j]))
                            })
                            .collect();
                        let warps: Vec<f64> = threads.chunks(bs.min(32)).map(tree).collect();
                        tree(&warps)
                    })
                    .collect();
                Ok(Val::floats(vals[0].ty, sums))
            }
            // The number of Collatz steps (`x / 2` if even, else `3 x + 1`) from each element
            // (at least 1) to 1.
            "collatz" => {
                arity(1)?;
                let Data::I(xs) = &vals[0].data else {
                    return Err("`collatz` takes integers".to_string());
                };
                let steps = |mut x: i64| -> Result<i64, String> {
                    if x < 1 {
                        return Err(format!("`collatz` of {x}: it never reaches 1"));
                    }
                    let mut steps = 0;
                    while x != 1 {
                        x = match x % 2 {
                            0 => x / 2,
                            _ => x
                                .checked_mul(3)
                                .and_then(|y| y.checked_add(1))
                                .ok_or("`collatz` overflows an i64")?,
                        };
                        steps += 1;
                    }
                    Ok(steps)
                };
                let out = xs.iter().map(|x| steps(*x)).collect::<Result<_, _>>()?;
                Ok(Val {
                    ty: None,
                    data: Data::I(out),
                    scalar: vals[0].scalar,
                })
            }
            // Each row sorted, ascending.
            "sortrows" => {
                arity(2)?;
                let k = vals[1].as_usize("a row length")?.max(1);
                let mut r = vals[0].clone();
                match &mut r.data {
                    Data::I(xs) => xs.chunks_mut(k).for_each(|c| c.sort_unstable()),
                    Data::F(xs) => xs.chunks_mut(k).for_each(|c| c.sort_by(f64::total_cmp)),
                }
                Ok(r)
            }
            // The index within each row of its first maximum (a later element wins only when
            // strictly larger).
            "rowargmax" => {
                arity(2)?;
                let k = vals[1].as_usize("a row length")?.max(1);
                let xs = vals[0].as_f64s();
                Ok(Val::ints(
                    None,
                    xs.chunks(k)
                        .map(|c| {
                            (0..c.len()).fold(0, |best, i| if c[i] > c[best] { i } else { best })
                                as i64
                        })
                        .collect(),
                ))
            }
            // `k` counts: element `i` is how many elements of `v` equal `i` (a histogram).
            "count" => {
                arity(2)?;
                let k = vals[1].as_usize("a number of bins")?;
                let xs = vals[0].as_f64s();
                Ok(Val::ints(
                    None,
                    (0..k)
                        .map(|i| xs.iter().filter(|x| **x == i as f64).count() as i64)
                        .collect(),
                ))
            }
            // The elements of `v` where `c` is not zero, in order (as many as there are).
            "filter" => {
                arity(2)?;
                let c = vals[1].spread(vals[0].len())?.as_f64s();
                let keep: Vec<usize> = (0..c.len()).filter(|i| c[*i] != 0.0).collect();
                Ok(pick(&vals[0], keep.len(), |i| Some(keep[i])))
            }
            // The index of the first non-zero element of `v`, or -1.
            "find" => {
                arity(1)?;
                let xs = vals[0].as_f64s();
                Ok(Val::int(
                    xs.iter().position(|x| *x != 0.0).map_or(-1, |i| i as i64),
                ))
            }
            // An array of the scalars given, in order.
            "list" => {
                let mut ty = None;
                for v in &vals {
                    if !v.scalar {
                        return Err("`list` takes scalars".to_string());
                    }
                    ty = unify(&Val { ty, ..v.clone() }, v)?;
                }
                if vals.iter().any(|v| matches!(v.data, Data::F(_))) || ty.is_some_and(Ty::is_float)
                {
                    Ok(Val::floats(
                        ty,
                        vals.iter().map(|v| v.as_f64s()[0]).collect(),
                    ))
                } else {
                    Ok(Val::ints(
                        ty,
                        vals.iter()
                            .map(|v| match &v.data {
                                Data::I(x) => x[0],
                                Data::F(_) => unreachable!(),
                            })
                            .collect(),
                    ))
                }
            }
            // Bitwise operations on integers, elementwise, and over a whole array.
            "bitand" | "bitor" | "bitxor" => {
                arity(2)?;
                let ty = unify(&vals[0], &vals[1])?;
                let which = name.to_string();
                zip(
                    &[&vals[0], &vals[1]],
                    ty,
                    &move |x| {
                        Ok(match which.as_str() {
                            "bitand" => x[0] & x[1],
                            "bitor" => x[0] | x[1],
                            _ => x[0] ^ x[1],
                        })
                    },
                    &|_| f64::NAN,
                )
                .and_then(|r| match r.data {
                    Data::F(_) => Err(format!("`{name}` takes integers")),
                    _ => Ok(r),
                })
            }
            "bitnot" => {
                arity(1)?;
                match vals[0].data {
                    Data::I(_) => zip(&[&vals[0]], vals[0].ty, &|x| Ok(!x[0]), &|_| f64::NAN),
                    Data::F(_) => Err("`bitnot` takes integers".to_string()),
                }
            }
            // Shifts in the type: left wraps (bits shifted out are lost), right is arithmetic
            // for a signed type and logical for an unsigned one.
            "shl" | "shr" => {
                arity(2)?;
                let (Data::I(_), Data::I(_)) = (&vals[0].data, &vals[1].data) else {
                    return Err(format!("`{name}` takes integers"));
                };
                let left = name == "shl";
                zip(
                    &[&vals[0], &vals[1]],
                    vals[0].ty,
                    &move |x| match u32::try_from(x[1]) {
                        Ok(k) if k < 64 => Ok(if left { x[0] << k } else { x[0] >> k }),
                        _ => Err(format!("a shift by {}", x[1])),
                    },
                    &|_| f64::NAN,
                )
            }
            // Integer division that gives 0 for a zero divisor, as LOOM's does.
            "div0" => {
                arity(2)?;
                let ty = unify(&vals[0], &vals[1])?;
                let (Data::I(_), Data::I(_)) = (&vals[0].data, &vals[1].data) else {
                    return Err("`div0` takes integers".to_string());
                };
                zip(
                    &[&vals[0], &vals[1]],
                    ty,
                    &|x| Ok(x[0].checked_div(x[1]).unwrap_or(0)),
                    &|_| f64::NAN,
                )
            }
            "andof" | "orof" | "xorof" => {
                arity(1)?;
                let Data::I(xs) = &vals[0].data else {
                    return Err(format!("`{name}` takes integers"));
                };
                let r = match name {
                    "andof" => xs.iter().fold(-1i64, |a, x| a & x),
                    "orof" => xs.iter().fold(0i64, |a, x| a | x),
                    _ => xs.iter().fold(0i64, |a, x| a ^ x),
                };
                Ok(Val {
                    ty: vals[0].ty,
                    data: Data::I(vec![vals[0].ty.map_or(r, |t| t.wrap(r))]),
                    scalar: true,
                })
            }
            // `base` (an array, or a scalar spread to `v`'s length) with `v[i]` stored at
            // `ix[i]`, in order, where that is inside it.
            "scatter" => {
                arity(3)?;
                let ty = unify(&vals[0], &vals[2])?;
                let Data::I(ix) = &vals[1].spread(vals[0].len())?.data else {
                    return Err("`scatter` takes integer positions".to_string());
                };
                let floats =
                    matches!(vals[0].data, Data::F(_)) || matches!(vals[2].data, Data::F(_));
                let base = vals[2].spread(vals[0].len())?;
                let (v, mut out) = match floats {
                    true => (
                        vals[0].cast(ty.unwrap_or(Ty::F64)),
                        base.cast(ty.unwrap_or(Ty::F64)),
                    ),
                    false => (vals[0].clone(), base),
                };
                let len = out.len();
                for (i, &to) in ix.iter().enumerate() {
                    if let Ok(to) = usize::try_from(to) {
                        if to < len {
                            match (&mut out.data, &v.data) {
                                (Data::I(o), Data::I(x)) => o[to] = x[i],
                                (Data::F(o), Data::F(x)) => o[to] = x[i],
                                _ => unreachable!(),
                            }
                        }
                    }
                }
                out.ty = ty;
                Ok(out)
            }
            // Each element `k` times: a row's value beside each of its elements.
            "expand" => {
                arity(2)?;
                let k = vals[1].as_usize("a repeat count")?;
                Ok(pick(&vals[0], vals[0].len() * k, |i| Some(i / k.max(1))))
            }
            // The whole of `v`, `k` times over.
            "repeat" => {
                arity(2)?;
                let (k, len) = (vals[1].as_usize("a repeat count")?, vals[0].len());
                Ok(pick(&vals[0], len * k, |i| Some(i % len)))
            }
            // `v[i - k]`, zero where that is outside `v`.
            "shift" => {
                arity(2)?;
                let k = vals[1].as_usize("a shift")?;
                Ok(pick(&vals[0], vals[0].len(), |i| i.checked_sub(k)))
            }
            // `v[i]` at each index of `ix`, zero outside `v`.
            "gather" => {
                arity(2)?;
                let ix = match &vals[1].data {
                    Data::I(ix) => ix.clone(),
                    Data::F(_) => return Err("`gather` takes integer indices".to_string()),
                };
                let len = vals[0].len();
                let mut r = pick(&vals[0], ix.len(), |i| {
                    usize::try_from(ix[i]).ok().filter(|j| *j < len)
                });
                r.scalar = vals[1].scalar;
                Ok(r)
            }
            // `v` cut or padded with zeros to `len` elements.
            "pad" => {
                arity(2)?;
                let len = vals[1].as_usize("a length")?;
                let have = vals[0].len();
                Ok(pick(&vals[0], len, |i| (i < have).then_some(i)))
            }
            // A `rows x cols` matrix (row-major) transposed.
            "transpose" => {
                arity(3)?;
                let (r, c) = (vals[1].as_usize("rows")?, vals[2].as_usize("columns")?);
                if vals[0].len() != r * c {
                    return Err(format!(
                        "transpose of {} elements as {r} x {c}",
                        vals[0].len()
                    ));
                }
                Ok(pick(&vals[0], r * c, |i| Some((i % r) * c + i / r)))
            }
            // `a` (`m x k`) times `b` (`k x n`), each element a sum in order in the type.
            "matmul" => {
                arity(5)?;
                let (m, k, n) = (
                    vals[2].as_usize("m")?,
                    vals[3].as_usize("k")?,
                    vals[4].as_usize("n")?,
                );
                let ty = unify(&vals[0], &vals[1])?;
                let (a, b) = (vals[0].as_f64s(), vals[1].as_f64s());
                if a.len() != m * k || b.len() != k * n {
                    return Err("matmul: the shapes do not fit the arrays".to_string());
                }
                let round = |x: f64| ty.map_or(x, |t| t.round(x));
                let out = (0..m * n)
                    .map(|ij| {
                        let (i, j) = (ij / n, ij % n);
                        (0..k).fold(0.0, |acc, l| {
                            round(acc + round(a[i * k + l] * b[l * n + j]))
                        })
                    })
                    .collect();
                Ok(Val::floats(ty, out))
            }
            _ => Err(format!("unknown function `{name}`")),
        }
    }

    /// `uniform(lo, hi)`: floats drawn in `[lo, hi)` (as `Float32`s: an `f64` input gets them
    /// widened); `int(lo, hi)`: integers in `[lo, hi)`; `bits()`: every bit pattern of the type;
    /// `sparse(p, lo, hi)`: 0 with probability `p` percent, else `int(lo, hi)`; `iota()`:
    /// `0, 1, ...`. Each gives the `ARG`'s length, or a scalar for a scalar `ARG`.
    fn draw(&mut self, name: &str, args: &[Expr]) -> Result<Val, String> {
        let vals: Vec<Val> = args
            .iter()
            .map(|a| self.eval(a))
            .collect::<Result<_, _>>()?;
        let (ty, len) = match (name, vals.len()) {
            ("iota", 1) => (Ty::I64, Some(vals[0].as_usize("iota's length")?)),
            _ => self.target(name)?,
        };
        let scalar = len.is_none();
        let len = len.unwrap_or(1);
        let expected = match name {
            "uniform" | "int" => 2,
            "sparse" => 3,
            "bits" | "perm" => 0,
            _ => vals.len().min(1),
        };
        if vals.len() != expected {
            return Err(format!("`{name}` takes {expected} arguments"));
        }
        let rng = &mut *self.rng;
        let v = match name {
            "uniform" => {
                let (lo, hi) = (
                    vals[0].as_scalar_f64("lo")? as f32,
                    vals[1].as_scalar_f64("hi")? as f32,
                );
                Val::floats(
                    Some(Ty::F32),
                    (0..len).map(|_| rng.f32_in(lo, hi) as f64).collect(),
                )
            }
            "int" => {
                let (lo, hi) = (
                    vals[0].as_scalar_f64("lo")? as i32,
                    vals[1].as_scalar_f64("hi")? as i32,
                );
                Val::ints(None, (0..len).map(|_| rng.i32_in(lo, hi) as i64).collect())
            }
            "sparse" => {
                let p = vals[0].as_scalar_f64("p")? as u64;
                let (lo, hi) = (
                    vals[1].as_scalar_f64("lo")? as i32,
                    vals[2].as_scalar_f64("hi")? as i32,
                );
                Val::ints(
                    None,
                    (0..len)
                        .map(|_| {
                            if rng.next_u64() % 100 < p {
                                0
                            } else {
                                rng.i32_in(lo, hi) as i64
                            }
                        })
                        .collect(),
                )
            }
            "bits" => Val::ints(
                None,
                (0..len).map(|_| ty.wrap(rng.next_u64() as i64)).collect(),
            ),
            // A random permutation of `0 .. len` (Fisher-Yates).
            "perm" => {
                let mut p: Vec<i64> = (0..len as i64).collect();
                for i in (1..len).rev() {
                    let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                    p.swap(i, j);
                }
                Val::ints(None, p)
            }
            _ => Val::ints(None, (0..len as i64).collect()),
        };
        let v = if name == "uniform" && ty == Ty::F64 {
            v.cast(Ty::F64)
        } else {
            v
        };
        Ok(Val { scalar, ..v })
    }
}
