//! A generator of random well-typed LOOM programs whose meaning does not depend on the block size.
//!
//! Every program has the same interface, so that one harness can launch any of them:
//!
//! ```text
//! kernel fuzz(s: T, x: T[BLOCKS, L], y: T[BLOCKS, L], out: T[BLOCKS, L], acc: T[BLOCKS], w: Range)
//! ```
//!
//! and one program in three takes a record `p: P` after `w` too (its type in the header:
//! [`RecordType`]).
//!
//! Block `B` works on row `B` only (a row has the compile-time length `L`), and nothing in a
//! program names `BLOCKSIZE` or `THREADS`: so the result is the same at every block size, up to
//! the grouping of float reductions and scans (the language leaves it unspecified). Inside that
//! frame the generator draws uniform and vector arithmetic on the element type `T` (any of the
//! twelve numeric types, 8- and 16-bit integers and floats included) with casts through the
//! others, checked
//! and unchecked slices, gathers, uniform element reads and stores, scatter stores (without
//! collisions), register vectors, vector variables of run-time length, `shared` arrays (also
//! passed to funcs), computed vectors indexed at other positions, maps
//! (with partial application), reduces and both scans with associative functions (commutative
//! or not), tiles (2-D slices, shared and register tiles, `transpose`), records
//! and a record reduction, `func`s with their own control flow, kernel `if`, `while`,
//! sequential `for` loops and `for` loops the dependence tests may distribute, and atomics
//! whose result does not depend on their order (`atomics.rs`).
//!
//! Every program the generator writes must pass the checker: a program it rejects is a bug of the
//! generator, and the harness reports it as one.

use fastrand::Rng;

#[path = "atomics.rs"]
mod atomics;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    I32,
    I64,
    U32,
    U64,
    F32,
    F64,
    I8,
    I16,
    U8,
    U16,
    F16,
    BF16,
}

impl Ty {
    pub const ALL: [Ty; 12] = [
        Ty::I32,
        Ty::I64,
        Ty::U32,
        Ty::U64,
        Ty::F32,
        Ty::F64,
        Ty::I8,
        Ty::I16,
        Ty::U8,
        Ty::U16,
        Ty::F16,
        Ty::BF16,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Ty::I32 => "Int32",
            Ty::I64 => "Int64",
            Ty::U32 => "UInt32",
            Ty::U64 => "UInt64",
            Ty::F32 => "Float32",
            Ty::F64 => "Float64",
            Ty::I8 => "Int8",
            Ty::I16 => "Int16",
            Ty::U8 => "UInt8",
            Ty::U16 => "UInt16",
            Ty::F16 => "Float16",
            Ty::BF16 => "BFloat16",
        }
    }

    pub fn parse(name: &str) -> Option<Ty> {
        Ty::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64 | Ty::F16 | Ty::BF16)
    }

    pub fn is_unsigned(self) -> bool {
        matches!(self, Ty::U32 | Ty::U64 | Ty::U8 | Ty::U16)
    }

    /// The largest value of an integer type that a literal may have (floats: unused).
    fn literal_max(self) -> u32 {
        match self {
            Ty::I8 => 127,
            Ty::U8 => 255,
            Ty::I16 => 32767,
            Ty::U16 => 65535,
            _ => 99_999,
        }
    }

    pub fn size(self) -> usize {
        match self {
            Ty::I8 | Ty::U8 => 1,
            Ty::I16 | Ty::U16 | Ty::F16 | Ty::BF16 => 2,
            Ty::I32 | Ty::U32 | Ty::F32 => 4,
            Ty::I64 | Ty::U64 | Ty::F64 => 8,
        }
    }
}

/// The interface of a generated kernel: its element type and row length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub ty: Ty,
    pub len: usize,
    /// A float program that sums (`sum`, `a + b`, a record's running sum) in a reduction or scan:
    /// the block size decides how the elements are grouped, so rounding, and what a result fed
    /// back into a loop amplifies, depends on it (docs/language.md). Its block sizes are run,
    /// not compared; `-O0` and `-O3` at one block size still agree bit for bit.
    pub block_size_dependent: bool,
    /// The kernel takes a last parameter `w: Range` (by value, as CUDA passes a struct), which
    /// the harness passes as `range(1, L)` ([`RANGE_PARAM`]). Older regression files have none.
    pub range_param: bool,
    /// The kernel takes a record `p` of this type after `w` ([`RECORD_PARAM`]), passed by value
    /// in its C layout, its field values drawn from the input seed. Older regression files, and
    /// two programs in three, have none.
    pub record_param: Option<RecordType>,
    /// The kernel has this many vector variables stored in scratch rows (docs/language.md,
    /// "Scratch rows"): as many scratch arrays after its parameters, `BLOCKS` rows of `L`
    /// elements each, which the harness allocates ([`SCRATCH_ROWS`]). Older regression files
    /// have none.
    pub scratch_rows: usize,
}

/// A record kernel parameter's type. The header writes it as LOOM writes the type, without
/// spaces and with nested records written out: `{k:Int32,a:Float16,n:{v:Int8,f:Bool}}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordType {
    pub fields: Vec<(String, Field)>,
}

/// A field of a record parameter: a number, a `Bool` (one byte, 0 or 1), or a nested record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    Num(Ty),
    Bool,
    Record(RecordType),
}

/// A leaf of a record parameter's C layout: its dotted name (`n.v`, as the metadata names
/// it), its scalar type (`Field::Num` or `Field::Bool`) and its byte offset in the whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaf {
    pub name: String,
    pub field: Field,
    pub offset: usize,
}

/// A record's C layout: size, alignment and leaves, in field order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub size: usize,
    pub align: usize,
    pub leaves: Vec<Leaf>,
}

impl Field {
    pub fn name(&self) -> String {
        match self {
            Field::Num(ty) => ty.name().to_string(),
            Field::Bool => "Bool".to_string(),
            Field::Record(r) => r.header(),
        }
    }
}

impl RecordType {
    /// The C layout docs/language.md gives ("Kernels and launch"): fields in order, each at its
    /// natural alignment (a scalar's size, `Bool` one byte, a nested record its own), the size
    /// rounded up to the largest alignment. Computed here, apart from the compiler, so that
    /// the harness checks the compiler's layout (the metadata) against it.
    pub fn layout(&self) -> Layout {
        let (mut offset, mut align, mut leaves) = (0usize, 1usize, Vec::new());
        for (name, field) in &self.fields {
            let (size, field_align, inner) = match field {
                Field::Num(ty) => (ty.size(), ty.size(), Vec::new()),
                Field::Bool => (1, 1, Vec::new()),
                Field::Record(r) => {
                    let l = r.layout();
                    (l.size, l.align, l.leaves)
                }
            };
            offset = offset.next_multiple_of(field_align);
            align = align.max(field_align);
            if inner.is_empty() {
                leaves.push(Leaf {
                    name: name.clone(),
                    field: field.clone(),
                    offset,
                });
            }
            leaves.extend(inner.into_iter().map(|leaf| Leaf {
                name: format!("{name}.{}", leaf.name),
                offset: offset + leaf.offset,
                ..leaf
            }));
            offset += size;
        }
        Layout {
            size: offset.next_multiple_of(align),
            align,
            leaves,
        }
    }

    /// `{a:Float32,on:Bool}`: the header's spelling.
    pub fn header(&self) -> String {
        let fields: Vec<String> = self
            .fields
            .iter()
            .map(|(name, field)| format!("{name}:{}", field.name()))
            .collect();
        format!("{{{}}}", fields.join(","))
    }

    /// Reads [`RecordType::header`]'s spelling back (the whole of `text`).
    pub fn parse(text: &str) -> Option<RecordType> {
        let (record, rest) = RecordType::parse_prefix(text)?;
        rest.is_empty().then_some(record)
    }

    fn parse_prefix(text: &str) -> Option<(RecordType, &str)> {
        let mut rest = text.strip_prefix('{')?;
        let mut fields = Vec::new();
        loop {
            let (name, after) = rest.split_once(':')?;
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return None;
            }
            let (field, after) = if after.starts_with('{') {
                let (inner, after) = RecordType::parse_prefix(after)?;
                (Field::Record(inner), after)
            } else {
                let end = after.find([',', '}'])?;
                let field = match &after[..end] {
                    "Bool" => Field::Bool,
                    ty => Field::Num(Ty::parse(ty)?),
                };
                (field, &after[end..])
            };
            fields.push((name.to_string(), field));
            if let Some(after) = after.strip_prefix(',') {
                rest = after;
            } else {
                let after = after.strip_prefix('}')?;
                return Some((RecordType { fields }, after));
            }
        }
    }

    /// The `type` items that declare it as `alias` (a nested record as `alias` + its field's
    /// name, declared first).
    fn items(&self, alias: &str) -> Vec<String> {
        let mut items = Vec::new();
        let mut fields = Vec::new();
        for (name, field) in &self.fields {
            let ty = match field {
                Field::Record(inner) => {
                    let inner_alias = format!("{alias}{name}");
                    items.extend(inner.items(&inner_alias));
                    inner_alias
                }
                other => other.name(),
            };
            fields.push(format!("{name}: {ty}"));
        }
        items.push(format!("type {alias} = {{{}}}", fields.join(", ")));
        items
    }
}

pub const KERNEL: &str = "fuzz";

/// The `w: Range` argument's start and end for a row of `len`: `range(1, len)`.
pub fn range_argument(len: usize) -> (i32, i32) {
    (1, len as i32)
}

/// The header word of a program whose kernel takes `w: Range`.
pub const RANGE_PARAM: &str = "range-param";

/// The header word of a program whose kernel takes a record `p`: `record-param=` and the
/// record's type ([`RecordType::header`]).
pub const RECORD_PARAM: &str = "record-param=";

/// The header word of a program with scratch rows: `scratch-rows=N`.
pub const SCRATCH_ROWS: &str = "scratch-rows=";

/// The record parameter's name and its type's alias.
pub const RECORD_NAME: &str = "p";
const RECORD_ALIAS: &str = "P";

/// The line every generated program starts with; the regression harness reads it back.
pub fn header(shape: &Shape) -> String {
    let dependent = if shape.block_size_dependent {
        " block-size-dependent"
    } else {
        ""
    };
    let range = if shape.range_param {
        format!(" {RANGE_PARAM}")
    } else {
        String::new()
    };
    let record = match &shape.record_param {
        Some(r) => format!(" {RECORD_PARAM}{}", r.header()),
        None => String::new(),
    };
    let scratch = match shape.scratch_rows {
        0 => String::new(),
        n => format!(" {SCRATCH_ROWS}{n}"),
    };
    format!(
        "--! differential: {} {}{dependent}{range}{record}{scratch}",
        shape.ty.name(),
        shape.len
    )
}

/// Reads `--! differential: T L [FLAGS]` from a program's first lines (`None` if there is
/// none, or if its `record-param=` does not parse).
pub fn parse_header(source: &str) -> Option<Shape> {
    source.lines().find_map(|line| {
        let rest = line.strip_prefix("--! differential:")?;
        let mut words = rest.split_whitespace();
        let ty = Ty::parse(words.next()?)?;
        let len = words.next()?.parse().ok()?;
        let flags: Vec<&str> = words.collect();
        let record_param = match flags.iter().find_map(|f| f.strip_prefix(RECORD_PARAM)) {
            Some(text) => Some(RecordType::parse(text)?),
            None => None,
        };
        let scratch_rows = match flags.iter().find_map(|f| f.strip_prefix(SCRATCH_ROWS)) {
            Some(n) => n.parse().ok()?,
            None => 0,
        };
        Some(Shape {
            ty,
            len,
            block_size_dependent: flags.contains(&"block-size-dependent"),
            range_param: flags.contains(&RANGE_PARAM),
            record_param,
            scratch_rows,
        })
    })
}

/// One generated program.
pub struct Program {
    pub shape: Shape,
    pub source: String,
}

/// The program for `seed`: the same seed gives the same program on every machine.
pub fn generate(seed: u64) -> Program {
    let mut rng = Rng::with_seed(seed);
    let ty = Ty::ALL[rng.usize(..Ty::ALL.len())];
    const LENGTHS: [usize; 10] = [1, 2, 7, 31, 32, 33, 64, 100, 257, 300];
    let len = if rng.bool() {
        LENGTHS[rng.usize(..LENGTHS.len())]
    } else {
        rng.usize(1..=320)
    };
    let rng_scan = rng.bool();
    let [first, second] = crate::differential::block_sizes(seed);
    // The record parameter, and where it is read, come from a stream of their own: the rest of
    // the program is what the seed gave before the parameter existed.
    let mut record_rng = Rng::with_seed(seed ^ 0x7265_636f_7264);
    let record_param = draw_record(ty, &mut record_rng);
    let mut gen = Gen {
        self_read_limit: SELF_READ_SLOTS * first.min(second) as usize,
        rng,
        range_rng: Rng::with_seed(seed ^ 0x7261_6e67_6500),
        scratch_rng: Rng::with_seed(seed ^ 0x7363_7261_7463),
        clip_rng: Rng::with_seed(seed ^ 0x636c_6970),
        scratch_rows: 0,
        record_rng,
        record_param: record_param.clone(),
        ty,
        len,
        items: Vec::new(),
        unary: Vec::new(),
        binary: Vec::new(),
        pickers: Vec::new(),
        combiners: Vec::new(),
        sums_floats: false,
        record: None,
        scopes: vec![Scope::default()],
        lines: Vec::new(),
        next: 0,
        scan: if rng_scan { "/:" } else { ":/" },
    };
    gen.items_and_kernel();
    let shape = Shape {
        ty,
        len,
        block_size_dependent: gen.sums_floats,
        range_param: true,
        record_param,
        scratch_rows: gen.scratch_rows,
    };
    let mut source = header(&shape);
    source.push_str(&format!("\n-- generated from seed {seed}\n"));
    let record_items = shape
        .record_param
        .as_ref()
        .map_or_else(Vec::new, |r| r.items(RECORD_ALIAS));
    for item in record_items.iter().chain(&gen.items) {
        source.push_str(item);
        source.push('\n');
    }
    let record = match shape.record_param {
        Some(_) => format!(", {RECORD_NAME}: {RECORD_ALIAS}"),
        None => String::new(),
    };
    source.push_str(&format!(
        "kernel {KERNEL}(s: {t}, x: {t}[BLOCKS, {len}], y: {t}[BLOCKS, {len}], \
         out: {t}[BLOCKS, {len}], acc: {t}[BLOCKS], w: Range{record})\n",
        t = ty.name()
    ));
    for line in &gen.lines {
        source.push_str(line);
        source.push('\n');
    }
    Program { shape, source }
}

/// A record parameter for one program in three: the element type's field `a` and an `Int32`
/// `k`, maybe a `Bool` `on`, a field `m` of any numeric type and a nested record `n` (a number
/// `v` and a `Bool` `f`), in a random order, so that alignment padding falls in different places.
fn draw_record(ty: Ty, rng: &mut Rng) -> Option<RecordType> {
    if rng.u32(..3) != 0 {
        return None;
    }
    let any = |rng: &mut Rng| Ty::ALL[rng.usize(..Ty::ALL.len())];
    let mut fields = vec![
        ("a".to_string(), Field::Num(ty)),
        ("k".to_string(), Field::Num(Ty::I32)),
    ];
    if rng.bool() {
        fields.push(("on".to_string(), Field::Bool));
    }
    if rng.bool() {
        fields.push(("m".to_string(), Field::Num(any(rng))));
    }
    if rng.u32(..3) == 0 {
        let mut inner = vec![
            ("v".to_string(), Field::Num(any(rng))),
            ("f".to_string(), Field::Bool),
        ];
        rng.shuffle(&mut inner);
        fields.push(("n".to_string(), Field::Record(RecordType { fields: inner })));
    }
    rng.shuffle(&mut fields);
    Some(RecordType { fields })
}

#[derive(Default, Clone)]
struct Scope {
    /// Uniform variables of type `T`, assignable or not.
    uniforms: Vec<(String, bool)>,
    /// Register vectors of length `L`.
    vectors: Vec<String>,
    /// Shared arrays of type `T` and their lengths (at least `L`).
    shared: Vec<(String, usize)>,
    /// Records of the program's record type.
    records: Vec<String>,
    /// `Int32` loop counters.
    counters: Vec<String>,
}

/// How many elements per thread a vector assignment that reads its own target buffers in
/// registers (docs/language.md: E0811 beyond).
const SELF_READ_SLOTS: usize = 64;

struct Gen {
    /// The longest vector an assignment that reads its own target may have at the smaller of
    /// the two block sizes the program is checked at ([`SELF_READ_SLOTS`] per thread).
    self_read_limit: usize,
    rng: Rng,
    /// Where the `w: Range` parameter replaces a literal: a stream apart from `rng`.
    range_rng: Rng,
    /// Which run-time vectors are assigned again (so stored in scratch rows): a stream apart
    /// from `rng` too, so that every seed's program is otherwise what it was before.
    scratch_rng: Rng,
    /// Which run-time vectors' slices are cut with `min` at the row's length (a run-time length
    /// with a compile-time bound, `Checked::range_bounds`): a stream apart from `rng` too.
    clip_rng: Rng,
    /// How many vector variables the kernel stores in scratch rows.
    scratch_rows: usize,
    /// Where the record parameter's fields replace a literal or join a condition: a stream
    /// apart from `rng` too.
    record_rng: Rng,
    record_param: Option<RecordType>,
    ty: Ty,
    len: usize,
    items: Vec<String>,
    /// Element functions `T -> T`, and `T, T -> T`.
    unary: Vec<String>,
    binary: Vec<String>,
    /// Functions `T[], Int32 -> T` reading their array at an index (checked): called with a
    /// `shared` array or a row of `x`/`y`, elementwise on a vector of indices.
    pickers: Vec<String>,
    /// Associative functions `T, T -> T` for reduces and scans.
    combiners: Vec<String>,
    /// Whether a reduction or scan sums floats (see [`Shape::block_size_dependent`]).
    sums_floats: bool,
    /// The record type: (alias, maker `T, T -> R`, associative combiner `R, R -> R`).
    record: Option<(String, String, String)>,
    scopes: Vec<Scope>,
    lines: Vec<String>,
    next: usize,
    /// `/:` or `:/`.
    scan: &'static str,
}

impl Gen {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn t(&self) -> &'static str {
        self.ty.name()
    }

    fn pick<'a>(&mut self, options: &'a [&'a str]) -> &'a str {
        options[self.rng.usize(..options.len())]
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.rng.u32(..100) < percent
    }

    fn visible(&self) -> Scope {
        let mut all = Scope::default();
        for scope in &self.scopes {
            all.uniforms.extend(scope.uniforms.iter().cloned());
            all.vectors.extend(scope.vectors.iter().cloned());
            all.shared.extend(scope.shared.iter().cloned());
            all.records.extend(scope.records.iter().cloned());
            all.counters.extend(scope.counters.iter().cloned());
        }
        all
    }

    // ----- literals and operators -----

    fn literal(&mut self) -> String {
        if self.ty.is_float() {
            let whole = self.rng.i32(-4..=4);
            let eighths = self.rng.u32(0..8);
            let value = whole as f64 + eighths as f64 / 8.0;
            if value < 0.0 {
                format!("(-{:?})", -value)
            } else {
                format!("{value:?}")
            }
        } else if self.ty.is_unsigned() {
            match self.rng.u32(0..10) {
                0 => "0".to_string(),
                1 => format!("{}", self.rng.u32(100..=self.ty.literal_max())),
                _ => format!("{}", self.rng.u32(1..20)),
            }
        } else {
            match self.rng.u32(0..10) {
                0 => "0".to_string(),
                1 => format!("(-{})", self.rng.u32(1..50)),
                2 => format!("{}", self.rng.u32(100..=self.ty.literal_max())),
                _ => format!("{}", self.rng.u32(1..20)),
            }
        }
    }

    fn binary_operator(&mut self) -> &'static str {
        if self.ty.is_float() {
            self.pick(&["+", "-", "*", "+", "-", "*", "/", "%"])
        } else {
            self.pick(&[
                "+", "-", "*", "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>",
            ])
        }
    }

    fn comparison(&mut self) -> &'static str {
        self.pick(&["<", "<=", ">", ">=", "==", "!="])
    }

    /// A type to cast through: the result is cast back to `T`.
    fn other_type(&mut self) -> Ty {
        Ty::ALL[self.rng.usize(..Ty::ALL.len())]
    }

    // ----- items -----

    fn items_and_kernel(&mut self) {
        let t = self.t();
        for _ in 0..self.rng.usize(0..=2) {
            let name = self.fresh("f");
            let body = self.func_body(&["a"], 1);
            self.items
                .push(format!("func {name}(a: {t}): {t}\n{}", body.join("\n")));
            self.unary.push(name);
        }
        for _ in 0..self.rng.usize(0..=2) {
            let name = self.fresh("g");
            let body = self.func_body(&["a", "b"], 2);
            self.items.push(format!(
                "func {name}(a: {t}, b: {t}): {t}\n{}",
                body.join("\n")
            ));
            self.binary.push(name);
        }
        if self.chance(40) {
            let name = self.fresh("pick");
            // Sometimes a func given an array it never reads: a place where a barrier may go
            // with no access (kir-barriers once recorded none there).
            let body = if self.chance(20) {
                self.literal()
            } else {
                "t[[i]]".to_string()
            };
            self.items.push(format!(
                "func {name}(t: {t}[], i: Int32): {t}\n  return {body}"
            ));
            self.pickers.push(name);
        }
        self.combiners();
        if self.chance(40) {
            self.record_type();
        }
        self.kernel_body();
    }

    /// The body of an element function: straight-line code, an `if`, or a bounded `while`.
    fn func_body(&mut self, params: &[&str], arity: usize) -> Vec<String> {
        let t = self.t();
        let mut lines = Vec::new();
        match self.rng.u32(0..3) {
            0 => {
                let e = self.func_expr(params, 3);
                lines.push(format!("  return {e}"));
            }
            1 => {
                let a = self.func_expr(params, 2);
                let b = self.func_expr(params, 2);
                let cmp = self.comparison();
                let e = self.func_expr(params, 3);
                lines.push(format!("  if {a} {cmp} {b}"));
                lines.push(format!("    then return {e}"));
                let e = self.func_expr(params, 3);
                lines.push(format!("  return {e}"));
            }
            _ => {
                let trips = self.rng.u32(0..4);
                let start = self.func_expr(params, 1);
                lines.push(format!("  r: {t} <- {start}"));
                lines.push("  k: Int32 <- 0".to_string());
                lines.push(format!("  while k < {trips}"));
                let mut with_r = params.to_vec();
                with_r.push("r");
                let step = self.func_expr(&with_r, 2);
                lines.push(format!("    r <- {step}"));
                lines.push("    k <- k + 1".to_string());
                lines.push("  return r".to_string());
            }
        }
        let _ = arity;
        lines
    }

    fn func_expr(&mut self, params: &[&str], depth: u32) -> String {
        if depth == 0 || self.chance(25) {
            return if self.chance(70) {
                params[self.rng.usize(..params.len())].to_string()
            } else {
                self.literal()
            };
        }
        match self.rng.u32(0..10) {
            0 if !self.unary.is_empty() => {
                let f = self.unary[self.rng.usize(..self.unary.len())].clone();
                let a = self.func_expr(params, depth - 1);
                format!("{f}({a})")
            }
            1 => self.cast_through(|g| g.func_expr(params, depth - 1)),
            2 => {
                let a = self.func_expr(params, depth - 1);
                if self.ty.is_float() || self.chance(50) {
                    negate(self.ty, &a)
                } else {
                    format!("(~{a})")
                }
            }
            3 => {
                let f = self.pick(&["min", "max", "abs"]);
                let a = self.func_expr(params, depth - 1);
                // Overloads are chosen before literals get a type: `abs(1)` is `Int32`'s.
                let t = self.t();
                if f == "abs" {
                    format!("abs({t}({a}))")
                } else {
                    let b = self.func_expr(params, depth - 1);
                    format!("{f}({t}({a}), {b})")
                }
            }
            _ => {
                let a = self.func_expr(params, depth - 1);
                let op = self.binary_operator();
                let mut b = self.func_expr(params, depth - 1);
                if may_be_constant(&a) && may_be_constant(&b) {
                    b = params[0].to_string();
                }
                format!("({a} {op} {b})")
            }
        }
    }

    /// `T(U(e))`: a cast through another type and back (saturating, rounding, truncating, all
    /// defined).
    fn cast_through(&mut self, inner: impl FnOnce(&mut Gen) -> String) -> String {
        // The inner `T(e)` gives the literals of `e` their type: in `U(e)` they would take `U`.
        let other = self.other_type();
        let e = inner(self);
        format!("{t}({}({t}({e})))", other.name(), t = self.t())
    }

    /// The associative functions reduces and scans may use: the library's, and user functions,
    /// commutative and not.
    fn combiners(&mut self) {
        let t = self.t();
        let mut names: Vec<String> = vec!["sum".into(), "min".into(), "max".into()];
        if !self.ty.is_float() {
            names.push("prod".into());
        }
        let mut user: Vec<(&str, Vec<String>)> = vec![
            ("add", vec!["  return a + b".into()]),
            (
                "firstNonZero",
                vec![
                    "  if a != 0".into(),
                    "    then return a".into(),
                    "  return b".into(),
                ],
            ),
            ("right", vec!["  return b".into()]),
            ("left", vec!["  return a".into()]),
            (
                "larger",
                // A float NaN (`x % 0.0`) must win from either side, or the result would depend
                // on the grouping (`larger(NaN, 3)` would be 3 and `larger(3, NaN)` NaN).
                if self.ty.is_float() {
                    vec![
                        "  if a > b or a != a then return a".into(),
                        "  return b".into(),
                    ]
                } else {
                    vec!["  if a > b then return a".into(), "  return b".into()]
                },
            ),
        ];
        if !self.ty.is_float() {
            user.push(("mul", vec!["  return b * a".into()]));
            user.push(("band", vec!["  return a & b".into()]));
            user.push(("bor", vec!["  return b | a".into()]));
            user.push(("bxor", vec!["  return a ^ b".into()]));
        }
        for _ in 0..self.rng.usize(1..=3) {
            let (stem, body) = user.swap_remove(self.rng.usize(..user.len()));
            let name = self.fresh(stem);
            self.items.push(format!(
                "func {name}(a: {t}, b: {t}): {t}\n{}",
                body.join("\n")
            ));
            names.push(name);
        }
        self.combiners = names;
    }

    /// A record type with a maker and an associative combiner: for integers the composition of
    /// affine maps `x -> a * x + b` (associative, not commutative, exact in wrapping arithmetic),
    /// for floats a running sum and maximum.
    fn record_type(&mut self) {
        let t = self.t();
        let alias = self.fresh("R");
        let make = self.fresh("mk");
        let combine = self.fresh("cmb");
        self.items
            .push(format!("type {alias} = {{a: {t}, b: {t}}}"));
        self.items.push(format!(
            "func {make}(p: {t}, q: {t}): {alias}\n  return {{a: p, b: q}}"
        ));
        if self.ty.is_float() {
            self.items.push(format!(
                "func {combine}(p: {alias}, q: {alias}): {alias}\n  \
                 return {{a: p.a + q.a, b: max(p.b, q.b)}}"
            ));
        } else {
            self.items.push(format!(
                "func {combine}(p: {alias}, q: {alias}): {alias}\n  \
                 return {{a: p.a * q.a, b: q.a * p.b + q.b}}"
            ));
        }
        self.record = Some((alias, make, combine));
    }

    // ----- expressions in kernel code -----

    fn combiner(&mut self) -> String {
        let f = self.combiners[self.rng.usize(..self.combiners.len())].clone();
        if self.ty.is_float() && (f == "sum" || f.starts_with("add")) {
            self.sums_floats = true;
        }
        f
    }

    /// A vector of `T` of length `L`.
    fn vector(&mut self, depth: u32) -> String {
        let len = self.len;
        if depth == 0 || self.chance(20) {
            let scope = self.visible();
            return match self.rng.u32(0..9) {
                0 | 1 => format!("{}[B]", self.pick(&["x", "y"])),
                2 if !scope.vectors.is_empty() => {
                    scope.vectors[self.rng.usize(..scope.vectors.len())].clone()
                }
                3 if !scope.shared.is_empty() => {
                    let (name, n) = scope.shared[self.rng.usize(..scope.shared.len())].clone();
                    if n == len && self.chance(50) {
                        name
                    } else {
                        let start = self.rng.usize(..=n - len);
                        format!("{name}[range({start}, {})]", start + len)
                    }
                }
                4 => {
                    let offset = self.rng.i32(-3..=3);
                    let a = self.pick(&["x", "y", "out"]);
                    format!("{a}[[B, range({offset}, {})]]", len as i64 + offset as i64)
                }
                5 => {
                    let stride = self.rng.u32(1..8);
                    let a = self.pick(&["x", "y"]);
                    format!("{a}[B, (Int32 /~ range(0, {len})) * {stride} % {len}]")
                }
                6 => {
                    let stride = self.rng.u32(1..4);
                    let offset = self.rng.i32(-5..=5);
                    format!("y[[B, (Int32 /~ range(0, {len})) * {stride} + {}]]", offset)
                        .replace("+ -", "- ")
                }
                7 => format!("({} /~ range(0, {len}))", self.t()),
                _ => format!("{}[B]", self.pick(&["x", "y", "out"])),
            };
        }
        match self.rng.u32(0..16) {
            // A computed vector indexed at other positions (gone through a shared copy), some
            // of them outside it (checked: zero).
            14 => {
                let v = self.vector(depth - 1);
                let stride = self.rng.u32(1..4);
                let offset = self.rng.i32(-3..=3);
                format!("({v})[[(Int32 /~ range(0, {len})) * {stride} % {len} + {offset}]]")
                    .replace("+ -", "- ")
            }
            // A map whose func is given a row, perhaps the statement's own target's, and reads
            // it at the mapped index: a store reads its own target through the func's body
            // (kir-accesses: in place only where each thread reads its own element).
            15 if !self.pickers.is_empty() && self.chance(30) => {
                let f = self.pickers[self.rng.usize(..self.pickers.len())].clone();
                let array = self.pick(&["x", "y", "out"]);
                let offset = self.rng.i32(-2..=2);
                format!(
                    "({f}({array}[B]) /~ range({offset}, {}))",
                    len as i64 + offset as i64
                )
            }
            // A func reading a shared array or a row of an input at other positions.
            15 if !self.pickers.is_empty() => {
                let f = self.pickers[self.rng.usize(..self.pickers.len())].clone();
                let scope = self.visible();
                let array = match scope.shared.first() {
                    Some((name, _)) if self.chance(60) => name.clone(),
                    _ => format!("{}[B]", self.pick(&["x", "y"])),
                };
                let stride = self.rng.u32(1..4);
                let offset = self.rng.i32(-2..=2);
                format!("{f}({array}, (Int32 /~ range(0, {len})) * {stride} + {offset})")
                    .replace("+ -", "- ")
            }
            0..=3 => {
                let a = self.vector(depth - 1);
                let op = self.binary_operator();
                let b = if self.chance(50) {
                    self.vector(depth - 1)
                } else {
                    self.uniform(depth - 1)
                };
                if self.chance(50) {
                    format!("({a} {op} {b})")
                } else {
                    format!("({b} {op} {a})")
                }
            }
            4 => {
                let a = self.vector(depth - 1);
                if self.ty.is_float() || self.chance(50) {
                    negate(self.ty, &a)
                } else {
                    format!("(~{a})")
                }
            }
            5 | 6 if (!self.unary.is_empty() || !self.binary.is_empty()) && self.chance(50) => {
                self.elementwise_call(depth)
            }
            5 | 6 if !self.unary.is_empty() || !self.binary.is_empty() => {
                let v = self.vector(depth - 1);
                if !self.binary.is_empty() && (self.unary.is_empty() || self.chance(50)) {
                    let g = self.binary[self.rng.usize(..self.binary.len())].clone();
                    let u = self.uniform(depth - 1);
                    format!("({g}({u}) /~ {v})")
                } else {
                    let f = self.unary[self.rng.usize(..self.unary.len())].clone();
                    format!("({f} /~ {v})")
                }
            }
            7 => {
                let a = self.vector(depth - 1);
                let cmp = self.comparison();
                let b = self.uniform(depth - 1);
                let then = self.vector(depth - 1);
                let otherwise = if self.chance(50) {
                    self.vector(depth - 1)
                } else {
                    self.uniform(depth - 1)
                };
                format!("select({a} {cmp} {b}, {then}, {otherwise})")
            }
            8 | 9 => {
                let f = self.combiner();
                let v = self.vector(depth - 1);
                // One direction per program: a left and a right scan in one statement are
                // computed into registers first, at most 64 elements per thread (E0811 beyond,
                // which a row of 320 elements at block size 1 would meet).
                let scan = self.scan;
                format!("({f} {scan} {v})")
            }
            10 => self.cast_through(|g| g.vector(depth - 1)),
            11 if !self.ty.is_float() => {
                let a = self.vector(depth - 1);
                let cmp = self.comparison();
                let b = self.vector(depth - 1);
                format!("{}({a} {cmp} {b})", self.t())
            }
            _ => {
                let a = self.vector(depth - 1);
                let op = self.binary_operator();
                let b = self.vector(depth - 1);
                format!("({a} {op} {b})")
            }
        }
    }

    /// An elementwise call of an element function on vectors: `f(v)`, or `g(a, b)` with one or
    /// both arguments vectors (a uniform one broadcast). Needs a unary or binary function.
    fn elementwise_call(&mut self, depth: u32) -> String {
        if !self.binary.is_empty() && (self.unary.is_empty() || self.chance(50)) {
            let g = self.binary[self.rng.usize(..self.binary.len())].clone();
            let a = self.vector(depth - 1);
            let b = if self.chance(50) {
                self.vector(depth - 1)
            } else {
                self.uniform(depth - 1)
            };
            if self.chance(50) {
                format!("{g}({a}, {b})")
            } else {
                format!("{g}({b}, {a})")
            }
        } else {
            let f = self.unary[self.rng.usize(..self.unary.len())].clone();
            let v = self.vector(depth - 1);
            format!("{f}({v})")
        }
    }

    /// A uniform value of `T`.
    fn uniform(&mut self, depth: u32) -> String {
        let len = self.len;
        if depth == 0 || self.chance(25) {
            let scope = self.visible();
            return match self.rng.u32(0..10) {
                0 => "s".to_string(),
                1 if !scope.uniforms.is_empty() => scope.uniforms
                    [self.rng.usize(..scope.uniforms.len())]
                .0
                .clone(),
                2 => format!("{}(B)", self.t()),
                3 => {
                    let a = self.pick(&["x", "y", "out"]);
                    let i = self.rng.usize(..len);
                    format!("{a}[B, {i}]")
                }
                4 => {
                    let i = self.rng.i32(-2..=len as i32 + 1);
                    format!("y[[B, {i}]]")
                }
                5 if !scope.shared.is_empty() => {
                    let (name, n) = scope.shared[self.rng.usize(..scope.shared.len())].clone();
                    let i = self.rng.usize(..n);
                    format!("{name}[{i}]")
                }
                6 if !scope.records.is_empty() => {
                    let r = scope.records[self.rng.usize(..scope.records.len())].clone();
                    format!("{r}.{}", self.pick(&["a", "b"]))
                }
                7 if !scope.counters.is_empty() => {
                    let c = scope.counters[self.rng.usize(..scope.counters.len())].clone();
                    format!("{}({c})", self.t())
                }
                _ => {
                    let literal = self.literal();
                    // The `Range` parameter, passed by value (`range(1, L)`), in place of a
                    // literal, drawn from a stream of its own: the rest of the program is what
                    // the seed gave before the parameter existed.
                    if self.range_rng.u32(..100) < 25 {
                        let fields = ["w.start", "w.end", "(w.end - w.start)"];
                        let field = fields[self.range_rng.usize(..fields.len())];
                        format!("{}({field})", self.t())
                    } else if self.record_param.is_some() && self.record_rng.u32(..100) < 30 {
                        let leaves = self.record_leaves();
                        let leaf = &leaves[self.record_rng.usize(..leaves.len())];
                        self.read_leaf(leaf)
                    } else {
                        literal
                    }
                }
            };
        }
        match self.rng.u32(0..10) {
            0..=2 => {
                let a = self.uniform(depth - 1);
                let op = self.binary_operator();
                let mut b = self.uniform(depth - 1);
                if may_be_constant(&a) && may_be_constant(&b) {
                    b = "s".to_string();
                }
                format!("({a} {op} {b})")
            }
            3 | 4 => {
                let f = self.combiner();
                let v = self.vector(depth - 1);
                format!("({f} /. {v})")
            }
            5 if !self.unary.is_empty() => {
                let f = self.unary[self.rng.usize(..self.unary.len())].clone();
                let a = self.uniform(depth - 1);
                format!("{f}({a})")
            }
            6 if !self.binary.is_empty() => {
                let g = self.binary[self.rng.usize(..self.binary.len())].clone();
                let a = self.uniform(depth - 1);
                let b = self.uniform(depth - 1);
                format!("{g}({a}, {b})")
            }
            7 if self.chance(30) => {
                // One element of a computed vector (a shared copy), maybe outside it.
                let v = self.vector(depth - 1);
                let i = self.rng.i32(-1..=len as i32);
                format!("({v})[[{i}]]")
            }
            7 => self.cast_through(|g| g.uniform(depth - 1)),
            8 => {
                let c = self.condition(depth - 1);
                // Two literal arms would be typed `Int32` whatever the context: one is not.
                let mut a = self.uniform(depth - 1);
                if is_literal(&a) {
                    a = "s".to_string();
                }
                let b = self.uniform(depth - 1);
                format!("select({c}, {a}, {b})")
            }
            _ => {
                let a = self.uniform(depth - 1);
                if self.ty.is_float() || self.chance(50) {
                    negate(self.ty, &a)
                } else {
                    format!("(~{a})")
                }
            }
        }
    }

    /// The record parameter's leaves (none without one).
    fn record_leaves(&self) -> Vec<Leaf> {
        self.record_param
            .as_ref()
            .map_or_else(Vec::new, |r| r.layout().leaves)
    }

    /// A leaf of the record parameter as a `T`: `p.a`, `T(p.n.v)`, `T(Int32(p.on))`.
    fn read_leaf(&self, leaf: &Leaf) -> String {
        let t = self.t();
        match leaf.field {
            Field::Num(ty) if ty == self.ty => format!("{RECORD_NAME}.{}", leaf.name),
            Field::Bool if self.ty == Ty::I32 => format!("Int32({RECORD_NAME}.{})", leaf.name),
            Field::Bool => format!("{t}(Int32({RECORD_NAME}.{}))", leaf.name),
            _ => format!("{t}({RECORD_NAME}.{})", leaf.name),
        }
    }

    fn condition(&mut self, depth: u32) -> String {
        let c = self.comparisons(depth);
        // A `Bool` field of the record parameter joins some conditions.
        let flags: Vec<Leaf> = self
            .record_leaves()
            .into_iter()
            .filter(|l| l.field == Field::Bool)
            .collect();
        if flags.is_empty() || self.record_rng.u32(..100) >= 25 {
            return c;
        }
        let flag = &flags[self.record_rng.usize(..flags.len())].name;
        match self.record_rng.u32(..3) {
            0 => format!("({c} and {RECORD_NAME}.{flag})"),
            1 => format!("(not {RECORD_NAME}.{flag} or {c})"),
            _ => format!("({RECORD_NAME}.{flag} == {c})"),
        }
    }

    fn comparisons(&mut self, depth: u32) -> String {
        let a = self.uniform(depth);
        let cmp = self.comparison();
        let b = self.uniform(depth);
        match self.rng.u32(0..6) {
            0 => {
                let c = self.condition(0);
                format!("({a} {cmp} {b} and {c})")
            }
            1 => {
                let c = self.condition(0);
                format!("({a} {cmp} {b} or not {c})")
            }
            _ => format!("({a} {cmp} {b})"),
        }
    }

    // ----- statements -----

    /// A scatter store whose positions never collide (a reversal, a rotation, or a shift that
    /// a checked store partly drops), so the result does not depend on which thread stores
    /// first: into this block's row of `out` (when the value does not read `out`, which would
    /// buffer it in registers: E0811 at small block sizes), or into a fresh `shared` array.
    fn scatter(&mut self, indent: usize) {
        let t = self.t();
        let len = self.len;
        let lane = format!("(Int32 /~ range(0, {len}))");
        let (index, must_check) = match self.rng.u32(0..3) {
            0 => (format!("({} - {lane})", len - 1), false),
            1 => {
                let by = self.rng.usize(..len);
                (format!("(({lane} + {by}) % {len})"), false)
            }
            _ => {
                let half = len as i64 / 2;
                let by = self.rng.i64(-half..=half);
                let by = if by < 0 {
                    format!("(-{})", -by)
                } else {
                    by.to_string()
                };
                (format!("({lane} + {by})"), true)
            }
        };
        let (open, close) = if must_check || self.chance(50) {
            ("[[", "]]")
        } else {
            ("[", "]")
        };
        let v = self.vector(2);
        if !v.contains("out") && self.chance(50) {
            self.emit(indent, format!("out{open}B, {index}{close} <- {v}"));
        } else {
            let name = self.fresh("t");
            let n = len + self.rng.usize(0..40);
            let fill = self.uniform(1);
            self.emit(indent, format!("shared {name}: {t}[{n}] <- {fill}"));
            self.emit(indent, format!("{name}{open}{index}{close} <- {v}"));
            self.scopes.last_mut().unwrap().shared.push((name, n));
        }
    }

    /// `target <- v`, where `target` is the vector of `L` elements of the variable or array
    /// `base`. When `v` reads `base` and the row is longer than [`Gen::self_read_limit`], the
    /// value is computed into a fresh vector variable first: an assignment that reads its own
    /// target at other positions buffers the value in registers, at most 64 elements per thread
    /// (E0811 beyond, a documented limit: `out[B] <- sum /: out[[B, range(1, 258)]]` at block
    /// size 4, seed 7000096). Draws nothing from the generator's random numbers, so every other
    /// seed's program stays the same.
    fn assign_vector(&mut self, indent: usize, target: &str, base: &str, v: String) {
        if self.len > self.self_read_limit && mentions(&v, base) {
            let t = self.t();
            let name = self.fresh("v");
            self.emit(indent, format!("{name}: {t}[] <- {v}"));
            self.emit(indent, format!("{target} <- {name}"));
        } else {
            self.emit(indent, format!("{target} <- {v}"));
        }
    }

    fn emit(&mut self, indent: usize, line: String) {
        self.lines.push(format!("{}{line}", "  ".repeat(indent)));
    }

    fn kernel_body(&mut self) {
        let statements = self.rng.usize(1..=6);
        for _ in 0..statements {
            self.statement(1, 2);
        }
        // Make every uniform and vector variable of the kernel's outer scope observable.
        let scope = self.scopes[0].clone();
        let mut total = self.uniform(2);
        for (u, _) in &scope.uniforms {
            total = format!("({total} + {u})");
        }
        for r in &scope.records {
            total = format!("({total} + {r}.a + {r}.b)");
        }
        // Every leaf of the record parameter, so that a field packed at the wrong offset shows.
        for leaf in self.record_leaves() {
            total = format!("({total} + {})", self.read_leaf(&leaf));
        }
        self.emit(1, format!("acc[B] <- {total}"));
        for v in &scope.vectors {
            self.emit(1, format!("out[B] <- out[B] + {v}"));
        }
        for (name, n) in &scope.shared {
            self.emit(
                1,
                format!("out[B] <- out[B] - {name}[range(0, {})]", self.len.min(*n)),
            );
        }
    }

    fn block(&mut self, indent: usize, nesting: u32) {
        self.scopes.push(Scope::default());
        for _ in 0..self.rng.usize(1..=3) {
            self.statement(indent, nesting);
        }
        self.scopes.pop();
    }

    fn statement(&mut self, indent: usize, nesting: u32) {
        let t = self.t();
        let len = self.len;
        match self.rng.u32(0..19) {
            18 => self.tiles(indent),
            17 => self.run_time_vector(indent),
            16 if self.ty.size() >= 4 || self.ty.is_float() => self.atomic_statement(indent),
            // PTX has no 8- or 16-bit integer atomics (the checker's E0601): another statement
            // instead.
            16 => self.statement(indent, nesting),
            0 | 1 => {
                let name = self.fresh("u");
                let e = self.uniform(2);
                self.emit(indent, format!("{name}: {t} <- {e}"));
                self.scopes.last_mut().unwrap().uniforms.push((name, true));
            }
            2 => {
                let name = self.fresh("v");
                let e = self.vector(2);
                self.emit(indent, format!("{name}: {t}[] <- {e}"));
                self.scopes.last_mut().unwrap().vectors.push(name);
            }
            3 => {
                let name = self.fresh("t");
                if self.chance(50) {
                    let e = self.vector(2);
                    self.emit(indent, format!("shared {name}: {t}[] <- {e}"));
                    self.scopes.last_mut().unwrap().shared.push((name, len));
                } else {
                    let n = len + self.rng.usize(0..40);
                    let fill = self.uniform(1);
                    self.emit(indent, format!("shared {name}: {t}[{n}] <- {fill}"));
                    self.scopes.last_mut().unwrap().shared.push((name, n));
                }
            }
            4 if self.record.is_some() => {
                let (alias, make, combine) = self.record.clone().unwrap();
                self.sums_floats |= self.ty.is_float();
                let name = self.fresh("r");
                let u = self.uniform(1);
                let v = self.vector(2);
                self.emit(
                    indent,
                    format!("{name}: {alias} <- {combine} /. ({make}({u}) /~ {v})"),
                );
                self.scopes.last_mut().unwrap().records.push(name);
            }
            5 => {
                let v = self.vector(2);
                self.assign_vector(indent, "out[B]", "out", v);
            }
            6 => self.scatter(indent),
            7 => {
                let scope = self.visible();
                let targets: Vec<String> = scope
                    .vectors
                    .iter()
                    .cloned()
                    .chain(scope.shared.iter().map(|(name, n)| {
                        if *n == len {
                            name.clone()
                        } else {
                            format!("{name}[range(0, {len})]")
                        }
                    }))
                    .collect();
                if targets.is_empty() {
                    return self.statement(indent, nesting);
                }
                let target = targets[self.rng.usize(..targets.len())].clone();
                let v = self.vector(2);
                let base = target.split('[').next().unwrap_or(&target).to_string();
                self.assign_vector(indent, &target, &base, v);
            }
            8 => {
                let scope = self.visible();
                let u = self.uniform(2);
                match scope.shared.first() {
                    Some((name, n)) if self.chance(50) => {
                        let i = self.rng.usize(..*n);
                        self.emit(indent, format!("{name}[{i}] <- {u}"));
                    }
                    _ => {
                        let i = self.rng.i32(-1..=len as i32);
                        self.emit(indent, format!("out[[B, {i}]] <- {u}"));
                    }
                }
            }
            9 => {
                let scope = self.visible();
                let assignable: Vec<String> = scope
                    .uniforms
                    .iter()
                    .filter(|(_, writable)| *writable)
                    .map(|(name, _)| name.clone())
                    .collect();
                if assignable.is_empty() {
                    return self.statement(indent, nesting);
                }
                let target = assignable[self.rng.usize(..assignable.len())].clone();
                let u = self.uniform(2);
                self.emit(indent, format!("{target} <- {u}"));
            }
            10 if nesting > 0 => {
                let c = self.condition(2);
                self.emit(indent, format!("if {c}"));
                self.block(indent + 1, nesting - 1);
                if self.chance(50) {
                    self.emit(indent, "else".to_string());
                    self.block(indent + 1, nesting - 1);
                }
            }
            11 if nesting > 0 => {
                let counter = self.fresh("k");
                let trips = self.rng.u32(0..4);
                self.emit(indent, format!("{counter}: Int32 <- 0"));
                self.emit(indent, format!("while {counter} < {trips}"));
                self.scopes.push(Scope::default());
                self.scopes
                    .last_mut()
                    .unwrap()
                    .counters
                    .push(counter.clone());
                for _ in 0..self.rng.usize(1..=2) {
                    self.statement(indent + 1, nesting - 1);
                }
                self.emit(indent + 1, format!("{counter} <- {counter} + 1"));
                self.scopes.pop();
            }
            12 if nesting > 0 => {
                let counter = self.fresh("i");
                let trips = self.rng.u32(0..4);
                self.emit(indent, format!("for {counter}: Int32 <- range(0, {trips})"));
                self.scopes.push(Scope::default());
                self.scopes.last_mut().unwrap().counters.push(counter);
                for _ in 0..self.rng.usize(1..=2) {
                    self.statement(indent + 1, nesting - 1);
                }
                self.scopes.pop();
            }
            13 | 14 => self.element_loop(indent),
            _ => {
                let u = self.uniform(2);
                let i = self.rng.usize(..len);
                self.emit(indent, format!("out[B, {i}] <- {u}"));
            }
        }
    }

    /// Tiles (two-dimensional block vectors) in a one-dimensional block: a `1 x C` tile and a
    /// `C x 1` tile read as 2-D slices of the inputs (rows of other blocks too, some outside:
    /// checked, zero; `x` and `y` are never written, so that is the same for every block size),
    /// a register tile, `transpose`, tile arithmetic, a reduction over a tile, and 2-D slice
    /// stores into row `B` of `out`.
    fn tiles(&mut self, indent: usize) {
        let t = self.t();
        let len = self.len;
        let c = self.rng.usize(1..=len.min(40));
        let o = self.rng.usize(0..=len - c);
        let row = self.rng.i32(-1..=3);
        let col = self.rng.i32(-1..=len as i32 - 1);
        let (a, b) = (self.pick(&["x", "y"]), self.pick(&["x", "y"]));
        let flat = self.fresh("t");
        let column = self.fresh("t");
        let c32 = c as i32;
        self.emit(
            indent,
            format!("shared {flat}: {t}[1, {c}] <- {a}[[range({row}, {row} + 1), range({col}, {col} + {c32})]]"),
        );
        self.emit(
            indent,
            format!("shared {column}: {t}[{c}, 1] <- {b}[[range({row}, {row} + {c32}), range({col}, {col} + 1)]]"),
        );
        let u = self.uniform(1);
        let op = self.binary_operator();
        let target = format!("out[[range(B, B + 1), range({o}, {})]]", o + c);
        let value = match self.rng.u32(0..3) {
            0 => format!("{flat} {op} {u}"),
            1 => format!("transpose({column}) {op} {flat}"),
            _ => {
                let reg = self.fresh("w");
                let lit = self.literal();
                self.emit(
                    indent,
                    format!("{reg}: {t}[1, {c}] <- transpose({column}) {op} {lit}"),
                );
                format!("{reg} {op} {flat}")
            }
        };
        self.emit(indent, format!("{target} <- {value}"));
        let f = self.combiner();
        let total = self.fresh("u");
        let tile = self.pick(&[flat.as_str(), column.as_str()]).to_string();
        self.emit(indent, format!("{total}: {t} <- {f} /. {tile}"));
        self.scopes.last_mut().unwrap().uniforms.push((total, true));
    }

    /// A vector variable of run-time length (docs/language.md): a product of two checked
    /// slices of the input rows, reduced into a new uniform. Mostly 1 to `L` elements long as
    /// the scalar parameter says: its initializer reads only `x`, `y` and `s`, which no
    /// statement writes, so the checker may always recompute it. One in three is assigned again
    /// before the reduction and so stored in a scratch row, with a length the host knows at
    /// launch (`L - BLOCKS % 1`, which is `L` but not to the checker's folding).
    fn run_time_vector(&mut self, indent: usize) {
        let t = self.t();
        let name = self.fresh("w");
        let a = self.pick(&["x", "y"]);
        let b = self.pick(&["x", "y"]);
        let stored = self.scratch_rng.u32(0..3) == 0;
        let m = if stored {
            format!("({} - BLOCKS % 1)", self.len)
        } else {
            format!("(1 + max(0, Int32(s) % {}))", self.len)
        };
        let op = self.pick(&["+", "*", "-"]);
        // Half of those not stored cut at the row's length with `min` (`m` is at most `L`, so
        // the same positions): a run-time length the checker bounds by `L`, walked in one
        // unrolled slot where `L` is at most the block size. (A scratch row's length is a
        // range's own, E0307 otherwise.)
        let clip = self.clip_rng.bool() && !stored;
        let (first, second) = if clip {
            let len = self.len;
            (
                format!("min({m}, {len})"),
                format!("min({m} + 1, {})", len + 1),
            )
        } else {
            (m.clone(), format!("{m} + 1"))
        };
        self.emit(
            indent,
            format!(
                "{name}: {t}[] <- {a}[[B, range(0, {first})]] {op} {b}[[B, range(1, {second})]]"
            ),
        );
        if stored {
            let again = ["+", "*", "-"][self.scratch_rng.usize(0..3)];
            let c = ["x", "y"][self.scratch_rng.usize(0..2)];
            self.emit(
                indent,
                format!("{name} <- {name} {again} {c}[[B, range(0, {m})]]"),
            );
            self.scratch_rows += 1;
        }
        let f = self.combiner();
        let total = self.fresh("u");
        self.emit(indent, format!("{total}: {t} <- {f} /. {name}"));
        self.scopes.last_mut().unwrap().uniforms.push((total, true));
    }

    /// A `for` over the row's elements: distributed over the threads when the dependence tests
    /// prove its iterations independent, sequential when an element depends on another one.
    fn element_loop(&mut self, indent: usize) {
        let len = self.len;
        let i = self.fresh("i");
        self.emit(indent, format!("for {i}: Int32 <- range(0, {len})"));
        self.scopes.push(Scope::default());
        self.scopes.last_mut().unwrap().counters.push(i.clone());
        let e = self.uniform(2);
        let a = self.pick(&["x", "y"]);
        let read = match self.rng.u32(0..4) {
            0 => {
                let shift = self.rng.usize(1..=3);
                format!("out[B, ({i} + {shift}) % {len}]")
            }
            1 => format!("out[B, {i}]"),
            2 => {
                let shift = self.rng.usize(1..=3);
                format!("out[[B, {i} - {shift}]]")
            }
            _ => format!("{a}[B, {i}]"),
        };
        let op = self.binary_operator();
        if self.chance(30) {
            let local = self.fresh("e");
            let t = self.t();
            self.emit(indent + 1, format!("{local}: {t} <- {read} {op} {e}"));
            self.emit(indent + 1, format!("out[B, {i}] <- {local} + {a}[B, {i}]"));
        } else {
            self.emit(indent + 1, format!("out[B, {i}] <- {read} {op} {e}"));
        }
        self.scopes.pop();
    }
}

/// A literal as `literal()` writes it: `3`, `(-3)`, `1.5`, `(-1.5)`.
fn is_literal(e: &str) -> bool {
    let e = e.trim_start_matches("(-");
    e.starts_with(|c: char| c.is_ascii_digit())
}

/// Whether `e` may be a constant expression (no name in it but type names in casts). The checker
/// folds constants exactly and rejects one that overflows its type, so the generator never
/// combines two of them with an operator: one side becomes a parameter.
fn may_be_constant(e: &str) -> bool {
    e.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|word| word.starts_with(|c: char| c.is_ascii_alphabetic()))
        .all(|word| Ty::parse(word).is_some())
}

/// `-a`, except on a constant of an unsigned type (`-3` does not fit `UInt32`): `~a` there.
fn negate(ty: Ty, a: &str) -> String {
    if ty.is_unsigned() && may_be_constant(a) {
        format!("(~{a})")
    } else {
        format!("(-{a})")
    }
}

/// Whether the LOOM expression `text` names the identifier `name` (not merely a longer one that
/// starts or ends with it: `t1` is not in `t12`).
fn mentions(text: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}
